package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

func TestHeals(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := &session.Trajectory{Key: "k", Goal: "g", Steps: []string{"a"}}
	if err := db.PutTrajectory(ctx, old); err != nil {
		t.Fatal(err)
	}
	h := &session.Heal{Key: "k", Goal: "g", OldSteps: []string{"a"}, NewSteps: []string{"x", "a"}, FailedIndex: 0, Reason: "covered"}
	if err := db.PutHeal(ctx, h); err != nil {
		t.Fatal(err)
	}
	if got, err := db.StagedHeal(ctx, "k"); err != nil || got == nil || got.ID != h.ID || len(got.NewSteps) != 2 {
		t.Fatalf("staged: %+v %v", got, err)
	}
	if tr, _ := db.Trajectory(ctx, "k"); len(tr.Steps) != 1 {
		t.Error("a staged heal replaced the trajectory")
	}
	if _, err := db.DecideHeal(ctx, h.ID, true, "alice"); err != nil {
		t.Fatal(err)
	}
	if tr, _ := db.Trajectory(ctx, "k"); len(tr.Steps) != 2 || tr.Steps[0] != "x" {
		t.Errorf("accepting did not promote the new trajectory: %+v", tr)
	}
	if got, _ := db.StagedHeal(ctx, "k"); got != nil {
		t.Error("an accepted heal is still staged")
	}
	if _, err := db.DecideHeal(ctx, h.ID, false, "bob"); err == nil {
		t.Error("a heal was decided twice")
	}
	got, err := db.Heal(ctx, h.ID)
	if err != nil || got.Status != "accepted" || got.DecidedBy != "alice" || got.DecidedAt.IsZero() {
		t.Errorf("decided heal: %+v %v", got, err)
	}
	h2 := &session.Heal{Key: "k", NewSteps: []string{"y"}}
	if err := db.PutHeal(ctx, h2); err != nil {
		t.Fatal(err)
	}
	if _, err := db.DecideHeal(ctx, h2.ID, false, "bob"); err != nil {
		t.Fatal(err)
	}
	if tr, _ := db.Trajectory(ctx, "k"); tr.Steps[0] != "x" {
		t.Error("rejecting changed the trajectory")
	}
	all, err := db.Heals(ctx, "")
	if err != nil || len(all) != 2 || all[0].ID != h2.ID {
		t.Errorf("heals: %+v %v", all, err)
	}
	if _, err := db.Heal(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing heal: %v", err)
	}
	acc := &session.Heal{Key: "k2", NewSteps: []string{"z"}, Status: "accepted"}
	if err := db.PutHeal(ctx, acc); err != nil {
		t.Fatal(err)
	}
	if tr, _ := db.Trajectory(ctx, "k2"); tr == nil || tr.Steps[0] != "z" {
		t.Errorf("an accepted heal did not write the trajectory: %+v", tr)
	}
}

// TestOneStagedHealPerKey: four runs, each with its own connection to the
// file, stage the same heal of an act at once: one heal is staged, seen by
// all four. A different heal supersedes it; accepting decides the key, so
// nothing of it stays staged. Before, each run staged its own heal and,
// after one was accepted, the others still stood in for the trajectory.
func TestOneStagedHealPerKey(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	l := session.Lineage{Branch: "main", Main: "main", Commit: "c1", Version: "v1.0.0"}
	const runs = 4
	dbs := make([]*DB, runs)
	for i := range dbs {
		db, err := Open(ctx, path, WithLineage(l))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}
	db := dbs[0]
	if err := db.PutTrajectory(ctx, &session.Trajectory{Key: "k", Goal: "g", Steps: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	heal := func(steps ...string) *session.Heal {
		return &session.Heal{Key: "k", Goal: "g", OldSteps: []string{"a"}, NewSteps: steps, Reason: "covered", Postcondition: "done"}
	}
	ids := make([]int64, runs)
	var wg sync.WaitGroup
	errs := make(chan error, runs)
	start := make(chan struct{})
	for i, d := range dbs {
		wg.Go(func() {
			<-start
			h := heal("x", "a")
			if err := d.PutHeal(ctx, h); err != nil {
				errs <- err
				return
			}
			ids[i] = h.ID
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	staged, err := db.Heals(ctx, "staged")
	if err != nil {
		t.Fatal(err)
	}
	if len(staged) != 1 || staged[0].Seen != runs || staged[0].LastSeenAt.IsZero() {
		t.Fatalf("%d staged heals (%+v), want 1 seen by %d runs", len(staged), staged, runs)
	}
	for i, id := range ids {
		if id != staged[0].ID {
			t.Errorf("run %d was given heal %d, want the one staged, %d", i, id, staged[0].ID)
		}
	}

	// A different heal supersedes it.
	other := heal("y", "a")
	if err := dbs[1].PutHeal(ctx, other); err != nil {
		t.Fatal(err)
	}
	if other.ID == staged[0].ID || other.Seen != 1 {
		t.Fatalf("a different heal joined: %+v", other)
	}
	old, err := db.Heal(ctx, staged[0].ID)
	if err != nil || old.Status != "superseded" || old.SupersededBy != other.ID {
		t.Fatalf("the earlier heal after a different one: %+v %v", old, err)
	}
	if got, _ := db.StagedHeal(ctx, "k"); got == nil || got.ID != other.ID {
		t.Fatalf("staged %+v, want heal %d", got, other.ID)
	}
	if _, err := db.DecideHeal(ctx, old.ID, true, "alice"); err == nil {
		t.Error("a superseded heal was accepted")
	}

	// Accepting decides the key: nothing of it is staged, and the next
	// replay reads the accepted trajectory.
	if _, err := db.DecideHeal(ctx, other.ID, true, "alice"); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.StagedHeal(ctx, "k"); got != nil {
		t.Errorf("heal %d still staged after heal %d was accepted", got.ID, other.ID)
	}
	if tr, _ := db.Trajectory(ctx, "k"); tr == nil || tr.Steps[0] != "y" {
		t.Errorf("trajectory %+v, want the accepted heal's", tr)
	}

	// The unique index itself refuses a second staged heal of a key and branch.
	if err := db.PutHeal(ctx, heal("z")); err != nil {
		t.Fatal(err)
	}
	_, err = db.write.ExecContext(ctx, `INSERT INTO heals (key, old_steps, new_steps, status, created_at, branch)
VALUES ('k', '[]', '["w"]', 'staged', '2026-01-01T00:00:00.000000000Z', 'main')`)
	if err == nil {
		t.Error("a second staged heal of a key and branch was inserted")
	}
}

// TestMigrationSupersedesDuplicateHeals: a database with duplicate staged
// heals, from before one staged heal per key, keeps the newest staged.
func TestMigrationSupersedesDuplicateHeals(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	raw := rawDB(t, path)
	ms, err := embeddedMigrations(sqliteEngine)
	if err != nil {
		t.Fatal(err)
	}
	before := 0
	for i, m := range ms {
		if m.name == "0010_staged_heal_per_key.sql" {
			before = i
		}
	}
	if err := migrate(ctx, raw, sqliteEngine, ms[:before], time.Now); err != nil {
		t.Fatal(err)
	}
	for i, b := range []string{"main", "main", "feature", "main"} {
		if _, err := raw.Exec(`INSERT INTO heals (key, old_steps, new_steps, status, created_at, branch)
VALUES ('k', '[]', '[]', 'staged', ?, ?)`, fmt.Sprintf("2026-01-0%dT00:00:00.000000000Z", i+1), b); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	all, err := db.Heals(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for _, h := range all {
		got[h.ID] = fmt.Sprintf("%s/%s/%d", h.Branch, h.Status, h.SupersededBy)
	}
	want := map[int64]string{1: "main/superseded/4", 2: "main/superseded/4", 3: "feature/staged/0", 4: "main/staged/0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the migration: %v, want %v", got, want)
	}
}
