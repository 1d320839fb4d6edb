package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHistoryShowsATestNotInARunAsAbsent: a run of one file and a run that
// --grep narrowed did not skip the other tests: their strips show them
// absent (·), not skipped (S), and the absent runs count neither in their
// flakiness nor as runs; the HTML report marks them so too.
func TestHistoryShowsATestNotInARunAsAbsent(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{
		"cart.e2e.yaml":   cartTest,
		"second.e2e.yaml": "name: second product\nurl: /product?id=2\nsteps:\n  - click: the Add to cart button\n",
	})
	htmlDir := filepath.Join(t.TempDir(), "html")
	for _, args := range [][]string{
		{"run", "--config", dir}, // run 1: both
		{"run", "--config", dir, filepath.Join(dir, "cart.e2e.yaml")}, // run 2: the cart file only
		{"run", "--config", dir, "--grep", "^second"},                 // run 3: second product only
		{"run", "--config", dir, "--reporter", "html=" + htmlDir},     // run 4: both
	} {
		if code, out, errOut := e2e(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	history := func(run string) map[string]testJSON {
		t.Helper()
		code, out, errOut := e2e(t, "runs", "show", run, "--config", dir, "--json")
		var shown runShowJSON
		if err := json.Unmarshal([]byte(out), &shown); code != 0 || err != nil {
			t.Fatalf("runs show %s: exit %d %v\n%s\n%s", run, code, err, out, errOut)
		}
		m := map[string]testJSON{}
		for _, tt := range shown.Tests {
			m[tt.Name] = tt
		}
		return m
	}
	if h := history("3")["second product"]; h.History != "P·P" || h.Flakiness != 0 {
		t.Errorf("second product through run 3: %q %v, want P·P (run 2 did not include it)", h.History, h.Flakiness)
	}
	h := history("4")
	if c, s := h["add to cart"], h["second product"]; c.History != "PP·P" || s.History != "P·PP" || c.Flakiness != 0 || s.Flakiness != 0 {
		t.Errorf("through run 4: add to cart %q (%v), second product %q (%v); want PP·P and P·PP", c.History, c.Flakiness, s.History, s.Flakiness)
	}
	page, err := os.ReadFile(filepath.Join(htmlDir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), `<span class="hm a" title="run 2 · not in this run`); n != 1 {
		t.Errorf("the HTML report has %d absent marks of run 2, want 1 (second product's)", n)
	}
	if strings.Contains(string(page), `<span class="hm s" title=`) {
		t.Error("the HTML report marks a test skipped")
	}
	code, out, _ := e2e(t, "runs", "show", "3", "--config", dir)
	if code != 0 || !strings.Contains(out, "P·P") || !strings.Contains(out, "· not in that run") || strings.Contains(out, "PSP") {
		t.Errorf("runs show 3: exit %d\n%s", code, out)
	}
}
