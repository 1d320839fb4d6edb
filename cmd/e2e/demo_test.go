package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/store"
)

// TestDemoActExamples runs the demo's act section with the bundled scripted
// model (no model is configured in tests): every act example records, then
// replays with zero model calls, heals under popup and redesign, and the
// healed trajectories replay with zero calls again. No model is configured
// (TestMain clears the model's variables).
func TestDemoActExamples(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	base, dir := fixtureServer(t), t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	env := func(k string) (string, bool) {
		v, ok := map[string]string{"E2E_USER": "alice@example.com", "E2E_PASSWORD": "correct-horse"}[k]
		return v, ok
	}
	var out bytes.Buffer
	if err := demoAgent(ctx, &out, nil, false, dir, base, b, db, env, nil, nil); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	got := out.String()
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
