package store

import (
	"context"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// TestRunRecordsItsApp: a run records its base URL and variant, and test
// history carries them, so that a failure against one app followed by a
// pass against another is not counted as flaky.
func TestRunRecordsItsApp(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i, c := range []struct{ base, variant, status string }{
		{"http://127.0.0.1:39509", "", "failed"},
		{"http://127.0.0.1:8080", "redesign", "passed"},
	} {
		r := &session.Run{Project: "shop", StartedAt: t0.Add(time.Duration(i) * time.Hour), Status: "running", Commit: "c1",
			BaseURL: c.base, Variant: c.variant}
		if err := db.StartRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: "checkout", Status: session.TestStatus(c.status), Attempts: 1}); err != nil {
			t.Fatal(err)
		}
		r.Status, r.FinishedAt = c.status, r.StartedAt.Add(time.Minute)
		if err := db.FinishRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	hs, err := db.TestHistories(ctx, session.HistoryQuery{Project: "shop", Tests: []string{"checkout"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 1 || len(hs[0].Runs) != 2 {
		t.Fatalf("history %+v", hs)
	}
	runs := hs[0].Runs
	if runs[0].BaseURL != "http://127.0.0.1:39509" || runs[0].Variant != "" || runs[1].BaseURL != "http://127.0.0.1:8080" || runs[1].Variant != "redesign" {
		t.Errorf("runs %+v", runs)
	}
	if flaky, ran := hs[0].Flakiness(); flaky != 0 || ran != 2 {
		t.Errorf("flakiness %d of %d, want 0 of 2", flaky, ran)
	}
}
