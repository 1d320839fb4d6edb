package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TestAuthoringMissOnASettledPage: while a step is being written (a test
// recorded as it is typed, or a step edited at the gate) a description that
// matches nothing on a page that has settled fails at once, saying so; in
// a run the same step keeps looking until the step timeout (the element
// may be on its way), and never says it.
func TestAuthoringMissOnASettledPage(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 2 * time.Second
	const settled = `no element matches "the Launch rocket button" on the settled page`

	// A run: the step timeout stays.
	rep := e.run("", "name: run\nurl: /product\nsteps:\n  - click: the Launch rocket button\n")
	if s := rep.Tests[0].Steps[0]; s.Status != session.StatusFailed || !strings.Contains(s.Error, `no element matches "the Launch rocket button"`) ||
		strings.Contains(s.Error, "settled") {
		t.Errorf("a run's miss: %+v", s)
	}

	// The studio's edit: the edited step is being written.
	e.gate = &scriptedGate{holds: map[session.ProposalKind]bool{session.ProposedStep: true}, decisions: []session.Decision{
		{Verdict: session.Edit, Command: `--step-type CLICK --description "the Launch rocket button"`},
	}}
	rep = e.run("", "name: edited\nurl: /product\nsteps:\n  - click: the Add to cart button\n")
	if s := rep.Tests[0].Steps[0]; s.Status != session.StatusFailed || !strings.Contains(s.Error, settled) {
		t.Errorf("an edited step's miss: %+v", s)
	}
	e.gate = nil

	// studio --new and MCP previews: a test recorded as it is typed.
	r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Out: &e.out})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l, err := r.Record(ctx, "new", "new.e2e.yaml", "/product")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close(ctx)
	tt, err := testfile.Parse("typed", []byte("name: typed\nsteps:\n  - click: the Launch rocket button\n  - click: the Add to cart button\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s := l.Step(ctx, tt.Steps[0]); s.Status != session.StatusFailed || !strings.Contains(s.Error, settled) {
		t.Errorf("a typed step's miss: %+v", s)
	}
	if s := l.Step(ctx, tt.Steps[1]); s.Status == session.StatusFailed {
		t.Errorf("a typed step that matches: %+v", s)
	}
}
