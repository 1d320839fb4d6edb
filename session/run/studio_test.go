package run

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/testfile"
)

// scriptedGate answers held proposals with decisions in order; past the
// end it fails as an engineer quitting would. It holds the kinds in holds.
type scriptedGate struct {
	holds     map[session.ProposalKind]bool
	decisions []session.Decision
	asked     []session.Proposal
}

func (g *scriptedGate) Holds(p session.Proposal) bool { return g.holds[p.Kind] }

func (g *scriptedGate) Decide(_ context.Context, p session.Proposal) (session.Decision, error) {
	g.asked = append(g.asked, p)
	if len(g.decisions) == 0 {
		return session.Decision{}, errors.New("the engineer quit")
	}
	d := g.decisions[0]
	g.decisions = g.decisions[1:]
	d.By = "ann"
	return d, nil
}

// eventLog keeps the events of a run.
type eventLog struct {
	mu     sync.Mutex
	events []session.Event
}

func (l *eventLog) add(e session.Event) { l.mu.Lock(); l.events = append(l.events, e); l.mu.Unlock() }

func TestGatedActApproveEditRejectSkip(t *testing.T) {
	e := newEnv(t)
	actor := &scriptedActor{commands: []string{
		`--step-type CLICK --description "the Buy now button"`,
		`--step-type HOVER --description "the Buy now button"`,
		`--step-type CLICK --description "the Wishlist button"`,
		`--step-type CLICK --description "the Add to cart button"`,
	}}
	e.actor = actor
	gate := &scriptedGate{holds: map[session.ProposalKind]bool{session.ProposedByAgent: true}, decisions: []session.Decision{
		{Verdict: session.Reject, Reason: "do not buy, only add to the cart"},
		{Verdict: session.Skip},
		{Verdict: session.Edit, Command: `--step-type CLICK --description "the Add to cart button"`},
		{Verdict: session.ApproveRest},
	}}
	e.gate = gate
	log := &eventLog{}
	e.events = log.add
	rep := e.run("", `name: gated
url: /product
steps:
  - act: put the shoe in the cart
`)
	if !rep.Passed() {
		t.Fatalf("run failed:\n%s", e.out.String())
	}
	if len(gate.asked) != 4 || gate.asked[0].Goal != "put the shoe in the cart" || gate.asked[0].ID != 1 || gate.asked[3].ID != 4 {
		t.Fatalf("asked: %+v", gate.asked)
	}
	o := actor.outcomes
	if o[0].OK || !strings.Contains(o[0].Result, "do not buy, only add to the cart") {
		t.Errorf("reject: %+v", o[0])
	}
	if o[1].OK || !strings.Contains(o[1].Result, "SKIPPED") {
		t.Errorf("skip: %+v", o[1])
	}
	if !o[2].OK || !strings.Contains(o[2].Command, "Add to cart") || !strings.Contains(o[2].Result, "EDITED") || !strings.Contains(o[2].Result, "Wishlist") {
		t.Errorf("edit: %+v", o[2])
	}
	tr, err := e.db.Trajectory(context.Background(), e.key("gated", "put the shoe in the cart", ""))
	if err != nil || tr == nil || len(tr.Steps) != 2 || !strings.Contains(tr.Steps[0], "Add to cart") {
		t.Fatalf("trajectory: %+v %v", tr, err)
	}
	ds, err := e.db.Decisions(context.Background(), rep.Run.ID)
	if err != nil || len(ds) != 4 || ds[0].Decision.Reason != "do not buy, only add to the cart" || ds[2].Decision.Verdict != session.Edit || ds[0].Decision.By != "ann" {
		t.Fatalf("decisions: %+v %v", ds, err)
	}
	var proposed, decided, subs, snaps int
	var post string
	for _, ev := range log.events {
		switch ev := ev.(type) {
		case session.ToolCallProposed:
			proposed++
		case session.ToolCallDecided:
			decided++
		case session.StepFinished:
			if ev.Sub >= 0 {
				subs++
			} else {
				post = ev.Postcondition
			}
		case session.SnapshotUpdated:
			if strings.Contains(ev.Outline, "Add to cart") {
				snaps++
			}
		}
	}
	if proposed != 4 || decided != 4 || subs != 4 || snaps == 0 || post != "the cart shows one item" {
		t.Errorf("events: %d proposed, %d decided, %d act steps, %d snapshots, postcondition %q", proposed, decided, subs, snaps, post)
	}
	// The replay is not held: it runs without asking.
	gate.asked = nil
	if rep := e.run("", `name: gated
url: /product
steps:
  - act: put the shoe in the cart
`); !rep.Passed() || len(gate.asked) != 0 {
		t.Errorf("replay: passed %v, asked %d", rep.Passed(), len(gate.asked))
	}
}

// TestQuittingMidActWritesNoTrajectory: the engineer approves a step and
// quits at the next; the approved decision is kept, no trajectory is.
func TestQuittingMidActWritesNoTrajectory(t *testing.T) {
	e := newEnv(t)
	actor := &scriptedActor{commands: []string{
		`--step-type CLICK --description "the Add to cart button"`,
		`--step-type CLICK --description "the Buy now button"`,
		`--step-type CLICK --description "the Add to cart button"`,
	}}
	e.actor = actor
	e.gate = &scriptedGate{holds: map[session.ProposalKind]bool{session.ProposedByAgent: true}, decisions: []session.Decision{{Verdict: session.Approve}}}
	rep := e.run("", `name: quit
url: /product
steps:
  - act: put the shoe in the cart
  - click: the Add to cart button
`)
	if rep.Passed() || !strings.Contains(rep.Tests[0].Steps[0].Error, "the engineer quit") || rep.Tests[0].Steps[1].Status != session.StatusSkipped {
		t.Fatalf("steps: %+v", rep.Tests[0].Steps)
	}
	if actor.outcomes[2].OK {
		t.Error("a step ran after the engineer quit")
	}
	tr, err := e.db.Trajectory(context.Background(), e.key("quit", "put the shoe in the cart", ""))
	if err != nil || tr != nil {
		t.Errorf("a trajectory was written: %+v %v", tr, err)
	}
	if ds, _ := e.db.Decisions(context.Background(), rep.Run.ID); len(ds) != 1 || ds[0].Decision.Verdict != session.Approve {
		t.Errorf("decisions: %+v", ds)
	}
}

// TestSteppingHoldsTheTestsOwnSteps: a gate that holds plain steps can
// skip, edit and reject them.
func TestSteppingHoldsTheTestsOwnSteps(t *testing.T) {
	e := newEnv(t)
	e.gate = &scriptedGate{holds: map[session.ProposalKind]bool{session.ProposedStep: true}, decisions: []session.Decision{
		{Verdict: session.Skip},
		{Verdict: session.Edit, Command: `--step-type CLICK --description "the Add to cart button"`},
		{Verdict: session.Approve},
		{Verdict: session.Reject, Reason: "enough"},
	}}
	rep := e.run("", `name: stepping
url: /product
steps:
  - click: the Buy now button
  - click: the Wishlist button
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
  - click: the Add to cart button
`)
	s := rep.Tests[0].Steps
	if s[0].Status != session.StatusSkipped || s[1].Status == session.StatusFailed || !strings.Contains(s[1].Command, "Add to cart") || s[2].Status == session.StatusFailed ||
		s[3].Status != session.StatusFailed || !strings.Contains(s[3].Error, "enough") {
		t.Errorf("steps: %+v", s)
	}
}

// TestRerecordIgnoresTheRecordedTrajectory: an act marked for re-recording
// goes to the agent again and its new trajectory replaces the old one.
func TestRerecordIgnoresTheRecordedTrajectory(t *testing.T) {
	e := newEnv(t)
	actor := &scriptedActor{commands: []string{`--step-type CLICK --description "the Add to cart button"`}}
	e.actor = actor
	if rep := e.run("", actTest); !rep.Passed() {
		t.Fatalf("record:\n%s", e.out.String())
	}
	actor.commands = []string{`--step-type CLICK --description "the Add to cart button"`, `--step-type HOVER --description "the Buy now button"`}
	r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Actor: actor, Rerecord: map[int]bool{0: true}})
	if err != nil {
		t.Fatal(err)
	}
	test, err := testfile.Parse("t.e2e.yaml", []byte(actTest))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := r.Run(context.Background(), []*testfile.Test{test})
	if err != nil || !rep.Passed() || actor.calls != 2 {
		t.Fatalf("re-record: %v, %d agent calls, %+v", err, actor.calls, rep)
	}
	tr, err := e.db.Trajectory(context.Background(), e.key("act cart", "put the shoe in the cart", ""))
	if err != nil || tr == nil || len(tr.Steps) != 2 {
		t.Fatalf("the trajectory was not replaced: %+v %v", tr, err)
	}
}

// TestStepFinishedCarriesWhatTheStepWeighed: an ambiguous step's finish
// names its candidates with the rows that tell them apart, and its miss
// reason, line and timing; the skipped step after it carries none of
// them. An act's own ambiguous step carries its candidates too.
func TestStepFinishedCarriesWhatTheStepWeighed(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 500 * time.Millisecond
	log := &eventLog{}
	e.events = log.add
	rep := e.run("", `name: menu
url: /users
steps:
  - click: the Menu button
  - click: the Add user button
`)
	if rep.Passed() {
		t.Fatal("an ambiguous step passed")
	}
	fins := finishes(log)
	if len(fins) != 2 {
		t.Fatalf("%d step finishes: %+v", len(fins), fins)
	}
	amb, skipped := fins[0], fins[1]
	if amb.Line != 4 || amb.Status != session.StatusFailed || !strings.Contains(amb.Error, "matches several elements equally") {
		t.Errorf("the ambiguous step: %+v", amb)
	}
	if len(amb.Candidates) < 2 {
		t.Fatalf("candidates: %+v", amb.Candidates)
	}
	rows := map[string]bool{}
	for _, c := range amb.Candidates {
		if !strings.HasPrefix(c.Element, `button "Menu"`) || !strings.HasPrefix(c.Container, `row "`) || c.Score <= 0 {
			t.Errorf("candidate %+v", c)
		}
		rows[c.Container] = true
	}
	if len(rows) != len(amb.Candidates) {
		t.Errorf("the candidates' rows do not tell them apart: %+v", amb.Candidates)
	}
	if skipped.Status != session.StatusSkipped || skipped.Candidates != nil {
		t.Errorf("the skipped step: %+v", skipped)
	}

	e.actor = &scriptedActor{commands: []string{`--step-type CLICK --description "the Menu button"`}}
	log.events = nil
	e.run("", "name: act menu\nurl: /users\nsteps:\n  - act: open a menu\n")
	var sub *session.StepFinished
	for _, f := range finishes(log) {
		if f.Sub == 0 {
			sub = &f
		}
	}
	if sub == nil || len(sub.Candidates) < 2 || !strings.HasPrefix(sub.Candidates[0].Container, `row "`) {
		t.Errorf("the act's ambiguous step: %+v", sub)
	}
}

func finishes(l *eventLog) []session.StepFinished {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []session.StepFinished
	for _, ev := range l.events {
		if f, ok := ev.(session.StepFinished); ok {
			out = append(out, f)
		}
	}
	return out
}
