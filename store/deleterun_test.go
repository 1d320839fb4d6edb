package store

import (
	"context"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// TestDeleteRunRollsTheRunBack: DeleteRun removes a run with its test and
// step results, model calls and decisions, and leaves every other run as
// it was; a run that is not there is no error.
func TestDeleteRunRollsTheRunBack(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	record := func(project string) int64 {
		r := &session.Run{Project: project}
		if err := db.StartRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		tr := &session.TestResult{RunID: r.ID, Name: project + " test", Status: "failed", Steps: sampleSteps()}
		if err := db.SaveTest(ctx, tr); err != nil {
			t.Fatal(err)
		}
		if err := db.RecordModelCall(ctx, &session.ModelCall{RunID: r.ID, Purpose: "locate", Model: "m", TokensIn: 10}); err != nil {
			t.Fatal(err)
		}
		if err := db.PutDecision(ctx, &session.DecisionRecord{RunID: r.ID, Project: project,
			Proposal: session.Proposal{Kind: session.ProposedByAgent, Test: tr.Name, Command: `--step-type CLICK --description "x"`},
			Decision: session.Decision{Verdict: session.Approve, By: "ann"}}); err != nil {
			t.Fatal(err)
		}
		r.Status = "failed"
		if err := db.FinishRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	gone, kept := record("gone"), record("kept")
	if err := db.DeleteRun(ctx, gone); err != nil {
		t.Fatal(err)
	}
	runs, err := db.Runs(ctx, 0)
	if err != nil || len(runs) != 1 || runs[0].ID != kept {
		t.Fatalf("runs after the delete: %+v (%v)", runs, err)
	}
	for _, id := range []int64{gone, kept} {
		tests, err := db.Tests(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		calls, err := db.ModelCalls(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		decisions, err := db.Decisions(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		if id == kept {
			want = 1
		}
		if len(tests) != want || len(calls) != want || len(decisions) != want {
			t.Errorf("run %d: %d tests, %d model calls, %d decisions; want %d of each", id, len(tests), len(calls), len(decisions), want)
		}
		if id == kept && len(tests) == 1 && len(tests[0].Steps) != len(sampleSteps()) {
			t.Errorf("the kept run lost steps: %+v", tests[0].Steps)
		}
	}
	var steps int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM step_results`).Scan(&steps); err != nil {
		t.Fatal(err)
	}
	if steps != len(sampleSteps()) {
		t.Errorf("%d step rows left, want the kept run's %d", steps, len(sampleSteps()))
	}
	if err := db.DeleteRun(ctx, gone); err != nil {
		t.Errorf("deleting a run that is gone: %v", err)
	}
}
