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
	all, err := db.ModelCalls(ctx, 0)
	if err != nil || len(all) != 2 || all[1].RunID != 0 || all[1].Outcome != "rate-limited" {
		t.Errorf("all calls: %+v %v", all, err)
	}
	if err := db.RecordModelCall(ctx, &session.ModelCall{Purpose: "chat"}); err == nil {
		t.Error("an unknown purpose was stored")
	}
}
