package run

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TestRunThatFailsToRunIsFinished: a run whose suite cannot run (here its
// isolated browser does not start) returns the error and is recorded as
// ended, failed — not left "running" in a process that goes on, as the MCP
// server does.
func TestRunThatFailsToRunIsFinished(t *testing.T) {
	e := newEnv(t)
	tt, err := testfile.Parse("a.e2e.yaml", []byte("name: a\nurl: /product\nsteps:\n  - click: the Add to cart button\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Out: &e.out, Suite: SuiteOptions{Isolate: true,
		Launch: func(context.Context) (*browser.Browser, error) { return nil, errors.New("no browser today") }}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := r.Run(ctx, []*testfile.Test{tt}); err == nil || !strings.Contains(err.Error(), "no browser today") {
		t.Fatalf("run: %v", err)
	}
	runs, err := e.db.Runs(ctx, 0)
	if err != nil || len(runs) != 1 || runs[0].Status != "failed" || runs[0].FinishedAt.IsZero() {
		t.Errorf("the run: %+v (%v)", runs, err)
	}
}
