package run

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// TestOversizeCacheRowIsAMiss: a cache row with 100,000 selectors (valid
// JSON; an import or a stray writer left it) is never handed to the page:
// the step misses with the reason oversize-row and what is over, the
// element is located again and the row replaced, and the next run hits.
// Before, every replay of the step stalled the renderer.
func TestOversizeCacheRowIsAMiss(t *testing.T) {
	e := newEnv(t)
	src := `name: sign in
url: /login
steps:
  - click: the Sign in button
`
	if rep := e.run("", src); !rep.Passed() {
		t.Fatalf("first run: %+v", rep.Tests)
	}
	sels := make([]session.Selector, 100_000)
	for i := range sels {
		sels[i] = session.Selector{Kind: "css", Value: fmt.Sprintf("main :is(button, a, input)[data-n='%d'] ~ *:not(:has(*))", i)}
	}
	big, err := json.Marshal(sels)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", filepath.Join(e.dbDir, "e2e.db")) // the driver the store registers
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`UPDATE element_cache SET selectors = ?`, string(big)); err != nil {
		t.Fatal(err)
	}
	rep := e.run("", src)
	if !rep.Passed() {
		t.Fatalf("a run failed on an oversize cache row: %s\n%s", rep.Tests[0].Error, e.out.String())
	}
	s := rep.Tests[0].Steps[0]
	want := "oversize-row: 100000 selectors, at most 32"
	if s.Status != session.StatusRelocated || s.Cache != "miss" || s.MissReason != want {
		t.Errorf("step: %s cache %s reason %q, want re-located, a miss, %q", s.Status, s.Cache, s.MissReason, want)
	}
	if !strings.Contains(e.out.String(), want) {
		t.Errorf("the printout does not say why the row missed:\n%s", e.out.String())
	}
	rep = e.run("", src)
	if s := rep.Tests[0].Steps[0]; !rep.Passed() || s.Status != session.StatusHit {
		t.Errorf("the run after: %s %s, want a hit on the replaced row", s.Status, s.Error)
	}
}
