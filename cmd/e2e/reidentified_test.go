package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/store"
)

// TestCacheStatsAndShowReidentified: cache stats counts re-identified
// steps apart from hits, and cache show prints the context an element
// row keeps.
func TestCacheStatsAndShowReidentified(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r := &session.Run{}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	steps := []session.StepResult{
		{Index: 0, Kind: "CLICK", Status: session.StatusHit, Cache: "hit"},
		{Index: 1, Kind: "CLICK", Status: session.StatusHit, Cache: "hit"},
		{Index: 2, Kind: "CLICK", Status: session.StatusReidentified, Cache: "miss", MissReason: "no-match",
			Reidentified: &session.Reidentification{Score: 0.8, RunnerUp: 0.3}},
		{Index: 3, Kind: "CLICK", Status: session.StatusRelocated, Cache: "miss", LLMCalls: 1},
	}
	if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "t", Status: "passed", Steps: steps}); err != nil {
		t.Fatal(err)
	}
	e := &session.CacheEntry{Key: "c0ffee1234", Test: "t", Description: "the Save button",
		Context: session.NodeContext{Near: []string{"Alice"}, Path: []session.PathNode{{Tag: "tr", Role: "row", Name: "Alice"}}}}
	if err := db.PutCache(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e2e(t, "cache", "stats", "--db", path)
	if code != 0 {
		t.Fatalf("stats: exit %d\n%s%s", code, out, errOut)
	}
	if want := "last 1 run: 2 of 4 lookups hit (50%), 1 re-identified (25%); 3 of 4 (75%) with no locate and no model call, about 3.0 model calls saved"; !strings.Contains(out, want) {
		t.Errorf("stats:\n%s\nwant %q", out, want)
	}
	code, out, errOut = e2e(t, "cache", "show", "c0ffee", "--db", path)
	if code != 0 {
		t.Fatalf("show: exit %d\n%s%s", code, out, errOut)
	}
	if want := `  context: {"near":["Alice"],"path":[{"tag":"tr","role":"row","name":"Alice"}]}`; !strings.Contains(out, want) {
		t.Errorf("show:\n%s\nwant %q", out, want)
	}
}
