package store

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// DoubledPrefix returns the phrase that starts two colon-separated parts
// of msg in a row ("start run: start run: …"), or "".
func doubledPrefix(msg string) string {
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts); i++ {
		if parts[i] == parts[i-1] {
			return parts[i]
		}
	}
	return ""
}

func TestDoubledPrefix(t *testing.T) {
	for msg, want := range map[string]string{
		"start run: start run: sql: database is closed":    "start run",
		`save test "a": save test "a": run 3: not found`:   `save test "a"`,
		"start run: mark interrupted runs: disk I/O error": "",
	} {
		if got := doubledPrefix(msg); got != want {
			t.Errorf("doubledPrefix(%q) = %q, want %q", msg, got, want)
		}
	}
}

// TestNoDoubledErrorPrefixes calls every method of a store whose
// database is gone (and some with bad input) and checks that no error says
// the same phrase twice in a row.
func TestNoDoubledErrorPrefixes(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	errs := map[string]error{}
	call := func(name string, err error) {
		if err == nil {
			t.Errorf("%s succeeded on a closed store", name)
		}
		errs[name] = err
	}
	if _, err := db.DecideHeal(ctx, 42, true, "me"); err != nil { // before closing: not found
		errs["DecideHeal unknown"] = err
	}
	if err := db.FinishRun(ctx, &session.Run{ID: 42}); err != nil {
		errs["FinishRun unknown"] = err
	}
	if err := db.SaveTest(ctx, &session.TestResult{RunID: 42, Name: "t"}); err != nil {
		errs["SaveTest unknown run"] = err
	}
	db.Close()
	call("StartRun", db.StartRun(ctx, &session.Run{}))
	call("FinishRun", db.FinishRun(ctx, &session.Run{ID: 1}))
	call("SaveTest", db.SaveTest(ctx, &session.TestResult{RunID: 1, Name: "t"}))
	_, err = db.Cache(ctx, "k")
	call("Cache", err)
	call("PutCache", db.PutCache(ctx, sampleEntry("k")))
	call("TouchCache", db.TouchCache(ctx, "k"))
	_, err = db.Trajectory(ctx, "k")
	call("Trajectory", err)
	call("PutTrajectory", db.PutTrajectory(ctx, &session.Trajectory{Key: "k"}))
	call("PutHeal", db.PutHeal(ctx, &session.Heal{Key: "k"}))
	_, err = db.StagedHeal(ctx, "k")
	call("StagedHeal", err)
	_, err = db.Heal(ctx, 1)
	call("Heal", err)
	_, err = db.Heals(ctx, "")
	call("Heals", err)
	_, err = db.DecideHeal(ctx, 1, true, "me")
	call("DecideHeal", err)
	_, err = db.Runs(ctx, 1)
	call("Runs", err)
	_, err = db.Tests(ctx, 1)
	call("Tests", err)
	_, err = db.LatestTestDurations(ctx)
	call("LatestTestDurations", err)
	_, err = db.CacheRows(ctx, CacheFilter{})
	call("CacheRows", err)
	_, err = db.DeleteCache(ctx, "k")
	call("DeleteCache", err)
	_, err = db.PruneCache(ctx, time.Now())
	call("PruneCache", err)
	_, err = db.ExportCache(ctx, &bytes.Buffer{})
	call("ExportCache", err)
	_, err = db.ImportCache(ctx, importFile(t, elementLine))
	call("ImportCache", err)
	_, err = db.CacheStatistics(ctx, 1)
	call("CacheStatistics", err)
	call("Check", db.Check(ctx))
	call("RecordModelCall", db.RecordModelCall(ctx, &session.ModelCall{Purpose: "locate"}))
	_, err = db.ModelCalls(ctx, 1)
	call("ModelCalls", err)
	call("PutDecision", db.PutDecision(ctx, &session.DecisionRecord{}))
	_, err = db.Decisions(ctx, 1)
	call("Decisions", err)
	for name, err := range errs {
		if err == nil {
			continue
		}
		if d := doubledPrefix(err.Error()); d != "" {
			t.Errorf("%s: %q says %q twice", name, err, d)
		}
	}
}
