package run

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/step"
)

// A step's timeout bounds everything the step does: one deadline on the
// step's context, which settling, snapshots, locating, actions and the
// model client's requests (with their retries) all share. Settling is best
// effort within it: a settle waits at most timeouts.settleMax and at most
// half the step's time left, so a page whose DOM never stops changing is
// looked at and acted on as it is, and the step fails only when what it
// has to do does not fit in its time. An act is bounded by its own budget
// (model.act.maxTime), each of its steps by a step's timeout.

// StepTimeoutError says a step ran out of its time, and what it was doing
// when it did.
type StepTimeoutError struct {
	Limit time.Duration
	Doing string // "settling", "waiting for the model", …; "" when unknown
	Err   error  // what the step's call returned when its time ran out
	// Spent is where the step's time went, longest first: what a user
	// needs to choose between a longer timeouts.step, a shorter settleMax
	// and a browser that was too busy to answer.
	Spent []Phase
}

// Phase is the time a step spent doing one thing, in all.
type Phase struct {
	Doing string
	Took  time.Duration
}

func (e *StepTimeoutError) Error() string {
	s := "step timed out after " + e.Limit.String()
	if e.Doing != "" {
		s += " (while " + e.Doing + ")"
	}
	var parts []string
	for _, p := range e.Spent {
		if p.Took*20 >= e.Limit { // what took 5% of the time or more
			parts = append(parts, p.Took.Round(10*time.Millisecond).String()+" "+p.Doing)
		}
	}
	if len(parts) > 1 || len(parts) == 1 && !strings.HasSuffix(parts[0], " "+e.Doing) {
		s += "; it spent " + strings.Join(parts, ", ")
	}
	return s
}

func (e *StepTimeoutError) Unwrap() error { return e.Err }

// What a step is doing, for StepTimeoutError.
const (
	doingLoad       = "loading the page"
	doingSettle     = "settling"
	doingSnapshot   = "reading the page"
	doingReidentify = "re-identifying the cached element"
	doingModel      = "waiting for the model"
	doingWait       = "waiting for the element"
	doingAct        = "acting on the element"
	doingCheck      = "checking the expectation"
)

// errStepTimeout is the cause of a step context whose time ran out.
var errStepTimeout = errors.New("step timed out")

// budget is one step's time, shared by everything the step does.
type budget struct {
	limit time.Duration
	ctx   context.Context

	mu    sync.Mutex
	doing string
	since time.Time                // when it began doing it
	spent map[string]time.Duration // time spent on what it did before
}

type budgetKey struct{}

// withBudget returns ctx bounded by limit for one step, and the budget that
// explains a failure when the time ran out. A limit of 0 adds no deadline.
func withBudget(ctx context.Context, limit time.Duration) (context.Context, *budget, context.CancelFunc) {
	if limit <= 0 {
		return ctx, nil, func() {}
	}
	sctx, cancel := context.WithTimeoutCause(ctx, limit, errStepTimeout)
	b := &budget{limit: limit, ctx: sctx, since: time.Now()}
	return context.WithValue(sctx, budgetKey{}, b), b, cancel
}

// doing notes what the step of ctx is doing now. Once its time has run out
// the note stays as it was, so that the error names what ran out of time.
func doing(ctx context.Context, what string) {
	b, _ := ctx.Value(budgetKey{}).(*budget)
	if b == nil || ctx.Err() != nil {
		return
	}
	b.mu.Lock()
	b.note(time.Now())
	b.doing = what
	b.mu.Unlock()
}

// note adds the time since b.since to what b was doing, as of now. b.mu is held.
func (b *budget) note(now time.Time) {
	if b.doing != "" {
		if b.spent == nil {
			b.spent = map[string]time.Duration{}
		}
		b.spent[b.doing] += now.Sub(b.since)
	}
	b.since = now
}

// phases is where b's time went until its deadline, longest first. b.mu is held.
func (b *budget) phases() []Phase {
	end := time.Now()
	if dl, ok := b.ctx.Deadline(); ok && dl.Before(end) {
		end = dl
	}
	b.note(end)
	var ps []Phase
	for what, d := range b.spent {
		ps = append(ps, Phase{Doing: what, Took: d})
	}
	slices.SortFunc(ps, func(a, b Phase) int {
		if c := cmp.Compare(b.Took, a.Took); c != 0 {
			return c
		}
		return strings.Compare(a.Doing, b.Doing)
	})
	return ps
}

// explain returns err, or a *StepTimeoutError wrapping it when the step's
// time ran out and err is the bare timeout that caused (an element not
// found, an action that waited for its element, and other failures that
// say more are kept as they are).
func (b *budget) explain(err error) error {
	if b == nil || err == nil || !errors.Is(context.Cause(b.ctx), errStepTimeout) {
		return err
	}
	if _, ok := errors.AsType[*NotFoundError](err); ok {
		return err
	}
	if _, ok := errors.AsType[*browser.ActionError](err); ok {
		return err
	}
	if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, browser.ErrTimeout) {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return &StepTimeoutError{Limit: b.limit, Doing: b.doing, Err: err, Spent: b.phases()}
}

// budgetFor is the time a step may take: its own timeout, else
// timeouts.step; a navigate step without its own timeout (and opening a
// test's URL) may take timeouts.navigation more to load the page. An act
// has no step deadline (its own budget bounds it, and each of its steps
// has a step's), nor has a wait for a fixed time (it is bounded by itself).
func (r *Runner) budgetFor(st step.Step) time.Duration {
	switch {
	case st.Type == step.Act, st.Type == step.Wait && st.Description == "":
		return 0
	case st.Type == step.Navigate && st.Timeout <= 0:
		return r.o.Config.Timeouts.Navigation + r.o.Config.Timeouts.Step
	}
	return r.timeout(st)
}

// runHandler runs h for one step within the step's time (see budgetFor).
func (r *Runner) runHandler(ctx context.Context, h handler, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	if st.Type != step.Navigate {
		// A page that sent itself elsewhere (a redirect, a link, a
		// script) since the last step stops the test there: nothing is
		// typed, clicked or sent to a model on it.
		if err := r.pageOffOrigin(tr); err != nil {
			tr.weigh(err)
			return err
		}
	}
	sctx, b, cancel := withBudget(ctx, r.budgetFor(st))
	defer cancel()
	err := b.explain(h(r, sctx, tr, raw, st, sr))
	tr.weigh(err)
	return err
}

// settleWithin is how long a settle in ctx may wait: max, and at most half
// the time left before ctx's deadline.
func settleWithin(ctx context.Context, max time.Duration) time.Duration {
	if dl, ok := ctx.Deadline(); ok {
		return min(max, time.Until(dl)/2)
	}
	return max
}

// stepDeadline is when a wait of d started now must end in ctx: d from now,
// or ctx's deadline when that comes first.
func stepDeadline(ctx context.Context, d time.Duration) time.Time {
	t := time.Now().Add(d)
	if dl, ok := ctx.Deadline(); ok && dl.Before(t) {
		return dl
	}
	return t
}
