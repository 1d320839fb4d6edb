package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

func TestModelCalls(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run := &session.Run{Project: "p"}
	if err := db.StartRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	calls := []*session.ModelCall{
		{RunID: run.ID, Purpose: "locate", Model: "m", TokensIn: 1200, TokensOut: 80, LatencyMS: 900, Attempts: 2, Cost: 0.0012},
		{Purpose: "act", Model: "m", Outcome: "rate-limited"},
	}
	for _, c := range calls {
		if err := db.RecordModelCall(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.ModelCalls(ctx, run.ID)
	if err != nil || len(got) != 1 {
		t.Fatalf("run calls: %v %v", got, err)
	}
	g := got[0]
	if g.Purpose != "locate" || g.TokensIn != 1200 || g.TokensOut != 80 || g.Attempts != 2 || g.Outcome != "ok" || g.Cost != 0.0012 || time.Since(g.At) > time.Minute {
		t.Errorf("round trip: %+v", g)
	}
	all, err := db.ModelCalls(ctx, AllRuns)
	if err != nil || len(all) != 2 || all[1].RunID != 0 || all[1].Outcome != "rate-limited" {
		t.Errorf("all calls: %+v %v", all, err)
	}
	if err := db.RecordModelCall(ctx, &session.ModelCall{Purpose: "chat"}); err == nil {
		t.Error("an unknown purpose was stored")
	}
}

// TestReadOnlyRunReportsItsOwnModelCalls: a read-only run (run id 0, not
// stored) reports the calls it made, and not the whole store's (it
// reported every call of every run as its own).
func TestReadOnlyRunReportsItsOwnModelCalls(t *testing.T) {
	ctx := context.Background()
	target := testTarget(t)
	db, err := Open(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	run := &session.Run{Project: "p"}
	must(t, db.StartRun(ctx, run))
	for range 3 {
		must(t, db.RecordModelCall(ctx, &session.ModelCall{RunID: run.ID, Purpose: "locate", Model: "m", TokensIn: 5000, TokensOut: 100}))
	}
	must(t, db.RecordModelCall(ctx, &session.ModelCall{Purpose: "act", Model: "m", TokensIn: 7}))
	db.Close()

	ro, err := Open(ctx, target, WithReadOnly("a pull request from a fork"))
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	for round := range 2 { // a second run of the same store (the MCP server) starts afresh
		r := &session.Run{Project: "p"}
		must(t, ro.StartRun(ctx, r))
		if r.ID != 0 {
			t.Fatalf("a read-only run got id %d", r.ID)
		}
		for i := range 2 {
			must(t, ro.RecordModelCall(ctx, &session.ModelCall{RunID: r.ID, Purpose: "assert", Model: "m", TokensIn: 10 + i + round, TokensOut: 1}))
		}
		got, err := ro.ModelCalls(ctx, r.ID)
		if err != nil || len(got) != 2 || got[0].TokensIn != 10+round || got[1].TokensIn != 11+round || got[0].Purpose != "assert" || got[0].At.IsZero() {
			t.Fatalf("run %d: the read-only run's calls: %+v %v; want its own two", round, got, err)
		}
	}
	stored, err := ro.ModelCalls(ctx, AllRuns)
	if err != nil || len(stored) != 4 {
		t.Errorf("stored calls: %d %v; want the 4 of before, none written", len(stored), err)
	}
	if got, err := ro.ModelCalls(ctx, run.ID); err != nil || len(got) != 3 {
		t.Errorf("a stored run's calls: %d %v", len(got), err)
	}
}
