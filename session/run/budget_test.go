package run

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/locate"
)

// TestBusyPageStepsKeepTheirTimeout: on a page whose DOM changes every
// 50 ms forever, settling never succeeds; with timeouts.step 2s (and
// settleMax left at 10s) each step still ends well within its 2 s, acting
// on the page as it is, and the test passes. (Before, each settle waited
// the whole settleMax: 20 s a click.)
func TestBusyPageStepsKeepTheirTimeout(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 2 * time.Second
	if e.cfg.Timeouts.SettleMax != 10*time.Second {
		t.Fatalf("settleMax %s: the test wants the default", e.cfg.Timeouts.SettleMax)
	}
	rep := e.run("", `name: busy
url: /settle/never
steps:
  - click: the Ready button
  - expect: { visible: the Ready button }
`)
	res := rep.Tests[0]
	if res.Status != "passed" {
		t.Fatalf("%s: %s\n%s", res.Status, res.Error, e.out.String())
	}
	for _, s := range res.Steps {
		if s.DurationMS > 3*2000 {
			t.Errorf("step %d took %d ms with a 2 s timeout", s.Index+1, s.DurationMS)
		}
	}
	// Opening the page may take the navigation timeout to load, and a
	// step's to settle: not settleMax.
	if res.DurationMS > 3*(2000+2*2000) {
		t.Errorf("the test took %d ms", res.DurationMS)
	}
}

// TestPollingPageSettles: a page that fetches every 100 ms and never
// changes its DOM is quiet enough to act on at once: its steps do not wait
// out a settle.
func TestPollingPageSettles(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 20 * time.Second
	rep := e.run("", `name: poll
url: /settle/poll
steps:
  - click: the Ready button
  - expect: { text: { in: the status, is: Clicked } }
`)
	res := rep.Tests[0]
	if res.Status != "passed" {
		t.Fatalf("%s: %s\n%s", res.Status, res.Error, e.out.String())
	}
	// Each settle would otherwise wait its whole 10 s settleMax.
	for _, s := range res.Steps {
		if s.DurationMS > 5000 {
			t.Errorf("step %d took %d ms: it waited for a polling page to settle", s.Index+1, s.DurationMS)
		}
	}
}

// slowJudge answers only when its context is done, like a model whose
// answer never comes.
type slowJudge struct{ asked int }

func (j *slowJudge) Judge(ctx context.Context, _ *ax.Snapshot, _ string) (bool, string, int, error) {
	j.asked++
	<-ctx.Done()
	return false, "", 1, errors.Join(errors.New("model call"), ctx.Err())
}

// TestStepTimeoutBoundsTheModel: an assert whose model never answers fails
// when its step's time is up, saying so and what it was waiting for; the
// test's other steps are skipped.
func TestStepTimeoutBoundsTheModel(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = time.Second
	j := &slowJudge{}
	e.judge = j
	start := time.Now()
	rep := e.run("", `name: slow model
url: /product
steps:
  - assert: the page shows a shoe
  - click: the Add to cart button
`)
	took := time.Since(start)
	res := rep.Tests[0]
	if res.Status != "failed" || j.asked != 1 || !strings.Contains(res.Error, "step timed out after 1s (while waiting for the model)") {
		t.Fatalf("%s %q, asked %d\n%s", res.Status, res.Error, j.asked, e.out.String())
	}
	if res.Steps[0].DurationMS > 3000 || res.Steps[1].Status != session.StatusSkipped {
		t.Errorf("steps %+v", res.Steps)
	}
	if took > 30*time.Second {
		t.Errorf("the run took %s", took)
	}
}

// TestWaitForAnElementKeepsItsOwnTimeout: a wait for an element that never
// comes ends at the wait's own timeout, not the (longer) timeouts.step.
func TestWaitForAnElementKeepsItsOwnTimeout(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 30 * time.Second
	rep := e.run("", `name: wait
url: /product
steps:
  - wait: { for: the Launch rocket button }
    timeout: 1s
`)
	res := rep.Tests[0]
	if res.Status != "failed" || !strings.Contains(res.Error, `no element matches "the Launch rocket button"`) {
		t.Fatalf("%s %q\n%s", res.Status, res.Error, e.out.String())
	}
	if ms := res.Steps[0].DurationMS; ms > 3*1000 {
		t.Errorf("the wait took %d ms with its 1 s timeout", ms)
	}
}

// TestStepTimeoutSaysWhereTheTimeWent: a timeout names what the step was
// doing and, when its time went on more than that, on what: the phases of
// 5% of the time or more, longest first.
func TestStepTimeoutSaysWhereTheTimeWent(t *testing.T) {
	for _, c := range []struct {
		err  StepTimeoutError
		want string
	}{
		{StepTimeoutError{Limit: 3 * time.Second, Doing: doingSnapshot, Spent: []Phase{{doingSnapshot, 1512 * time.Millisecond}, {doingSettle, 1488 * time.Millisecond}}},
			"step timed out after 3s (while reading the page); it spent 1.51s reading the page, 1.49s settling"},
		{StepTimeoutError{Limit: time.Second, Doing: doingModel, Spent: []Phase{{doingModel, 980 * time.Millisecond}, {doingSettle, 20 * time.Millisecond}}},
			"step timed out after 1s (while waiting for the model)"},
		{StepTimeoutError{Limit: time.Second, Doing: doingSnapshot, Spent: []Phase{{doingSettle, 900 * time.Millisecond}, {doingSnapshot, 30 * time.Millisecond}}},
			"step timed out after 1s (while reading the page); it spent 900ms settling"},
		{StepTimeoutError{Limit: time.Second}, "step timed out after 1s"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
	// The budget's own accounting: what it did, up to its deadline.
	ctx, b, cancel := withBudget(context.Background(), 300*time.Millisecond)
	defer cancel()
	doing(ctx, doingSettle)
	time.Sleep(100 * time.Millisecond)
	doing(ctx, doingSnapshot)
	<-ctx.Done()
	err, ok := b.explain(context.DeadlineExceeded).(*StepTimeoutError)
	if !ok || err.Doing != doingSnapshot || len(err.Spent) != 2 {
		t.Fatalf("%#v", err)
	}
	total := err.Spent[0].Took + err.Spent[1].Took
	if total < 290*time.Millisecond || total > 310*time.Millisecond {
		t.Errorf("phases add up to %s of a 300ms step: %+v", total, err.Spent)
	}
}

// lookThenStall finds what the local locator finds on its first look, and
// on every later look is still reading when the step's time runs out.
type lookThenStall struct{ looks atomic.Int32 }

func (l *lookThenStall) Locate(ctx context.Context, s *ax.Snapshot, d string) (locate.Result, error) {
	if l.looks.Add(1) == 1 {
		return locate.Local{}.Locate(ctx, s, d)
	}
	<-ctx.Done()
	return locate.Result{}, ctx.Err()
}

// TestStepThatRunsOutWhileLookingFailsForItsLastLook: a step whose time
// runs out while a later look is still being read (a loaded machine) fails
// for what its last finished look found, "no element matches", not with a
// timeout "while reading the page".
func TestStepThatRunsOutWhileLookingFailsForItsLastLook(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 5 * time.Second
	l := &lookThenStall{}
	e.locator = l
	rep := e.run("", "name: missing\nurl: /login\nsteps:\n  - click: the Frobnicate button\n")
	s := steps(rep)[0]
	if l.looks.Load() < 2 {
		t.Fatalf("%d looks, want the stalled second one", l.looks.Load())
	}
	if s.Status != session.StatusFailed || !strings.Contains(s.Error, "no element matches") || strings.Contains(s.Error, "timed out") {
		t.Fatalf("step: %s %q, want it to fail for its first look (no element matches)", s.Status, s.Error)
	}
}

// TestActionsOnAMovingPageAreNotHeldBack: on a page that never goes quiet
// (a clock that ticks forever; after Start, an upload bar moved by a timer
// that arms itself again), each action is done once its target is there
// and can be acted on. settleMax is ten minutes and the step time twenty,
// so a settle that waited for the motion to stop would outlast the run's
// two minutes and fail it: no stall can pass or fail this by its clock
// (issue 29, class 5).
func TestActionsOnAMovingPageAreNotHeldBack(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.SettleMax = 10 * time.Minute
	e.cfg.Timeouts.Step = 20 * time.Minute
	rep := e.run("", `name: moving
url: /zoo/progress?style=library
steps:
  - click: the Start button
  - expect: { text: { in: the result, is: Uploading } }
  - click: the Stop button
  - expect: { text: { in: the result, contains: Stopped at } }
`)
	if res := rep.Tests[0]; res.Status != "passed" {
		t.Fatalf("%s: %s\n%s", res.Status, res.Error, e.out.String())
	}
}
