package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// populate gives db runs with tests and steps, model calls in and outside
// a run, decisions, heals (a staged one that superseded another, and an
// accepted one), cache rows and a trajectory.
func populate(t testing.TB, db *DB, tag string) {
	t.Helper()
	ctx := context.Background()
	for i := range 3 {
		r := &session.Run{Project: "p" + tag, Branch: "main", Commit: "c" + tag, StartedAt: time.Date(2026, 12, 1, 10, i, 0, 0, time.UTC),
			Tests: []string{"t" + tag, "u" + tag, "v" + tag}}
		must(t, db.StartRun(ctx, r))
		must(t, db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "t" + tag, File: "a.e2e.yaml", Status: "passed", DurationMS: 120, Steps: sampleSteps()}))
		must(t, db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "u" + tag, Status: "failed", Error: "boom", Steps: sampleSteps()[:1]}))
		must(t, db.RecordModelCall(ctx, &session.ModelCall{RunID: r.ID, Purpose: "locate", Model: "m", TokensIn: 10 + i, LatencyMS: 5}))
		must(t, db.PutDecision(ctx, &session.DecisionRecord{RunID: r.ID, Project: "p" + tag,
			Proposal: session.Proposal{Test: "t" + tag, Kind: "step", Index: i, Command: "click x"},
			Decision: session.Decision{Verdict: "approve", By: "ann"}}))
		r.Status = "passed"
		must(t, db.FinishRun(ctx, r))
	}
	must(t, db.RecordModelCall(ctx, &session.ModelCall{Purpose: "heal", Model: "m", TokensIn: 99}))
	for _, k := range []string{"k1" + tag, "k2" + tag} {
		must(t, db.PutCache(ctx, sampleEntry(k)))
	}
	must(t, db.TouchCache(ctx, session.CacheKey("k1"+tag)))
	must(t, db.PutTrajectory(ctx, &session.Trajectory{Key: session.CacheKey("tr" + tag), Goal: "g", Steps: []string{`--step-type CLICK --description "the Save button"`}}))
	must(t, db.PutHeal(ctx, &session.Heal{Key: session.CacheKey("tr" + tag), Goal: "g", OldSteps: []string{"a"}, NewSteps: []string{"b"}}))
	must(t, db.PutHeal(ctx, &session.Heal{Key: session.CacheKey("tr" + tag), Goal: "g", OldSteps: []string{"a"}, NewSteps: []string{"c"}}))
	h := &session.Heal{Key: session.CacheKey("other" + tag), Goal: "g2", OldSteps: []string{"x"}, NewSteps: []string{"y"}}
	must(t, db.PutHeal(ctx, h))
	if _, err := db.DecideHeal(ctx, h.ID, true, "bob"); err != nil {
		t.Fatal(err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// contents is everything db holds, through its own reading methods, with
// the ids (each store's own) left out.
func contents(t *testing.T, db *DB) string {
	t.Helper()
	ctx := context.Background()
	var all []any
	runs, err := db.Runs(ctx, 0)
	must(t, err)
	for _, r := range runs {
		tests, err := db.Tests(ctx, r.ID)
		must(t, err)
		for i := range tests {
			tests[i].ID, tests[i].RunID = 0, 0
		}
		decs, err := db.Decisions(ctx, r.ID)
		must(t, err)
		for i := range decs {
			decs[i].ID, decs[i].RunID = 0, 0
		}
		calls, err := db.ModelCalls(ctx, r.ID)
		must(t, err)
		for i := range calls {
			calls[i].ID, calls[i].RunID = 0, 0
		}
		planned := runTestNames(t, db, r.ID)
		r.ID = 0
		all = append(all, r, tests, decs, calls, planned)
	}
	calls, err := db.ModelCalls(ctx, AllRuns)
	must(t, err)
	for i := range calls {
		calls[i].ID, calls[i].RunID = 0, 0
	}
	heals, err := db.Heals(ctx, "")
	must(t, err)
	for i := range heals {
		heals[i].ID = 0
		if heals[i].SupersededBy != 0 {
			heals[i].SupersededBy = -1 // set, to some id of its own store
		}
	}
	rows, err := db.CacheRows(ctx, CacheFilter{})
	must(t, err)
	all = append(all, calls, heals, rows)
	b, err := json.MarshalIndent(all, "", " ")
	must(t, err)
	return string(b)
}

// runTestNames are the names of the tests run id set out to run.
func runTestNames(t *testing.T, db *DB, id int64) []string {
	t.Helper()
	rows, err := db.read.QueryContext(context.Background(), `SELECT name FROM run_tests WHERE run_id = ? ORDER BY name`, id)
	must(t, err)
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		must(t, rows.Scan(&n))
		names = append(names, n)
	}
	must(t, rows.Err())
	if len(names) == 0 {
		t.Fatalf("run %d has no tests recorded", id)
	}
	return names
}

// TestCopyEverythingOnceAndBack copies a SQLite store into a new store of
// this run's engine, checks it row for row, copies again (nothing twice),
// into a store that already has rows of its own, and back into SQLite.
func TestCopyEverythingOnceAndBack(t *testing.T) {
	ctx := context.Background()
	src, err := Open(ctx, filepath.Join(t.TempDir(), "src.db"))
	must(t, err)
	defer src.Close()
	populate(t, src, "")
	want := contents(t, src)

	dst, err := Open(ctx, testTarget(t))
	must(t, err)
	defer dst.Close()
	st, err := Copy(ctx, src, dst)
	must(t, err)
	if st.Runs != 3 || st.Tests != 6 || st.Steps != 3*(len(sampleSteps())+1) || st.ModelCalls != 4 || st.Decisions != 3 || st.Heals != 3 ||
		st.Elements != 2 || st.Trajectories != 2 || st.Skipped != 0 { // the accepted heal wrote a trajectory
		t.Errorf("first copy: %s", st)
	}
	if got := contents(t, dst); got != want {
		t.Fatalf("the copy differs from the source:\nsource %s\ncopy   %s", want, got)
	}
	st, err = Copy(ctx, src, dst)
	must(t, err)
	if st.Runs != 0 || st.Tests != 0 || st.ModelCalls != 0 || st.Decisions != 0 || st.Heals != 0 || st.Skipped != 3+4+3+3 {
		t.Errorf("second copy: %s, want nothing new", st)
	}
	if got := contents(t, dst); got != want {
		t.Fatalf("a second copy changed the target:\nwant %s\ngot  %s", want, got)
	}

	// Into a store with rows of its own: both sets are there after.
	mixed, err := Open(ctx, filepath.Join(t.TempDir(), "mixed.db"))
	must(t, err)
	defer mixed.Close()
	populate(t, mixed, "-own")
	own := contents(t, mixed)
	_, err = Copy(ctx, dst, mixed)
	must(t, err)
	runs, err := mixed.Runs(ctx, 0)
	must(t, err)
	if len(runs) != 6 {
		t.Errorf("mixed store has %d runs, want 3 of its own and 3 copied", len(runs))
	}
	back, err := Open(ctx, filepath.Join(t.TempDir(), "back.db"))
	must(t, err)
	defer back.Close()
	_, err = Copy(ctx, dst, back)
	must(t, err)
	if got := contents(t, back); got != want {
		t.Fatalf("copied back, it differs:\nwant %s\ngot  %s", want, got)
	}
	if own == want {
		t.Fatal("populate tags do not tell the stores apart")
	}
}

func TestCopyToAReadOnlyStoreIsRefused(t *testing.T) {
	ctx := context.Background()
	src := openTest(t)
	target := testTarget(t)
	db, err := Open(ctx, target)
	must(t, err)
	db.Close()
	ro, err := Open(ctx, target, WithReadOnly("a test"))
	must(t, err)
	defer ro.Close()
	if _, err := Copy(ctx, src, ro); err == nil {
		t.Fatal("copied into a read-only store")
	}
}

// seedElements writes rows element cache rows into the SQLite store db.
func seedElements(tb testing.TB, db *DB, rows int) {
	tb.Helper()
	ctx := context.Background()
	err := inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1)
INSERT INTO element_cache (key, branch, git_commit, depth, version, version_key, project, test, description, selectors, node, intent, created_at, used_at, hits)
SELECT 'key-' || substr(CAST(1000000 + i AS TEXT), 2), 'main', 'c' || (i % 97), i % 13, 'v1.0.0', ?2, 'shop', 'test-' || (i % 100),
       'the button ' || i, '[{"kind":"id","value":"#b' || i || '"}]', '{"tag":"button","name":"B' || i || '"}', '{}', ?3, ?3, i % 7 FROM n`,
			rows, VersionKey("v1.0.0"), formatTime(db.now()))
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// TestCopyInBatches: 1,234 cache rows go over in two full batches and a
// part of one, row for row; copied again, every row is brought up to date
// (none doubled), and a row the target used more keeps its hits.
func TestCopyInBatches(t *testing.T) {
	ctx := context.Background()
	src, err := Open(ctx, filepath.Join(t.TempDir(), "src.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	const rows = 2*copyBatch + 234
	seedElements(t, src, rows)
	dst, err := Open(ctx, testTarget(t))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	const all = `SELECT key, branch, git_commit, depth, version, version_key, identity, project, test, description,
       selectors, node, intent, context, created_at, used_at, hits FROM element_cache ORDER BY key, branch, git_commit, version`
	if st, err := Copy(ctx, src, dst); err != nil || st.Elements != rows {
		t.Fatalf("copy: %s, %v", st, err)
	}
	sameRows(t, src, dst, all)
	if _, err := dst.write.ExecContext(ctx, `UPDATE element_cache SET hits = 99 WHERE key = 'key-000600'`); err != nil {
		t.Fatal(err)
	}
	if st, err := Copy(ctx, src, dst); err != nil || st.Elements != rows {
		t.Fatalf("copy again: %s, %v", st, err)
	}
	var n, hits int
	if err := dst.read.QueryRowContext(ctx, `SELECT COUNT(*), MAX(hits) FROM element_cache`).Scan(&n, &hits); err != nil || n != rows || hits != 99 {
		t.Errorf("after copying again: %d rows (want %d), most hits %d (want 99), %v", n, rows, hits, err)
	}
}

// BenchmarkStoreCopy100k copies a SQLite store of 100,000 element cache rows
// (and a run) into a new store of this run's engine, then checks the copy
// row for row against the source.
func BenchmarkStoreCopy100k(b *testing.B) {
	ctx := context.Background()
	src, err := Open(ctx, filepath.Join(b.TempDir(), "src.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	const rows = 100_000
	seedElements(b, src, rows)
	populate(b, src, "")
	for b.Loop() {
		b.StopTimer()
		dst, err := Open(ctx, testTarget(b))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st, err := Copy(ctx, src, dst)
		b.StopTimer()
		if err != nil || st.Elements != rows+2 {
			b.Fatalf("copy: %s, %v", st, err)
		}
		sameRows(b, src, dst, `SELECT key, branch, git_commit, depth, version, version_key, identity, project, test, description,
       selectors, node, intent, context, created_at, used_at, hits FROM element_cache ORDER BY key, branch, git_commit, version`)
		dst.Close()
		b.StartTimer()
	}
}

// sameRows checks that query gives the same rows, in the same order, on a
// and on b.
func sameRows(tb testing.TB, a, b *DB, query string) {
	tb.Helper()
	ra, err := a.read.Query(query)
	if err != nil {
		tb.Fatal(err)
	}
	defer ra.Close()
	rb, err := b.read.Query(query)
	if err != nil {
		tb.Fatal(err)
	}
	defer rb.Close()
	cols, _ := ra.Columns()
	va, vb := make([]any, len(cols)), make([]any, len(cols))
	pa, pb := make([]any, len(cols)), make([]any, len(cols))
	for i := range cols {
		pa[i], pb[i] = &va[i], &vb[i]
	}
	n := 0
	for ra.Next() {
		if !rb.Next() {
			tb.Fatalf("the copy has %d rows, the source more", n)
		}
		if err := ra.Scan(pa...); err != nil {
			tb.Fatal(err)
		}
		if err := rb.Scan(pb...); err != nil {
			tb.Fatal(err)
		}
		if fmt.Sprint(normalize(va)) != fmt.Sprint(normalize(vb)) {
			tb.Fatalf("row %d differs:\nsource %v\ncopy   %v", n, va, vb)
		}
		n++
	}
	if rb.Next() {
		tb.Fatalf("the copy has more than the source's %d rows", n)
	}
	if err := errors.Join(ra.Err(), rb.Err()); err != nil {
		tb.Fatal(err)
	}
}
