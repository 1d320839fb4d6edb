package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/store"
)

// TestDemoActExamples checks the demo's act section, with the bundled
// scripted model (no model is configured in tests: TestMain clears the
// model's variables): every act example records, then replays with zero
// model calls, heals under popup and redesign, and the healed trajectories
// replay with zero calls again. It reads the output of the demo TestMain
// started (plainDemo), and the heals the kept demo stored (keptDemo).
func TestDemoActExamples(t *testing.T) {
	t.Parallel()
	code, got, errOut := plainDemo.wait(t)
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, got, errOut)
	}
	if !strings.Contains(got, "scripted model bundled with the") || strings.Contains(got, "failed act tests") {
		t.Fatalf("demo output:\n%s", got)
	}
	// run, passed, acts, replayed, healed, model calls
	row := func(name string) []string {
		m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(name) + `\s+(\d+)/3\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)`).FindStringSubmatch(got)
		if m == nil {
			t.Fatalf("no row %q in:\n%s", name, got)
		}
		return m[1:]
	}
	for name, want := range map[string][]string{
		"cold (records)": {"3", "3", "0", "0"},
		"warm (replays)": {"3", "3", "3", "0"},
		"popup (heals)":  {"3", "3", "0", "3"},
		"popup again":    {"3", "3", "3", "0"},
		"redesign again": {"3", "3", "3", "0"},
		// The archive act replays under the redesign: its renamed row menu
		// ("Actions") and item ("Archive user") are still "the Menu button"
		// and "Archive" to the local locator; the sign-in act heals.
		"redesign (heals)": {"3", "3", "2", "1"},
	} {
		if r := row(name); strings.Join(r[:4], " ") != strings.Join(want, " ") {
			t.Errorf("%s: passed, acts, replayed, healed = %v, want %v", name, r[:4], want)
		}
	}
	for _, name := range []string{"warm (replays)", "popup again", "redesign again"} {
		if calls := row(name)[5]; calls != "0" {
			t.Errorf("%s made %s model calls", name, calls)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^  (popup|redesign) \(heals\)\s+agent `).FindAllString(got, -1)); n != 4 {
		t.Errorf("%d heal rows, want 4:\n%s", n, got)
	}
	// No secret value in what was stored for the model or the heals.
	if code, out, errOut := keptDemo.wait(t); code != 0 {
		t.Fatalf("demo --keep: exit %d\n%s%s", code, out, errOut)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := store.Open(ctx, filepath.Join(keptDir, ".e2e", "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	heals, err := db.Heals(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range heals {
		if strings.Contains(strings.Join(h.NewSteps, " ")+h.PageBefore+h.PageAfter, "correct-horse") {
			t.Errorf("heal %d holds the password", h.ID)
		}
	}
}
