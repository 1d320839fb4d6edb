package store

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
)

// sampleContext is where an element stood when it was recorded.
func sampleContext() session.NodeContext {
	return session.NodeContext{
		Near: []string{"Alice", "alice@example.com", "Admin"},
		Path: []session.PathNode{{Tag: "main", Role: "main"}, {Tag: "table", Role: "table", Name: "Users"}, {Tag: "tr", Role: "row", Name: "Alice"}},
	}
}

// reidentifiedStep is a step found again by its likeness to the cached node.
func reidentifiedStep(i int) session.StepResult {
	return session.StepResult{Index: i, Line: 9, Command: `--step-type CLICK --description "the Save button"`, Kind: "CLICK",
		Status: session.StatusReidentified, Cache: "miss", MissReason: "no-match", DurationMS: 40,
		Reidentified: &session.Reidentification{Score: 0.82, RunnerUp: 0.41, Second: `button "Save draft"`}}
}

// TestReidentifiedStepRoundTrip: a re-identified step keeps its status,
// score, runner-up and second candidate; the other steps read back with
// no Reidentification.
func TestReidentifiedStepRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	r := &session.Run{Project: "shop"}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	steps := append(sampleSteps(), reidentifiedStep(len(sampleSteps())))
	noRunnerUp := reidentifiedStep(len(steps))
	noRunnerUp.Reidentified = &session.Reidentification{Score: 0.9}
	steps = append(steps, noRunnerUp)
	tr := &session.TestResult{RunID: r.ID, Name: "save", File: "save.e2e.yaml", Status: "failed", Steps: steps}
	if err := db.SaveTest(ctx, tr); err != nil {
		t.Fatal(err)
	}
	got, err := db.Tests(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !reflect.DeepEqual(got[0].Steps, steps) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, steps)
	}
	if s := got[0].Steps[len(steps)-2]; s.Reidentified == nil || s.Reidentified.Second != `button "Save draft"` {
		t.Errorf("re-identified step %+v", s)
	}
}

// TestReidentifiedNotFiniteScore: a score that is not a finite number is
// stored as 0 rather than failing the test's save.
func TestReidentifiedNotFiniteScore(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	r := &session.Run{}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	s := reidentifiedStep(0)
	s.Reidentified = &session.Reidentification{Score: math.NaN(), RunnerUp: math.Inf(1), Second: "x"}
	if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "n", Status: "passed", Steps: []session.StepResult{s}}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Tests(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g := got[0].Steps[0].Reidentified; g == nil || *g != (session.Reidentification{Second: "x"}) {
		t.Errorf("read back %+v", g)
	}
}

// TestCacheContextRoundTrip: an element row's context reads back from
// Cache, lists in CacheRows, and survives an export and an import into
// another store.
func TestCacheContextRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	e := sampleEntry("k1")
	e.Context = sampleContext()
	if err := db.PutCache(ctx, e); err != nil {
		t.Fatal(err)
	}
	got, err := db.Cache(ctx, "k1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Context, sampleContext()) {
		t.Errorf("Cache context %+v, want %+v", got.Context, sampleContext())
	}
	// A later write replaces the context, as it replaces the node.
	e.Context = session.NodeContext{Near: []string{"Bob"}}
	if err := db.PutCache(ctx, e); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Cache(ctx, "k1"); !reflect.DeepEqual(got.Context, e.Context) {
		t.Errorf("context after a second write %+v, want %+v", got.Context, e.Context)
	}
	rows, err := db.CacheRows(ctx, CacheFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || string(rows[0].Context) != `{"near":["Bob"]}` {
		t.Fatalf("CacheRows context %s", rows[0].Context)
	}
	var exp bytes.Buffer
	if _, err := db.ExportCache(ctx, &exp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(exp.String(), `"context":{"near":["Bob"]}`) {
		t.Errorf("export lacks the context: %s", exp.String())
	}
	dst := openTest(t)
	if n, err := dst.ImportCache(ctx, importFile(t, strings.TrimSpace(exp.String()))); err != nil || n != 1 {
		t.Fatalf("import: %d, %v", n, err)
	}
	if got, err := dst.Cache(ctx, "k1"); err != nil || !reflect.DeepEqual(got.Context, e.Context) {
		t.Errorf("imported context %+v, %v", got, err)
	}
}

// TestImportContext: an export from before the context (no "context")
// imports with an empty one; a context of the wrong shape is refused with
// its column; a trajectory row has none.
func TestImportContext(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, WithLineage(session.Lineage{Branch: "main", Main: "main", Version: "v1.0.0"}))
	if _, err := db.ImportCache(ctx, importFile(t, elementLine)); err != nil {
		t.Fatal(err)
	}
	got, err := db.Cache(ctx, "k1")
	if err != nil || got == nil {
		t.Fatalf("%v %v", got, err)
	}
	if !reflect.DeepEqual(got.Context, session.NodeContext{}) {
		t.Errorf("context of an old export %+v, want none", got.Context)
	}
	withContext := strings.Replace(elementLine, `"intent":{}`, `"intent":{},"context":{"near":"Alice"}`, 1)
	_, err = db.ImportCache(ctx, importFile(t, withContext))
	ie, ok := errors.AsType[*ImportError](err)
	if !ok || !strings.Contains(ie.Err.Error(), `"context.near" is a JSON string; want a list`) ||
		ie.Column != strings.Index(withContext, `{"near"`)+1 {
		t.Errorf("bad context: %v", err)
	}
	unknown := strings.Replace(elementLine, `"intent":{}`, `"intent":{},"context":{"path":[{"tag":"tr","colour":"red"}]}`, 1)
	if _, err := db.ImportCache(ctx, importFile(t, unknown)); err == nil || !strings.Contains(err.Error(), `unknown field "colour"`) {
		t.Errorf("unknown context field: %v", err)
	}
	traj := strings.Replace(trajectoryLine, `"gaps":[]`, `"gaps":[],"context":{}`, 1)
	if _, err := db.ImportCache(ctx, importFile(t, traj)); err == nil || !strings.Contains(err.Error(), `a trajectory row has no "context"`) {
		t.Errorf("trajectory with a context: %v", err)
	}
}

// TestUnreadableContext: a context column of the wrong shape is an
// unreadable row, for the runner to count a miss.
func TestUnreadableContext(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if err := db.PutCache(ctx, sampleEntry("k")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.write.ExecContext(ctx, `UPDATE element_cache SET context = '{"near":1}'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Cache(ctx, "k"); !errors.Is(err, session.ErrUnreadableRow) || !strings.Contains(err.Error(), "context") {
		t.Errorf("Cache = %v, want ErrUnreadableRow naming the context", err)
	}
	if _, err := db.write.ExecContext(ctx, `UPDATE element_cache SET context = 'not json'`); err == nil {
		t.Error("a context that is not JSON was written")
	}
}

// TestMigrationKeepsOldStepsAndRows: a database of the schema before 0012,
// with runs, steps of every status and a cache row, keeps them all: the
// steps read back with no Reidentification, the cache row with no context;
// the foreign key and the CHECK on status still hold.
func TestMigrationKeepsOldStepsAndRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	raw := rawDB(t, path)
	ms, err := embeddedMigrations(sqliteEngine)
	if err != nil {
		t.Fatal(err)
	}
	before := -1
	for i, m := range ms {
		if strings.HasPrefix(m.name, "0012_") {
			before = i
		}
	}
	if before < 0 {
		t.Fatal("no migration 0012")
	}
	if err := migrate(ctx, raw, sqliteEngine, ms[:before], time.Now); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO runs (id, started_at, status) VALUES (1, '2026-01-01T00:00:00.000000000Z', 'passed')`,
		`INSERT INTO runs (id, started_at, status) VALUES (2, '2026-01-02T00:00:00.000000000Z', 'passed')`,
		`INSERT INTO test_results (id, run_id, name, status) VALUES (10, 1, 'old', 'failed')`,
		`INSERT INTO test_results (id, run_id, name, status) VALUES (20, 2, 'other', 'passed')`,
		`INSERT INTO step_results (test_id, idx, line, command, kind, status, cache, miss_reason, error, screenshot, duration_ms, llm_calls, note)
VALUES (10, 0, 3, 'navigate', 'NAVIGATE', 'passed', 'none', '', '', '', 5, 0, ''),
       (10, 1, 4, 'click', 'CLICK', 'hit', 'hit', '', '', '', 6, 0, ''),
       (10, 2, 5, 'type', 'TYPE', 're-located', 'miss', 'no-match', '', '', 7, 1, ''),
       (10, 3, 6, 'click', 'CLICK', 'located', 'miss', 'no-entry', '', '', 8, 1, ''),
       (10, 4, 7, 'assert', 'ASSERT', 'failed', 'none', '', 'nope', '/s.png', 9, 1, 'because'),
       (10, 5, 8, 'click', 'CLICK', 'skipped', 'none', '', '', '', 0, 0, ''),
       (20, 0, 3, 'click', 'CLICK', 'hit', 'hit', '', '', '', 1, 0, '')`,
		`INSERT INTO element_cache (key, branch, identity, project, test, description, selectors, node, intent, created_at, used_at, hits)
VALUES ('k1', '', '{}', 'shop', 'old', 'the Save button', '[{"kind":"id","value":"#save"}]', '{"tag":"button","role":"button","name":"Save","box":[1,2,3,4]}',
        '{}', '2026-01-01T00:00:00.000000000Z', '2026-01-01T00:00:00.000000000Z', 4)`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tests, err := db.Tests(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != 1 || len(tests[0].Steps) != 6 {
		t.Fatalf("run 1 after the migration: %+v", tests)
	}
	want := []string{"passed", "hit", "re-located", "located", "failed", "skipped"}
	for i, s := range tests[0].Steps {
		if string(s.Status) != want[i] || s.Index != i || s.Line != i+3 || s.Reidentified != nil {
			t.Errorf("step %d: %+v", i, s)
		}
	}
	if s := tests[0].Steps[4]; s.Error != "nope" || s.Screenshot != "/s.png" || s.Note != "because" || s.LLMCalls != 1 || s.DurationMS != 9 {
		t.Errorf("the failed step lost a column: %+v", s)
	}
	if s := tests[0].Steps[2]; s.MissReason != "no-match" || s.Cache != "miss" {
		t.Errorf("the re-located step lost a column: %+v", s)
	}
	e, err := db.Cache(ctx, "k1")
	if err != nil || e == nil {
		t.Fatalf("old cache row: %v %v", e, err)
	}
	if e.Hits != 4 || e.Node.Name != "Save" || len(e.Selectors) != 1 || !reflect.DeepEqual(e.Context, session.NodeContext{}) {
		t.Errorf("old cache row %+v", e)
	}

	// The CHECK takes the new status and still refuses a bogus one.
	if _, err := db.write.ExecContext(ctx, `INSERT INTO step_results (test_id, idx, status) VALUES (20, 1, 're-identified')`); err != nil {
		t.Errorf("re-identified refused: %v", err)
	}
	if _, err := db.write.ExecContext(ctx, `INSERT INTO step_results (test_id, idx, status) VALUES (20, 2, 'maybe')`); err == nil {
		t.Error("a bogus status was stored")
	}
	if _, err := db.write.ExecContext(ctx, `INSERT INTO step_results (test_id, idx, status, reidentified) VALUES (20, 3, 'hit', 'not json')`); err == nil {
		t.Error("a reidentified column that is not JSON was stored")
	}
	// The foreign key holds: no step of an unknown test; deleting a run
	// takes its steps.
	if _, err := db.write.ExecContext(ctx, `INSERT INTO step_results (test_id, idx, status) VALUES (99, 0, 'hit')`); err == nil {
		t.Error("a step of an unknown test was stored")
	}
	if _, err := db.write.ExecContext(ctx, `DELETE FROM runs WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM step_results WHERE test_id = 10`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d steps of a deleted run left", n)
	}
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM step_results WHERE test_id = 20`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("run 2 has %d steps, want 2", n)
	}
}

// TestSaveTestRefusesBogusStatus: the CHECK on step status holds for
// SaveTest, and nothing of the test is stored.
func TestSaveTestRefusesBogusStatus(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	r := &session.Run{}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "x", Status: "passed",
		Steps: []session.StepResult{reidentifiedStep(0), {Index: 1, Status: "re-identified-ish"}}})
	if err == nil {
		t.Fatal("a bogus step status was saved")
	}
	assertNoTestRows(t, db)
}

// TestRedactorCoversContextAndReidentification: a secret in a cache row's
// context or in a re-identified step's runner-up never reaches the file,
// and both still read back.
func TestRedactorCoversContextAndReidentification(t *testing.T) {
	ctx := context.Background()
	secret := `s3cr3t"ctx välue`
	red := redact.New()
	db := openTest(t, WithRedactor(red))
	red.Add(secret)
	e := sampleEntry("k1")
	e.Context = session.NodeContext{Near: []string{"token " + secret, "Alice"}, Path: []session.PathNode{{Tag: "form", Role: "form", Name: secret}}}
	if err := db.PutCache(ctx, e); err != nil {
		t.Fatal(err)
	}
	r := &session.Run{}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	s := reidentifiedStep(0)
	s.Reidentified.Second = `textbox "Token" value="` + secret + `"`
	if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "n", Status: "passed", Steps: []session.StepResult{s}}); err != nil {
		t.Fatal(err)
	}
	got, err := db.Cache(ctx, "k1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Context.Near[0] != "token "+redact.Marker || got.Context.Path[0].Name != redact.Marker || got.Context.Near[1] != "Alice" {
		t.Errorf("context read back %+v", got.Context)
	}
	tests, err := db.Tests(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if g := tests[0].Steps[0].Reidentified; g == nil || g.Second != `textbox "Token" value="`+redact.Marker+`"` || g.Score != 0.82 {
		t.Errorf("reidentification read back %+v", g)
	}
	for name, b := range storedBytes(t, db) {
		for _, f := range append(redact.Forms(secret), "s3cr3t", "välue") {
			if bytes.Contains(b, []byte(f)) {
				t.Errorf("%s holds %q", name, f)
			}
		}
	}
}

// TestCacheStatisticsCountsReidentifiedApart: re-identified steps are
// lookups, counted apart from hits and from located or re-located steps;
// the hit rate counts hits only, the served rate hits and re-identified
// steps, and both save the located steps' model calls.
func TestCacheStatisticsCountsReidentifiedApart(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	st := func(i int, status session.StepStatus, calls int) session.StepResult {
		return session.StepResult{Index: i, Kind: "CLICK", Status: status, LLMCalls: calls}
	}
	for _, steps := range [][]session.StepResult{
		// a cold run: two located with 2 model calls each, a navigate
		{st(0, session.StatusPassed, 0), st(1, session.StatusLocated, 2), st(2, session.StatusLocated, 2)},
		// a warm run after a redesign: a hit, two re-identified, one re-located
		{st(0, session.StatusPassed, 0), st(1, session.StatusHit, 0), st(2, session.StatusReidentified, 0),
			st(3, session.StatusReidentified, 0), st(4, session.StatusRelocated, 2), st(5, session.StatusSkipped, 0)},
	} {
		r := &session.Run{}
		if err := db.StartRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "t", Status: "passed", Steps: steps}); err != nil {
			t.Fatal(err)
		}
	}
	s, err := db.CacheStatistics(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if s.Runs != 1 || s.Lookups != 4 || s.Hits != 1 || s.Reidentified != 2 {
		t.Errorf("last run: %+v, want 4 lookups, 1 hit, 2 re-identified", s)
	}
	if s.HitRate != 0.25 || s.ServedRate != 0.75 || s.Saved != 6 {
		t.Errorf("last run: hit rate %v, served %v, saved %v; want 0.25, 0.75, 6", s.HitRate, s.ServedRate, s.Saved)
	}
	s, err = db.CacheStatistics(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if s.Lookups != 6 || s.Hits != 1 || s.Reidentified != 2 || s.ServedRate != 0.5 {
		t.Errorf("two runs: %+v", s)
	}
}
