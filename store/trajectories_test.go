package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

func TestTrajectoryRoundTrip(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, err := db.Trajectory(ctx, "nope"); got != nil || err != nil {
		t.Fatalf("absent: %v %v", got, err)
	}
	tr := &session.Trajectory{Key: "k1", Project: "p", Test: "t", Goal: "sign in",
		Steps:         []string{`--step-type CLICK --description "the Sign in button" --cache-id "abc"`},
		Postcondition: "the Users page shows", Evidence: session.Evidence{Route: "/users", Appeared: []string{`heading "Users"`}}}
	if err := db.PutTrajectory(ctx, tr); err != nil {
		t.Fatal(err)
	}
	got, err := db.Trajectory(ctx, "k1")
	if err != nil || !reflect.DeepEqual(got, tr) {
		t.Fatalf("round trip:\n%+v\n%+v (%v)", got, tr, err)
	}
	tr.Steps = nil
	if err := db.PutTrajectory(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Trajectory(ctx, "k1"); len(got.Steps) != 0 {
		t.Errorf("replace: %+v", got)
	}
}
