package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

func TestDecisions(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run := &session.Run{Project: "p", Status: "running"}
	if err := db.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	recs := []*session.DecisionRecord{
		{RunID: run.ID, Project: "p", Proposal: session.Proposal{Kind: session.ProposedByAgent, Test: "t", Index: 2, Goal: "g", Command: "--step-type CLICK --description \"a\""},
			Decision: session.Decision{Verdict: session.Reject, Reason: "wrong button", By: "ann"}},
		{RunID: run.ID, Project: "p", Proposal: session.Proposal{Kind: session.ProposedByAgent, Test: "t", Index: 2, Goal: "g", Command: "--step-type CLICK --description \"b\""},
			Decision: session.Decision{Verdict: session.Edit, Command: "--step-type CLICK --description \"c\"", By: "ann"}},
	}
	for _, r := range recs {
		if err := db.PutDecision(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.PutDecision(ctx, &session.DecisionRecord{Proposal: session.Proposal{Kind: "x", Command: "c"}, Decision: session.Decision{Verdict: session.Approve}}); err == nil {
		t.Error("a decision of an unknown kind was stored")
	}
	got, err := db.Decisions(ctx, run.ID)
	if err != nil || len(got) != 2 {
		t.Fatalf("%d decisions, %v", len(got), err)
	}
	if got[0].Decision.Reason != "wrong button" || got[0].Decision.By != "ann" || got[0].Decision.At.IsZero() || got[1].Decision.Command != recs[1].Decision.Command || got[1].Proposal.Goal != "g" {
		t.Errorf("decisions: %+v", got)
	}
}
