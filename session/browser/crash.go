package browser

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ErrRendererGone says the page's renderer crashed or stopped answering:
// the page cannot be used any more, but the browser and its other browser
// contexts (other tests) are unaffected.
var ErrRendererGone = errors.New("the page's browser renderer crashed or stopped answering")

// Responsive checks that the page's renderer still runs scripts: nil when a
// trivial script answers within d (zero means 2s), else an error wrapping
// ErrRendererGone (and ErrPageClosed). A page whose renderer crashed (Chrome
// in headless mode often reports no crash event, the calls just never come
// back) or that is stuck in an endless script fails this check.
func (p *Page) Responsive(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		d = 2 * time.Second
	}
	cctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	// A bare expression in the main frame's current document: no execution
	// context to look up, so a page between two documents answers too.
	_, err := p.rod.Call(cctx, string(p.rod.SessionID), "Runtime.evaluate", map[string]any{"expression": "1"})
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("%w (%w: a script did not answer within %s: %v)", ErrRendererGone, ErrPageClosed, d, err)
}

// Crash crashes the page's renderer the way typing chrome://crash in the
// address bar does, for tests of how a run survives it. It returns once the
// navigation was sent; the page is unusable afterwards.
func (p *Page) Crash(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err := proto.PageNavigate{URL: "chrome://crash", TransitionType: proto.PageTransitionTypeTyped}.Call(p.rod.Context(cctx))
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("crash the renderer: %w", err)
	}
	return nil
}

// openTarget creates a blank page in the browser context inc and returns it
// attached. Starting the page's renderer process takes from a few hundred
// milliseconds to seconds; rod attaches pages under one lock for the whole
// browser, so the renderer is first started and awaited here, on a session
// of our own, and rod attaches to a page that is already up. Pages opened
// at once (parallel tests) then start their renderers in parallel.
func (b *Browser) openTarget(ctx context.Context, inc *rod.Browser) (*rod.Page, error) {
	root := b.rod.Context(ctx)
	t, err := proto.TargetCreateTarget{URL: "about:blank", BrowserContextID: inc.BrowserContextID}.Call(root)
	if err != nil {
		return nil, err
	}
	if s, err := (proto.TargetAttachToTarget{TargetID: t.TargetID, Flatten: true}).Call(root); err == nil {
		_, _ = root.Call(ctx, string(s.SessionID), "Runtime.evaluate", map[string]any{"expression": "1"})
		_ = proto.TargetDetachFromTarget{SessionID: s.SessionID}.Call(root)
	}
	rp, err := inc.PageFromTarget(t.TargetID)
	if err != nil {
		_, _ = proto.TargetCloseTarget{TargetID: t.TargetID}.Call(root)
		return nil, err
	}
	return rp, nil
}
