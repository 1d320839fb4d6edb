package run

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/locate"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// This file is what a watcher (the studio) sees of a run and how it steers
// it: events are published through Options.Events, and proposed steps wait
// at Options.Gate.

// AutoDecider is who decided a step the gate did not hold.
const AutoDecider = "auto"

func (r *Runner) publish(e session.Event) { r.o.Events.Publish(e) }

// showPage publishes the page as it is now, with target as the element the
// current step acts on. It does nothing without a watcher; a snapshot that
// fails is not the step's failure.
func (r *Runner) showPage(ctx context.Context, tr *testRun, target string) {
	if r.o.Events == nil {
		return
	}
	s, err := tr.page.Snapshot(ctx, browser.SnapshotOptions{})
	if err != nil {
		return
	}
	redactSnapshot(s, tr.red)
	r.showSnapshot(s, target)
}

func (r *Runner) showSnapshot(s *ax.Snapshot, target string) {
	if r.o.Events == nil || s == nil {
		return
	}
	r.publish(session.SnapshotUpdated{URL: s.URL, Title: s.Title, Outline: s.Text(ax.TextOptions{}), Target: target})
}

// ask holds p at the gate until it is decided and records the decision.
// Without a gate every step is approved.
func (r *Runner) ask(ctx context.Context, tr *testRun, p session.Proposal) (session.Decision, error) {
	if r.o.Gate == nil || !r.o.Gate.Holds(p) {
		return session.Decision{Verdict: session.Approve, By: AutoDecider}, nil
	}
	tr.proposals++
	p.ID, p.Test = tr.proposals, tr.test.Name
	r.publish(session.ToolCallProposed{Proposal: p})
	d, err := r.o.Gate.Decide(ctx, p)
	if err != nil {
		return d, fmt.Errorf("waiting for a decision: %w", err)
	}
	if d.At.IsZero() {
		d.At = time.Now()
	}
	if d.Verdict == session.Edit {
		if _, perr := step.Parse(d.Command); perr != nil {
			return d, fmt.Errorf("the edited command is not a step command: %w", perr)
		}
	}
	d.Reason = tr.redact(d.Reason)
	r.publish(session.ToolCallDecided{Proposal: p, Decision: d})
	if ds, ok := r.o.Store.(session.DecisionStore); ok {
		rec := &session.DecisionRecord{RunID: tr.runID, Project: r.o.Project, Proposal: p, Decision: d}
		// A decision is kept even when the run is being stopped.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := ds.PutDecision(sctx, rec); err != nil {
			return d, fmt.Errorf("record the decision: %w", err)
		}
	}
	return d, nil
}

// gatedStep asks about one of the test's own steps before it runs. It
// returns the step to run, or a result when the step does not run.
func (r *Runner) gatedStep(ctx context.Context, tr *testRun, i int, st testfile.Step) (testfile.Step, *session.StepResult) {
	tr.edited = false
	if r.o.Gate == nil {
		return st, nil
	}
	d, err := r.ask(ctx, tr, session.Proposal{Kind: session.ProposedStep, Index: i, Command: st.Step.String()})
	sr := &session.StepResult{Index: i, Line: st.Pos.Line, Command: st.Step.String(), Kind: string(st.Type), Cache: "none"}
	switch {
	case err != nil:
		sr.Status, sr.Error = session.StatusFailed, err.Error()
		return st, sr
	case d.Verdict == session.Skip:
		sr.Status, sr.Note = session.StatusSkipped, "skipped by "+d.By
		return st, sr
	case d.Verdict == session.Reject:
		sr.Status, sr.Error = session.StatusFailed, "rejected by "+d.By+": "+d.Reason
		return st, sr
	case d.Verdict == session.Edit:
		edited, _ := step.Parse(d.Command) // ask checked it parses
		st.Step = edited
		tr.edited = true // being written: a miss on a settled page answers at once
	}
	return st, nil
}

// finished publishes the end of a step: test step index, or sub-step sub
// of it (a flow's step under a use step; -1 for the test's own step).
func (r *Runner) finished(tr *testRun, sr *session.StepResult, index, sub int) {
	r.publish(session.StepFinished{Index: index, Sub: sub, Command: sr.Command, Status: sr.Status, Cache: session.CacheStatusOf(*sr),
		Error: sr.Error, Note: sr.Note, Postcondition: tr.post, DurationMS: sr.DurationMS, Reidentified: sr.Reidentified,
		Line: sr.Line, MissReason: sr.MissReason, LLMCalls: sr.LLMCalls, Candidates: tr.takeWeighed()})
}

// weigh keeps, for the watcher, the elements a step that found no single
// element weighed (err is a NotFoundError), secrets redacted; any other
// outcome keeps none. The step's StepFinished takes them (takeWeighed).
func (tr *testRun) weigh(err error) {
	tr.weighed = nil
	nf, ok := errors.AsType[*NotFoundError](err)
	if !ok {
		return
	}
	for _, c := range nf.Candidates {
		if c.Node == nil {
			continue
		}
		sc := session.StepCandidate{Element: tr.redact(c.Node.Line()), Score: c.Score}
		if box := locate.Container(c.Ancestors); box != nil {
			sc.Container = tr.redact(box.Line())
		}
		tr.weighed = append(tr.weighed, sc)
	}
}

// takeWeighed returns what weigh kept and forgets it, so that a later step
// that does not weigh anything never shows them.
func (tr *testRun) takeWeighed() []session.StepCandidate {
	w := tr.weighed
	tr.weighed = nil
	return w
}
