package store

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// BenchmarkCacheGet looks up one key among 10,000 entries.
func BenchmarkCacheGet(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	const rows = 10_000
	fillCache(b, db, rows)
	key := session.CacheKey(fmt.Sprintf("key-%05d", rows/2))
	for b.Loop() {
		e, err := db.Cache(ctx, key)
		if err != nil || e == nil {
			b.Fatal(e, err)
		}
	}
}

// BenchmarkCacheTouch records a hit on one key among 10,000 entries.
func BenchmarkCacheTouch(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	fillCache(b, db, 10_000)
	for b.Loop() {
		if err := db.TouchCache(ctx, "key-05000"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPutCache replaces one entry among 10,000.
func BenchmarkPutCache(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	fillCache(b, db, 10_000)
	e := sampleEntry("key-05000")
	for b.Loop() {
		if err := db.PutCache(ctx, e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveTest saves a test with 10 steps.
func BenchmarkSaveTest(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	r := &session.Run{Project: "bench"}
	if err := db.StartRun(ctx, r); err != nil {
		b.Fatal(err)
	}
	steps := append(sampleSteps(), sampleSteps()[:4]...)
	for i := range steps {
		steps[i].Index = i
	}
	for b.Loop() {
		tr := &session.TestResult{RunID: r.ID, Name: "login", File: "tests/login.e2e", Status: "passed",
			DurationMS: 5000, Steps: steps}
		if err := db.SaveTest(ctx, tr); err != nil {
			b.Fatal(err)
		}
	}
}

// fillCache inserts n entries key-00000… in one transaction.
func fillCache(b *testing.B, db *DB, n int) {
	b.Helper()
	ctx := context.Background()
	err := inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		e := sampleEntry("")
		for i := range n {
			if _, err := tx.ExecContext(ctx, `
INSERT INTO element_cache (key, project, test, description, selectors, node, intent, created_at, used_at, hits)
VALUES (?, ?, ?, ?, json(?), json(?), json(?), ?, ?, 0)`,
				fmt.Sprintf("key-%05d", i), e.Project, fmt.Sprintf("test-%d", i%100), e.Description,
				`[{"kind":"testid","value":"[data-testid=\"x\"]"}]`,
				`{"tag":"button","role":"button","name":"Menu","box":[1,2,3,4]}`,
				`{"attributes":{"role":"button"}}`,
				formatTime(e.CreatedAt), formatTime(e.UsedAt)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkTestHistories reads the history of 50 tests from a store of
// 2,000 runs of 50 tests (5 steps each, 500,000 steps), every run with its
// tests recorded: what a report's strips cost (docs/history.md).
func BenchmarkTestHistories(b *testing.B) {
	sqliteOnly(b)
	db := openTest(b)
	ctx := context.Background()
	const runs, tests, steps = 2000, 50, 5
	names := make([]string, tests)
	for i := range names {
		names[i] = fmt.Sprintf("test %02d", i)
	}
	err := inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		for r := range runs {
			var id int64
			if err := tx.QueryRowContext(ctx, `INSERT INTO runs (project, started_at, status) VALUES ('bench', ?, 'passed') RETURNING id`,
				fmt.Sprintf("2026-01-01T00:00:%02d.%09dZ", r%60, r)).Scan(&id); err != nil {
				return err
			}
			if err := insertRunTests(ctx, tx, id, names); err != nil {
				return err
			}
			for _, name := range names {
				var tid int64
				if err := tx.QueryRowContext(ctx, `INSERT INTO test_results (run_id, name, status, duration_ms) VALUES (?, ?, 'passed', 1000) RETURNING id`,
					id, name).Scan(&tid); err != nil {
					return err
				}
				for s := range steps {
					if _, err := tx.ExecContext(ctx, `INSERT INTO step_results (test_id, idx, status) VALUES (?, ?, 'hit')`, tid, s); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		hs, err := db.TestHistories(ctx, session.HistoryQuery{Project: "bench", Tests: names})
		if err != nil || len(hs) != tests || len(hs[0].Runs) != session.DefaultHistoryRuns {
			b.Fatal(len(hs), err)
		}
	}
}
