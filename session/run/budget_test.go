package run

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
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
