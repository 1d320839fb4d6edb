package run

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/e2e-dev/e2e/session/browser"
)

// How a test's renderer is watched: a probe every watchEvery, and a
// renderer that misses watchMisses probes of watchWait each in a row is
// hung. Three misses of 4 s (about 13 s without an answer, near Chrome's
// own 15 s hang delay) keep a renderer that is slow on a loaded machine
// (starting one there took up to 4 s) from counting as hung.
var (
	watchEvery  = time.Second
	watchWait   = 4 * time.Second
	watchMisses = 3
)

// errRendererGone is the cause of a test's context when its renderer
// crashed or hung.
var errRendererGone = errors.New("the browser renderer crashed or stopped answering; this test's page is gone (other tests run in their own browser contexts)")

// watchRenderer returns a context that ends, with a cause wrapping
// browser.ErrRendererGone, once the page's renderer crashed or stopped
// answering (a runaway script). Every browser call of the test waits on
// that context, so such a test fails within seconds rather than after
// each call's own timeout. stop ends the watch.
func watchRenderer(ctx context.Context, p *browser.Page) (_ context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		missed := 0
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			err := p.Responsive(ctx, watchWait)
			if !errors.Is(err, browser.ErrRendererGone) {
				missed = 0
				continue
			}
			if missed++; missed >= watchMisses {
				cancel(fmt.Errorf("%w: it did not answer %d checks in a row (%s each)", errRendererGone, missed, watchWait))
				return
			}
		}
	}()
	return ctx, func() { cancel(nil); <-done }
}

// rendererGone is why the test's renderer is gone, or nil while it runs.
func rendererGone(ctx context.Context) error {
	if cause := context.Cause(ctx); errors.Is(cause, errRendererGone) {
		return cause
	}
	return nil
}
