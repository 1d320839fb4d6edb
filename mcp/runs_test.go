package mcp

import (
	"context"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/report"
)

// runsNow are the store's runs, newest first.
func runsNow(t *testing.T, h *harness) []session.Run {
	t.Helper()
	runs, err := h.db.Runs(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestMCPSessionsRecordNoRun: a session and what is done in it (open,
// snapshot, previews that pass and fail, write_test, close) record no run
// and no test result, neither while it is open nor once it is closed; only
// run_tests records a run, which ends passed or failed, never "running".
func TestMCPSessionsRecordNoRun(t *testing.T) {
	h := newHarness(t, harnessOptions{files: map[string]string{
		"broken.e2e.yaml": "name: broken\nurl: /product\nsteps:\n  - click: the Launch rocket button\n",
	}})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/product", "test": "cart"}, &open)
	ok(t, h.cs, "snapshot", map[string]any{"session": open.Session}, nil)
	var pv previewOut
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		"click: the Add to cart button",
		"click: the Launch rocket button",
	}}, &pv)
	if len(pv.Steps) != 2 || pv.Steps[0].Status == "failed" || pv.Steps[1].Status != "failed" {
		t.Fatalf("preview: %+v", pv)
	}
	if runs := runsNow(t, h); len(runs) != 0 {
		t.Errorf("an open session recorded runs: %+v", runs)
	}
	ok(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": "cart.e2e.yaml", "steps": []string{"p1"}}, nil)
	ok(t, h.cs, "session_close", map[string]any{"session": open.Session}, nil)
	// A snapshot of a URL, with no session, is no run either.
	ok(t, h.cs, "snapshot", map[string]any{"url": "/product"}, nil)
	if runs := runsNow(t, h); len(runs) != 0 {
		t.Errorf("a closed session recorded runs: %+v", runs)
	}
	if sums, err := h.db.RunSummaries(context.Background(), 0); err != nil || len(sums) != 0 {
		t.Errorf("e2e runs lists: %+v (%v)", sums, err)
	}

	var rep report.JSON
	ok(t, h.cs, "run_tests", map[string]any{"paths": []string{"cart.e2e.yaml"}}, &rep)
	// The session's test has one run in its history: the run of its file.
	hs, err := h.db.TestHistories(context.Background(), session.HistoryQuery{Project: rep.Run.Project, Tests: []string{"cart"}})
	if err != nil || len(hs) != 1 || len(hs[0].Runs) != 1 || hs[0].Runs[0].RunID != rep.Run.ID || hs[0].Runs[0].Outcome != session.OutcomePassed {
		t.Errorf("the history of cart: %+v (%v)", hs, err)
	}
	ok(t, h.cs, "run_tests", map[string]any{"paths": []string{"broken.e2e.yaml"}}, &rep)
	runs := runsNow(t, h)
	if len(runs) != 2 || runs[1].Status != "passed" || runs[0].Status != "failed" || runs[0].FinishedAt.IsZero() || runs[1].FinishedAt.IsZero() {
		t.Fatalf("the runs of run_tests: %+v", runs)
	}
	for _, r := range runs {
		if tests, err := h.db.Tests(context.Background(), r.ID); err != nil || len(tests) != 1 || len(tests[0].Steps) != 1 {
			t.Errorf("run %d: its tests %+v (%v)", r.ID, tests, err)
		}
	}
}
