package store

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// counts is how many rows each table the run writes holds.
func counts(t *testing.T, db *DB) string {
	t.Helper()
	var b strings.Builder
	for _, table := range []string{"runs", "test_results", "step_results", "element_cache", "trajectories", "heals", "model_calls", "decisions"} {
		var n int
		if err := db.read.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		b.WriteString(table + "=" + string(rune('0'+min(n, 9))) + " ")
	}
	return b.String()
}

// writeAll does what a run does to a store, and reports the first error.
func writeAll(ctx context.Context, db *DB) error {
	r := &session.Run{Project: "p", StartedAt: time.Now()}
	if err := db.StartRun(ctx, r); err != nil {
		return err
	}
	if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "t", Status: "passed", Steps: sampleSteps()[:1]}); err != nil {
		return err
	}
	if err := db.PutCache(ctx, sampleEntry("k2")); err != nil {
		return err
	}
	if err := db.TouchCache(ctx, "k1"); err != nil {
		return err
	}
	if err := db.PutTrajectory(ctx, &session.Trajectory{Key: "t1", Goal: "g", Steps: []string{`--step-type CLICK --description "the Save button"`}}); err != nil {
		return err
	}
	if err := db.RecordModelCall(ctx, &session.ModelCall{Purpose: "locate"}); err != nil {
		return err
	}
	if err := db.PutHeal(ctx, &session.Heal{Key: "t1", Goal: "g", OldSteps: []string{"a"}, NewSteps: []string{"b"}}); err != nil {
		return err
	}
	r.Status = "passed"
	return db.FinishRun(ctx, r)
}

func TestReadOnlyStoreWritesNothing(t *testing.T) {
	ctx := context.Background()
	target := testTarget(t)
	db, err := Open(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutCache(ctx, sampleEntry("k1")); err != nil {
		t.Fatal(err)
	}
	db.Close()

	ro, err := Open(ctx, target, WithReadOnly("a pull request from a fork"))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if ro.ReadOnly() != "a pull request from a fork" {
		t.Errorf("ReadOnly() = %q", ro.ReadOnly())
	}
	before := counts(t, ro)
	if got, err := ro.Cache(ctx, "k1"); err != nil || got == nil {
		t.Fatalf("a read-only store still reads: %v %v", got, err)
	}
	if err := writeAll(ctx, ro); err != nil {
		t.Fatalf("a run's writes on a read-only store: %v, want them dropped without an error", err)
	}
	if after := counts(t, ro); after != before {
		t.Errorf("rows changed on a read-only store:\nbefore %s\nafter  %s", before, after)
	}
	if _, err := ro.DeleteCache(ctx, "k1"); !errors.Is(err, ErrReadOnly) || !strings.Contains(err.Error(), "fork") {
		t.Errorf("DeleteCache on a read-only store: %v, want ErrReadOnly with the reason", err)
	}
	if _, err := ro.PruneCache(ctx, time.Now()); !errors.Is(err, ErrReadOnly) {
		t.Errorf("PruneCache: %v", err)
	}
	if _, err := ro.DecideHeal(ctx, 1, true, "me"); !errors.Is(err, ErrReadOnly) {
		t.Errorf("DecideHeal: %v", err)
	}
	// The connections are read-only too: a write that slipped past the
	// store's methods fails instead of landing.
	if _, err := ro.write.ExecContext(ctx, `DELETE FROM element_cache`); err == nil {
		t.Error("a raw write through a read-only store's write pool succeeded")
	}
}

func TestReadOnlyRoleIsDetected(t *testing.T) {
	if !onPostgres() {
		t.Skip("a database role is PostgreSQL's")
	}
	ctx := context.Background()
	target := testTarget(t)
	db, err := Open(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutCache(ctx, sampleEntry("k1")); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, schema, _ := strings.Cut(target, "&search_path=")
	for _, q := range []string{
		`CREATE ROLE e2e_reader_` + schema + ` LOGIN`,
		`GRANT USAGE ON SCHEMA ` + schema + ` TO e2e_reader_` + schema,
		`GRANT SELECT ON ALL TABLES IN SCHEMA ` + schema + ` TO e2e_reader_` + schema,
	} {
		if _, err := testAdmin.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	ro, err := Open(ctx, strings.Replace(target, "postgres://postgres@", "postgres://e2e_reader_"+schema+"@", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if want := "the database role e2e_reader_" + schema + " may not write"; ro.ReadOnly() != want {
		t.Errorf("ReadOnly() = %q, want %q", ro.ReadOnly(), want)
	}
	before := counts(t, ro)
	if got, err := ro.Cache(ctx, "k1"); err != nil || got == nil {
		t.Fatalf("the reader reads: %v %v", got, err)
	}
	if err := writeAll(ctx, ro); err != nil {
		t.Fatalf("a run's writes as a read-only role: %v", err)
	}
	if after := counts(t, ro); after != before {
		t.Errorf("rows changed:\nbefore %s\nafter  %s", before, after)
	}
}
