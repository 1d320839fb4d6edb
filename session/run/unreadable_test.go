package run

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// TestUnreadableCacheRowIsAMiss: a cache row of the wrong shape (as a bad
// import left it: selectors that are not a list) is a miss with the reason
// unreadable-row, the element is located again and the row replaced, and
// the next run hits. Before, every run of the test failed reading the row.
func TestUnreadableCacheRowIsAMiss(t *testing.T) {
	e := newEnv(t)
	src := `name: sign in
url: /login
steps:
  - click: the Sign in button
`
	if rep := e.run("", src); !rep.Passed() {
		t.Fatalf("first run: %+v", rep.Tests)
	}
	raw, err := sql.Open("sqlite", filepath.Join(e.dbDir, "e2e.db")) // the driver the store registers
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	res, err := raw.Exec(`UPDATE element_cache SET selectors = '"notalist"'`)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("poisoned %d rows, want 1", n)
	}
	rep := e.run("", src)
	if !rep.Passed() {
		t.Fatalf("a run failed on an unreadable cache row: %s\n%s", rep.Tests[0].Error, e.out.String())
	}
	s := rep.Tests[0].Steps[0]
	if s.Status != session.StatusRelocated || s.Cache != "miss" || s.MissReason != session.MissUnreadableRow {
		t.Errorf("step: %s cache %s reason %q, want re-located, a miss, %q", s.Status, s.Cache, s.MissReason, session.MissUnreadableRow)
	}
	rep = e.run("", src)
	if s := rep.Tests[0].Steps[0]; !rep.Passed() || s.Status != session.StatusHit {
		t.Errorf("the run after: %s %s, want a hit on the replaced row", s.Status, s.Error)
	}
	var sel string
	if err := raw.QueryRowContext(context.Background(), `SELECT selectors FROM element_cache`).Scan(&sel); err != nil || sel == `"notalist"` {
		t.Errorf("the row was not replaced: %q %v", sel, err)
	}
}
