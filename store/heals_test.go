package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

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
