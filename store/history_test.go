package store

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// seedRun stores a finished run of project at commit with tests; a test
// with healed true has a step that was healed.
type seedTest struct {
	name     string
	status   string
	ms       int64
	attempts int
	healed   bool
	reason   string // another step's miss reason
}

func seedRun(t *testing.T, db *DB, project, commit, status string, at time.Time, tests ...seedTest) int64 {
	t.Helper()
	return seedPlannedRun(t, db, project, commit, status, at, nil, tests...)
}

// seedPlannedRun is seedRun of a run that set out to run the tests named
// in plan (nil: none recorded, as runs stored before 0017).
func seedPlannedRun(t *testing.T, db *DB, project, commit, status string, at time.Time, plan []string, tests ...seedTest) int64 {
	t.Helper()
	ctx := context.Background()
	r := &session.Run{Project: project, Commit: commit, Branch: "main", StartedAt: at, Status: "running", Tests: plan}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	for _, st := range tests {
		tr := &session.TestResult{RunID: r.ID, Name: st.name, Status: session.TestStatus(st.status), DurationMS: st.ms, Attempts: st.attempts}
		tr.Steps = append(tr.Steps, session.StepResult{Index: 0, Command: `--step-type CLICK --description "x"`, Kind: "CLICK",
			Status: session.StatusHit, Cache: "hit", MissReason: st.reason})
		if st.healed {
			tr.Steps = append(tr.Steps, session.StepResult{Index: 1, Command: `--step-type ACT --description "buy"`, Kind: "ACT",
				Status: session.StatusPassed, Cache: "miss", MissReason: session.HealStagedPrefix + ", heal 1 of 2026-12-01 10:00, not reviewed yet)"})
		}
		if st.status == "failed" {
			tr.Error = "step 1 (line 3): no element matches"
		}
		if err := db.SaveTest(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	if status != "running" {
		r.Status, r.FinishedAt = status, at.Add(time.Minute)
		if err := db.FinishRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	return r.ID
}

// seedHistory stores five finished runs of "shop" (1, 2, 3, 5, 7), one of
// another project (4) and one still running (6). Each run recorded the
// tests it set out to run: those it has results for, and run 7, which was
// interrupted after its first test, all five.
func seedHistory(t *testing.T, db *DB) {
	t0 := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	day := func(n int) time.Time { return t0.Add(time.Duration(n) * 24 * time.Hour) }
	run := func(project, commit, status string, at time.Time, tests ...seedTest) {
		var plan []string
		for _, st := range tests {
			plan = append(plan, st.name)
		}
		seedPlannedRun(t, db, project, commit, status, at, plan, tests...)
	}
	run("shop", "c1", "failed", day(0),
		seedTest{name: "checkout", status: "passed", ms: 1000, attempts: 1},
		seedTest{name: "login", status: "passed", ms: 2000, attempts: 1},
		seedTest{name: "search", status: "failed", ms: 300, attempts: 1, reason: "no-match"},
		seedTest{name: "export", status: "passed", ms: 500, attempts: 1})
	run("shop", "c1", "passed", day(1),
		seedTest{name: "checkout", status: "passed", ms: 1200, attempts: 2},
		seedTest{name: "login", status: "passed", ms: 2500, attempts: 1, healed: true},
		seedTest{name: "search", status: "passed", ms: 400, attempts: 1, reason: "unhealed (a near miss of the heal mark)"})
	run("shop", "c2", "failed", day(2),
		seedTest{name: "checkout", status: "passed", ms: 900, attempts: 1},
		seedTest{name: "login", status: "passed", ms: 2100, attempts: 1},
		seedTest{name: "search", status: "failed", ms: 350, attempts: 1},
		seedTest{name: "export", status: "passed", ms: 450, attempts: 1})
	run("blog", "c2", "passed", day(2),
		seedTest{name: "checkout", status: "failed", ms: 9999, attempts: 1})
	run("shop", "c3", "failed", day(3),
		seedTest{name: "checkout", status: "failed", ms: 3000, attempts: 3},
		seedTest{name: "login", status: "passed", ms: 1900, attempts: 1},
		seedTest{name: "search", status: "passed", ms: 380, attempts: 1},
		seedTest{name: "export", status: "passed", ms: 520, attempts: 1},
		seedTest{name: "newbie", status: "passed", ms: 100, attempts: 1})
	run("shop", "c3", "running", day(4),
		seedTest{name: "checkout", status: "failed", ms: 7777, attempts: 1})
	seedPlannedRun(t, db, "shop", "c3", "interrupted", day(4), []string{"checkout", "login", "search", "export", "newbie"},
		seedTest{name: "checkout", status: "passed", ms: 1100, attempts: 1})
}

// strip is a history as marks: P passed, F failed, ~ flaky, H healed, S
// skipped, . absent, with run ids.
func strip(h session.TestHistory) string {
	mark := map[session.Outcome]string{session.OutcomePassed: "P", session.OutcomeFailed: "F", session.OutcomeFlaky: "~",
		session.OutcomeHealed: "H", session.OutcomeSkipped: "S", session.OutcomeAbsent: "."}
	var b strings.Builder
	for _, r := range h.Runs {
		fmt.Fprintf(&b, "%d%s ", r.RunID, mark[r.Outcome])
	}
	return strings.TrimSpace(b.String())
}

// TestTestHistories: each test's outcome in the project's finished runs,
// oldest first: a retry that passed is flaky, a healed step makes a pass
// healed; a run that set out to run the test and has no result for it
// (after its first) is skipped, one that did not include it is absent;
// other projects' runs and runs still going are left out.
func TestTestHistories(t *testing.T) {
	db := openTest(t)
	seedHistory(t, db)
	ctx := context.Background()
	hs, err := db.TestHistories(ctx, session.HistoryQuery{Project: "shop",
		Tests: []string{"checkout", "login", "search", "export", "newbie", "ghost", "login"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name, strip  string
		flaky, ran   int
		lastAttempts int
	}{
		{"checkout", "1P 2~ 3P 5F 7P", 2, 5, 1},
		{"login", "1P 2H 3P 5P 7S", 0, 4, 0},
		{"search", "1F 2P 3F 5P 7S", 1, 4, 0}, // 1 failed, then passed at the same commit; 3 did not (c2 → c3)
		{"export", "1P 2. 3P 5P 7S", 0, 3, 0}, // run 2 did not include it
		{"newbie", "5P 7S", 0, 1, 0},
		{"ghost", "", 0, 0, 0},
	}
	if len(hs) != len(want) {
		t.Fatalf("%d histories, want %d: %+v", len(hs), len(want), hs)
	}
	for i, w := range want {
		h := hs[i]
		if h.Name != w.name || strip(h) != w.strip {
			t.Errorf("history %d: %s %q, want %s %q", i, h.Name, strip(h), w.name, w.strip)
		}
		if flaky, ran := h.Flakiness(); flaky != w.flaky || ran != w.ran {
			t.Errorf("%s: flakiness %d of %d, want %d of %d", h.Name, flaky, ran, w.flaky, w.ran)
		}
		if n := len(h.Runs); n > 0 && h.Runs[n-1].Attempts != w.lastAttempts {
			t.Errorf("%s: last attempts %d, want %d", h.Name, h.Runs[n-1].Attempts, w.lastAttempts)
		}
	}
	c := hs[0].Runs
	if c[3].DurationMS != 3000 || c[3].Attempts != 3 || c[3].Commit != "c3" || c[3].Branch != "main" || c[3].Error == "" ||
		c[3].RunStatus != "failed" || !c[3].At.Equal(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)) || c[3].TestID == 0 {
		t.Errorf("checkout in run 5: %+v", c[3])
	}
	if s := hs[1].Runs[4]; s.TestID != 0 || s.RunStatus != "interrupted" || s.DurationMS != 0 {
		t.Errorf("login skipped in run 7: %+v", s)
	}

	// The newest three runs; and the history as of run 3.
	hs, err = db.TestHistories(ctx, session.HistoryQuery{Project: "shop", Tests: []string{"checkout"}, Runs: 3})
	if err != nil || strip(hs[0]) != "3P 5F 7P" {
		t.Errorf("3 runs: %q (%v)", strip(hs[0]), err)
	}
	hs, err = db.TestHistories(ctx, session.HistoryQuery{Project: "shop", Tests: []string{"checkout", "export"}, Through: 3})
	if err != nil || strip(hs[0]) != "1P 2~ 3P" || strip(hs[1]) != "1P 2. 3P" {
		t.Errorf("through run 3: %q %q (%v)", strip(hs[0]), strip(hs[1]), err)
	}
	hs, err = db.TestHistories(ctx, session.HistoryQuery{Project: "nobody", Tests: []string{"checkout"}})
	if err != nil || len(hs) != 1 || hs[0].Name != "checkout" || len(hs[0].Runs) != 0 {
		t.Errorf("unknown project: %+v (%v)", hs, err)
	}

	slow := session.Slowest(mustHistories(t, db), 3)
	var got []string
	for _, s := range slow {
		got = append(got, fmt.Sprintf("%s %d/%d/%d/%d", s.Name, s.MedianMS, s.MaxMS, s.Last, s.Runs))
	}
	if strings.Join(got, ", ") != "login 2050/2500/1900/4, checkout 1100/3000/1100/5, export 500/520/520/3" {
		t.Errorf("slowest: %v", got)
	}
}

func mustHistories(t *testing.T, db *DB) []session.TestHistory {
	t.Helper()
	hs, err := db.TestHistories(context.Background(), session.HistoryQuery{Project: "shop",
		Tests: []string{"checkout", "login", "search", "export", "newbie", "ghost"}})
	if err != nil {
		t.Fatal(err)
	}
	return hs
}

// TestRunSummaries: the newest runs of every project with the counts of
// their tests; one run by id; an unknown id is ErrNotFound.
func TestRunSummaries(t *testing.T) {
	db := openTest(t)
	seedHistory(t, db)
	ctx := context.Background()
	all, err := db.RunSummaries(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range all {
		got = append(got, fmt.Sprintf("%d %s %s %d=%dP+%dF ~%d H%d", s.ID, s.Project, s.Status, s.Tests, s.Passed, s.Failed, s.Flaky, s.Healed))
	}
	want := []string{
		"7 shop interrupted 1=1P+0F ~0 H0",
		"6 shop running 1=0P+1F ~0 H0",
		"5 shop failed 5=4P+1F ~0 H0",
		"4 blog passed 1=0P+1F ~0 H0",
		"3 shop failed 4=3P+1F ~0 H0",
		"2 shop passed 3=3P+0F ~1 H1",
		"1 shop failed 4=3P+1F ~0 H0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("summaries:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !all[6].FinishedAt.Equal(all[6].StartedAt.Add(time.Minute)) || !all[1].FinishedAt.IsZero() || all[0].Commit != "c3" {
		t.Errorf("times or commit: %+v %+v", all[6], all[1])
	}
	two, err := db.RunSummaries(ctx, 2)
	if err != nil || len(two) != 2 || two[0].ID != 7 || two[1].ID != 6 {
		t.Errorf("limit 2: %+v (%v)", two, err)
	}
	one, err := db.RunSummary(ctx, 2)
	if err != nil || one.ID != 2 || one.Tests != 3 || one.Flaky != 1 || one.Healed != 1 || one.Project != "shop" {
		t.Errorf("run 2: %+v (%v)", one, err)
	}
	_, err = db.RunSummary(ctx, 99)
	errorIs(t, err, ErrNotFound)
}

// TestHistoryQueriesUseIndexes reads the plan of every history query: no
// query scans test_results or step_results, and runs are found by
// project through runs_project; nothing is sorted in a temporary b-tree.
func TestHistoryQueriesUseIndexes(t *testing.T) {
	sqliteOnly(t) // EXPLAIN QUERY PLAN is SQLite's
	db := openTest(t)
	seedHistory(t, db)
	ctx := context.Background()
	plan := func(q string, args ...any) string {
		rows, err := db.read.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var lines []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, detail)
		}
		return strings.Join(lines, "\n")
	}
	for _, c := range []struct {
		name, sql string
		args      []any
		want      []string
	}{
		{"history runs", historyRunsSQL, []any{"shop", 10, 20}, []string{"USING INDEX runs_project (project=? AND id<?)"}},
		{"history results", historyResultsSQL(3), []any{1, 2, 3}, []string{"USING INDEX test_results_run (run_id=?)", "step_results"}},
		{"history run tests", historyRunTestsSQL(3), []any{1, 2, 3}, []string{"SEARCH run_tests USING PRIMARY KEY (run_id=?)"}},
		{"first run", firstRunSQL, []any{"login"}, []string{"USING INDEX test_results_name (name=?)"}},
		{"run summaries", runSummariesSQL, []any{5}, []string{"SCAN r", "USING INDEX test_results_run (run_id=?)"}},
		{"run summary", runSummarySQL, []any{2}, []string{"SEARCH r USING INTEGER PRIMARY KEY (rowid=?)", "USING INDEX test_results_run (run_id=?)"}},
	} {
		p := plan(c.sql, c.args...)
		for _, w := range c.want {
			if !strings.Contains(p, w) {
				t.Errorf("%s: the plan lacks %q:\n%s", c.name, w, p)
			}
		}
		for _, line := range strings.Split(p, "\n") {
			if strings.HasPrefix(line, "SCAN t") || strings.HasPrefix(line, "SCAN s") || strings.HasPrefix(line, "SCAN step_results") ||
				strings.HasPrefix(line, "SCAN test_results") || strings.HasPrefix(line, "SCAN run_tests") || strings.Contains(line, "TEMP B-TREE") {
				t.Errorf("%s scans a table: %q\n%s", c.name, line, p)
			}
		}
		t.Logf("%s:\n%s", c.name, p)
	}
}

// TestShardRunsDoNotSkip: a test another shard ran is not in this shard's
// run at all; a run that set out to run it (a whole suite, or its shard)
// and has no result for it skipped it; a run that did not include it
// (--grep) shows it absent.
func TestShardRunsDoNotSkip(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i, r := range []struct {
		shard       string
		plan, tests []string
	}{
		{"", []string{"a", "b"}, []string{"a", "b"}},
		{"1/2", []string{"a"}, []string{"a"}},
		{"2/2", []string{"b"}, []string{"b"}},
		{"", []string{"a", "b"}, []string{"a"}}, // ended before b
		{"", []string{"a"}, []string{"a"}},      // --grep a
		{"1/2", []string{"b"}, nil},             // ended before b
	} {
		run := &session.Run{Project: "p", Shard: r.shard, StartedAt: start.Add(time.Duration(i) * time.Minute), Tests: r.plan}
		must(t, db.StartRun(ctx, run))
		for _, name := range r.tests {
			must(t, db.SaveTest(ctx, &session.TestResult{RunID: run.ID, Name: name, Status: "passed"}))
		}
		run.Status = "passed"
		must(t, db.FinishRun(ctx, run))
	}
	hs, err := db.TestHistories(ctx, session.HistoryQuery{Project: "p", Tests: []string{"a", "b"}})
	must(t, err)
	marks := func(h session.TestHistory) string {
		var b strings.Builder
		for _, r := range h.Runs {
			fmt.Fprintf(&b, "%d:%s ", r.RunID, r.Outcome)
		}
		return strings.TrimSpace(b.String())
	}
	if got := marks(hs[0]); got != "1:passed 2:passed 4:passed 5:passed" {
		t.Errorf("a: %s", got)
	}
	if got := marks(hs[1]); got != "1:passed 3:passed 4:skipped 5:absent 6:skipped" {
		t.Errorf("b: %s, want shard 1/2's run left out, the whole-suite run that ended before it skipped, the one of a only absent", got)
	}
}

// TestRunSummariesCountNotRun: a test not run for its session is counted
// apart: not among the failed, and its history counts the run as skipped.
func TestRunSummariesCountNotRun(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	r := &session.Run{Project: "shop", StartedAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Status: "running", Tests: []string{"a", "b", "c"}}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	for name, status := range map[string]session.TestStatus{"a": session.TestPassed, "b": session.TestNotRun, "c": session.TestFailed} {
		if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: name, Status: status, Attempts: 1, Error: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	r.Status, r.FinishedAt = "failed", r.StartedAt.Add(time.Minute)
	if err := db.FinishRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	s, err := db.RunSummary(ctx, r.ID)
	if err != nil || s.Tests != 3 || s.Passed != 1 || s.Failed != 1 || s.NotRun != 1 {
		t.Fatalf("summary: %+v (%v)", s, err)
	}
	tests, err := db.Tests(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range tests {
		if tr.Name == "b" && (tr.Status != session.TestNotRun || session.OutcomeOf(&tr) != session.OutcomeSkipped) {
			t.Errorf("b: %s, outcome %s", tr.Status, session.OutcomeOf(&tr))
		}
	}
	hs, err := db.TestHistories(ctx, session.HistoryQuery{Project: "shop", Tests: []string{"b"}})
	if err != nil || len(hs) != 1 || len(hs[0].Runs) != 1 || hs[0].Runs[0].Outcome != session.OutcomeSkipped {
		t.Errorf("history of b: %+v (%v)", hs, err)
	}
}
