package main

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/store"
)

// seedPastRuns stores finished runs in the database at path, a day apart
// from start, the first at start: plan gives each test's outcome in each
// run of project, P passed, F failed, ~ flaky (passed on attempt 2), H healed, S
// skipped (among the run's tests, no result), A absent (not among the run's
// tests); ms its usual duration.
func seedPastRuns(t *testing.T, path, project string, start time.Time, plan map[string]string, ms map[string]int64) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n := 0
	for _, p := range plan {
		n = max(n, len(p))
	}
	names := make([]string, 0, len(plan))
	for name := range plan {
		names = append(names, name)
	}
	slices.Sort(names)
	for i := range n {
		sum := sha1.Sum([]byte("commit " + strconv.Itoa(i/3))) // a commit every three runs
		r := &session.Run{Project: project, StartedAt: start.Add(time.Duration(i) * 24 * time.Hour), Commit: hex.EncodeToString(sum[:]), Branch: "main", Version: "0.9.0"}
		for _, name := range names {
			if plan[name][i] != 'A' {
				r.Tests = append(r.Tests, name)
			}
		}
		if err := db.StartRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		r.Status = "passed"
		for _, name := range names {
			mark := plan[name][i]
			if mark == 'S' || mark == 'A' {
				continue
			}
			tr := &session.TestResult{RunID: r.ID, Name: name, File: name + ".e2e.yaml", Status: "passed", Attempts: 1,
				DurationMS: ms[name] + int64(i%5)*120}
			tr.Steps = []session.StepResult{{Index: 0, Line: 3, Command: `--step-type CLICK --description "the Add to cart button"`, Kind: "CLICK",
				Status: session.StatusHit, Cache: "hit"}}
			switch mark {
			case 'F':
				tr.Status, tr.Error, r.Status = "failed", "step 1 (line 3): no element matches the Add to cart button", "failed"
				tr.Steps[0].Status = session.StatusFailed
			case '~':
				tr.Attempts = 2
			case 'H':
				tr.Steps[0].MissReason = session.HealStagedPrefix + ", heal 1 of 2026-11-20 10:00, not reviewed yet)"
			}
			if err := db.SaveTest(ctx, tr); err != nil {
				t.Fatal(err)
			}
		}
		r.FinishedAt = r.StartedAt.Add(90 * time.Second)
		if err := db.FinishRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHTMLReportHistory: a store seeded with 19 runs (flaky, healed,
// failed and skipped results, and a run without one of the tests), then a real run with a retry that passes:
// the HTML report, opened in headless Chromium, shows every test's strip
// of its last 20 runs (this run's mark last and outlined, each mark's date,
// time and commit in its tooltip), its flakiness and the slowest tests.
// E2E_HISTORY_SCREENSHOT=path keeps a screenshot (docs/history.png).
func TestHTMLReportHistory(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	key := strconv.FormatInt(time.Now().UnixNano(), 36)
	dir := project(t, base, map[string]string{
		"cart.e2e.yaml":   cartTest,
		"second.e2e.yaml": "name: second product\nurl: /product?id=2\nsteps:\n  - click: the Add to cart button\n  - expect: { text: { in: the cart status, is: \"Cart: 1 item\" } }\n",
		"carol.e2e.yaml":  "name: carol menu\nurl: /users\nsteps:\n  - click: the Menu button in the Carol row\n  - expect: { visible: the Archive menu item }\n",
		"flaky.e2e.yaml":  "name: flaky\nurl: /flaky?key=" + key + "&fails=1\nsteps:\n  - expect: { text: { in: the status, contains: Ready on attempt } }\n",
	})
	shop := filepath.Join(filepath.Dir(dir), "shop") // the project's name is its directory's
	if err := os.Rename(dir, shop); err != nil {
		t.Fatal(err)
	}
	dir = shop
	//                      19 past runs, oldest first
	plan := map[string]string{
		"add to cart":    "PPPPPPFPPPPHPPPPPPP", // failed, then passed at the same commit: flaky once
		"second product": "PPPPSSPPPPPPPPAPPPP", // skipped twice, then not in a run (another file)
		"carol menu":     "PPPPPPPPPPPPPPPPPPP",
		"flaky":          "PP~PPF~PP~PPPFPP~PP",
	}
	ms := map[string]int64{"add to cart": 1400, "second product": 900, "carol menu": 4200, "flaky": 600}
	seedPastRuns(t, filepath.Join(dir, ".e2e", "e2e.db"), filepath.Base(dir), time.Now().Add(-20*24*time.Hour), plan, ms)

	htmlDir := filepath.Join(t.TempDir(), "html")
	code, out, errOut := e2e(t, "run", "--config", dir, "--ci", "--retries", "1", "--workers", "2", "--reporter", "html="+htmlDir)
	if code != 0 || !strings.Contains(out, "1 flaky") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if strings.Contains(errOut, "no run history") {
		t.Fatalf("the report lost its history: %s", errOut)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{Width: 1280, Height: 940})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Navigate(ctx, "file://"+filepath.Join(htmlDir, "index.html")); err != nil {
		t.Fatal(err)
	}
	type strip struct {
		Name, Marks, Flaky, FlakyTitle string
		Visible, Inline                bool
		Current, CurrentMark           string
		Titles                         []string
	}
	var seen struct {
		Strips  []strip
		Legend  bool
		Slowest [][]string
	}
	const js = `() => {
	  const vis = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
	    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none' && r.top >= 0 && r.bottom <= innerHeight; };
	  return {
	    strips: [...document.querySelectorAll('details.test')].map(d => {
	      const h = d.querySelector('summary .history'), f = d.querySelector('summary .flakiness');
	      const marks = h ? [...h.querySelectorAll('.hm')] : [];
	      const cur = h ? h.querySelector('.hm.cur') : null;
	      return { name: d.querySelector('summary .name').textContent, marks: marks.map(m => m.textContent).join(''),
	        visible: !!h && vis(h) && marks.every(vis),
	        inline: !!h && Math.abs(h.getBoundingClientRect().top - d.querySelector('summary .name').getBoundingClientRect().top) < 12,
	        flaky: f ? f.textContent : '', flakyTitle: f ? f.title : '',
	        current: cur ? String(marks.indexOf(cur)) : '', currentMark: cur ? cur.textContent : '',
	        titles: marks.map(m => m.title) };
	    }),
	    legend: vis(document.getElementById('history-legend')),
	    slowest: [...document.querySelectorAll('#slowest tbody tr')].map(r => [...r.cells].map(c => c.textContent)),
	  };
	}`
	if err := p.Eval(ctx, &seen, js); err != nil {
		t.Fatal(err)
	}
	if len(seen.Strips) != 4 || !seen.Legend {
		t.Fatalf("the report shows %+v", seen)
	}
	want := map[string]struct{ marks, flaky string }{
		"add to cart":    {"PPPPPPFPPPPHPPPPPPPP", "5% flaky"},
		"second product": {"PPPPSSPPPPPPPP·PPPPP", "0% flaky"},
		"carol menu":     {"PPPPPPPPPPPPPPPPPPPP", "0% flaky"},
		"flaky":          {"PP~PPF~PP~PPPFPP~PP~", "30% flaky"}, // 5 retries, and a failure then a pass at the same commit, of 20 runs
	}
	for _, s := range seen.Strips {
		w, ok := want[s.Name]
		if !ok {
			t.Errorf("a strip for %q", s.Name)
			continue
		}
		if s.Marks != w.marks || s.Flaky != w.flaky || !s.Visible || !s.Inline {
			t.Errorf("%s: marks %q flakiness %q visible %v inline %v, want %q %q", s.Name, s.Marks, s.Flaky, s.Visible, s.Inline, w.marks, w.flaky)
		}
		if s.Current != "19" {
			t.Errorf("%s: this run's mark is at %q, want the last (19)", s.Name, s.Current)
		}
		if !strings.Contains(s.FlakyTitle, "of 20 runs") && !strings.Contains(s.FlakyTitle, "of 17 runs") {
			t.Errorf("%s: flakiness title %q", s.Name, s.FlakyTitle)
		}
		if len(s.Titles) != 20 {
			continue
		}
		first := s.Titles[0]
		if !strings.Contains(first, "run 1 · ") || !strings.Contains(first, " · commit ") || !strings.Contains(first, " on main") ||
			!strings.Contains(first, time.Now().Add(-20*24*time.Hour).Local().Format("2006-01-02")) || !strings.Contains(first, "s · commit") {
			t.Errorf("%s: the first mark's tooltip %q lacks the run, date, time or commit", s.Name, first)
		}
		if !strings.Contains(s.Titles[19], "(this run)") {
			t.Errorf("%s: the last mark's tooltip %q", s.Name, s.Titles[19])
		}
	}
	for _, s := range seen.Strips {
		switch s.Name {
		case "flaky":
			if !strings.Contains(s.Titles[2], "flaky: passed on attempt 2") || !strings.Contains(s.Titles[19], "flaky: passed on attempt 2") ||
				!strings.Contains(s.Titles[5], "failed") || !strings.Contains(s.Titles[5], "no element matches") {
				t.Errorf("flaky tooltips: %q %q %q", s.Titles[2], s.Titles[5], s.Titles[19])
			}
		case "second product":
			if !strings.Contains(s.Titles[4], "skipped") || !strings.Contains(s.Titles[14], "not in this run") {
				t.Errorf("a skipped mark's tooltip: %q, an absent one's: %q", s.Titles[4], s.Titles[14])
			}
		case "add to cart":
			if !strings.Contains(s.Titles[11], "healed") {
				t.Errorf("a healed mark's tooltip: %q", s.Titles[11])
			}
		}
	}
	if len(seen.Slowest) != 4 || seen.Slowest[0][0] != "carol menu" || seen.Slowest[3][0] != "flaky" || seen.Slowest[0][4] != "20" {
		t.Errorf("slowest tests: %v", seen.Slowest)
	}
	if shot := os.Getenv("E2E_HISTORY_SCREENSHOT"); shot != "" {
		// the flaky test open, as someone looking into it would have it
		if err := p.Eval(ctx, nil, `() => { [...document.querySelectorAll('details.test')].find(d => d.dataset.flaky === 'true').open = true; }`); err != nil {
			t.Fatal(err)
		}
		png, err := p.Screenshot(ctx)
		if err == nil {
			err = os.WriteFile(shot, png, 0o644)
		}
		if err != nil {
			t.Error(err)
		}
	}
}

// TestRunsCommand: e2e runs lists the newest runs with their counts (a
// table, or JSON), e2e runs show ID one run with its tests; a bad or
// unknown id, or a bad --limit, is a clear error and exit 2; a project
// with no database yet has no runs, and none is made.
func TestRunsCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "e2e.db")
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	seedPastRuns(t, db, "", start, map[string]string{
		"login":  "PPHP",
		"search": "PF~S",
	}, map[string]int64{"login": 2000, "search": 700})

	code, out, errOut := e2e(t, "runs", "--db", db)
	if code != 0 {
		t.Fatalf("runs: exit %d\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "ID ") || !strings.Contains(lines[0], "FLAKY") || strings.Contains(lines[0], "SHARD") ||
		!strings.HasPrefix(lines[1], "4 ") || !strings.HasPrefix(lines[4], "1 ") || !strings.Contains(out, "4 runs; `e2e runs show ID`") {
		t.Fatalf("runs:\n%s", out)
	}
	// run 4: login passed, search skipped; run 3: login healed, search flaky; run 2: search failed
	for i, want := range [][]string{{"4", "passed", "1", "1", "0", "0", "0"}, {"3", "passed", "2", "2", "0", "1", "1"}, {"2", "failed", "2", "1", "1", "0", "0"}} {
		f := strings.Fields(lines[1+i])
		got := []string{f[0], f[3], f[4], f[5], f[6], f[7], f[8]}
		if strings.Join(got, " ") != strings.Join(want, " ") || !strings.Contains(lines[1+i], "1m30s") || !strings.Contains(lines[1+i], " main") {
			t.Errorf("runs line %d: %q, want id status tests passed failed flaky healed %v", i+1, lines[1+i], want)
		}
	}

	code, out, _ = e2e(t, "runs", "--db", db, "--limit", "2", "--json")
	var runs []struct {
		ID                                   int64
		Status, Commit, Branch               string
		MS                                   int64
		Tests, Passed, Failed, Flaky, Healed int
		FinishedAt                           *time.Time
	}
	if err := json.Unmarshal([]byte(out), &runs); err != nil || code != 0 {
		t.Fatalf("runs --json: exit %d %v\n%s", code, err, out)
	}
	if len(runs) != 2 || runs[0].ID != 4 || runs[1].ID != 3 || runs[1].Flaky != 1 || runs[1].Healed != 1 || runs[1].MS != 90000 ||
		len(runs[1].Commit) != 40 || runs[1].FinishedAt == nil {
		t.Errorf("runs --json: %+v", runs)
	}

	code, out, _ = e2e(t, "runs", "show", "3", "--db", db)
	if code != 0 || !strings.HasPrefix(out, "run 3 · passed · started ") || !strings.Contains(out, "2 tests: 2 passed, 0 failed, 1 flaky, 1 healed") {
		t.Errorf("runs show 3: exit %d\n%s", code, out)
	}
	for _, want := range []string{"H  login   healed", "~  search  flaky ", "  PPH        0%  ", "  PF~        67%  ", "LAST RUNS: oldest to newest"} {
		if !strings.Contains(out, want) {
			t.Errorf("runs show 3 lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = e2e(t, "runs", "show", "2", "--db", db)
	if code != 0 || !strings.Contains(out, "✗  search  failed") || !strings.Contains(out, "✗ search: step 1 (line 3): no element matches") ||
		!strings.Contains(out, "1 failed") {
		t.Errorf("runs show 2: exit %d\n%s", code, out)
	}
	code, out, _ = e2e(t, "runs", "show", "3", "--db", db, "--json")
	var shown struct {
		Run   struct{ ID int64 }
		Tests []struct {
			Name, Outcome, History string
			Attempts               int
			Flakiness              float64
		}
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil || code != 0 || shown.Run.ID != 3 || len(shown.Tests) != 2 {
		t.Fatalf("runs show --json: exit %d %v\n%s", code, err, out)
	}
	for _, tt := range shown.Tests {
		if (tt.Name == "login" && (tt.Outcome != "healed" || tt.History != "PPH" || tt.Flakiness != 0)) ||
			(tt.Name == "search" && (tt.Outcome != "flaky" || tt.Attempts != 2 || tt.History != "PF~" || tt.Flakiness < 0.66 || tt.Flakiness > 0.67)) {
			t.Errorf("runs show --json test %+v", tt)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"runs", "show", "99", "--db", db}, "e2e: there is no run 99; `e2e runs` lists the runs\n"},
		{[]string{"runs", "show", "abc", "--db", db}, "e2e: run id \"abc\": want a number from `e2e runs`\n"},
		{[]string{"runs", "show", "0", "--db", db}, "e2e: run id \"0\": want a number from `e2e runs`\n"},
		{[]string{"runs", "--limit", "0", "--db", db}, "e2e: --limit 0: want at least 1\n"},
	} {
		code, out, errOut := e2e(t, c.args...)
		if code != exitUsage || errOut != c.want || out != "" {
			t.Errorf("%v: exit %d, stderr %q, want %d %q", c.args, code, errOut, exitUsage, c.want)
		}
	}

	// A project that never ran: no runs, and no .e2e/ made.
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "e2e.yaml"), []byte("baseURL: http://localhost\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = e2e(t, "runs", "--config", empty)
	if code != 0 || !strings.HasPrefix(out, "no runs (there is no store yet") {
		t.Errorf("runs in a new project: exit %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(empty, ".e2e")); !os.IsNotExist(err) {
		t.Errorf("runs made .e2e/ (%v)", err)
	}
	code, out, _ = e2e(t, "runs", "--config", empty, "--json")
	if code != 0 || strings.TrimSpace(out) != "[]" {
		t.Errorf("runs --json in a new project: exit %d %q", code, out)
	}
}

// TestRunsCommandShowsShards: runs of shards of a suite say which shard in
// `e2e runs` (a SHARD column, shown only when a run has one), in its JSON
// and in `e2e runs show`.
func TestRunsCommandShowsShards(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "e2e.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i, shard := range []string{"", "1/2", "2/2"} {
		r := &session.Run{Shard: shard, StartedAt: start.Add(time.Duration(i) * time.Minute), Branch: "main"}
		if err := db.StartRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		r.Status = "passed"
		if err := db.FinishRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	code, out, errOut := e2e(t, "runs", "--db", path)
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) < 4 || !strings.HasSuffix(strings.TrimSpace(lines[0]), "BRANCH  SHARD") ||
		!strings.HasSuffix(lines[1], "main    2/2") || !strings.HasSuffix(lines[2], "main    1/2") || !strings.HasSuffix(lines[3], "main    -") {
		t.Fatalf("runs: exit %d %s\n%s", code, errOut, out)
	}
	code, out, _ = e2e(t, "runs", "--db", path, "--json", "--limit", "2")
	if code != 0 || !strings.Contains(out, `"shard": "2/2"`) || !strings.Contains(out, `"shard": "1/2"`) {
		t.Errorf("runs --json: exit %d\n%s", code, out)
	}
	code, out, _ = e2e(t, "runs", "show", "2", "--db", path)
	if code != 0 || !strings.Contains(out, " · shard 1/2") {
		t.Errorf("runs show 2: exit %d\n%s", code, out)
	}
	// Of whole-suite runs only: no SHARD column.
	code, out, _ = e2e(t, "runs", "--db", path, "--limit", "1")
	if !strings.Contains(out, "SHARD") {
		t.Errorf("the newest run is a shard's: %s", out)
	}
}
