package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/proto"
)

// Guard blocks the loads of documents (pages and frames) whose URL its
// allow function refuses, at the network level: whatever a page links to,
// redirects to or scripts, the request never leaves the browser. It is on
// from GuardNavigations until Stop.
type Guard struct {
	p      *Page
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	blocked []string
	seen    int
}

// GuardNavigations starts blocking document loads that allow refuses.
// Requests allow accepts go on untouched.
func (p *Page) GuardNavigations(ctx context.Context, allow func(url string) bool) (*Guard, error) {
	gctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	g := &Guard{p: p, cancel: cancel, done: make(chan struct{})}
	rp := p.rod.Context(gctx)
	wait := rp.EachEvent(func(e *proto.FetchRequestPaused) {
		if allow(e.Request.URL) {
			_ = proto.FetchContinueRequest{RequestID: e.RequestID}.Call(rp)
			return
		}
		g.mu.Lock()
		g.blocked = append(g.blocked, e.Request.URL)
		g.mu.Unlock()
		_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonBlockedByClient}.Call(rp)
	})
	go func() { defer close(g.done); wait() }()
	cctx, ccancel := context.WithTimeout(ctx, DefaultCallTimeout)
	defer ccancel()
	err := proto.FetchEnable{Patterns: []*proto.FetchRequestPattern{
		{URLPattern: "*", ResourceType: proto.NetworkResourceTypeDocument, RequestStage: proto.FetchRequestStageRequest},
	}}.Call(p.rod.Context(cctx))
	if err != nil {
		cancel()
		<-g.done
		return nil, fmt.Errorf("guard navigations: %w", classify(cctx, err))
	}
	return g, nil
}

// Blocked returns the URLs blocked since the last call.
func (g *Guard) Blocked() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := append([]string(nil), g.blocked[g.seen:]...)
	g.seen = len(g.blocked)
	return out
}

// Stop lets every load through again.
func (g *Guard) Stop(ctx context.Context) error {
	cctx, ccancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultCallTimeout)
	defer ccancel()
	err := proto.FetchDisable{}.Call(g.p.rod.Context(cctx))
	g.cancel()
	<-g.done
	if err != nil {
		return fmt.Errorf("stop guarding navigations: %w", classify(cctx, err))
	}
	return nil
}

// LeaveErrorPage goes back when a blocked navigation left the tab on
// Chromium's error page, so the page is the one the blocked link was on.
func (p *Page) LeaveErrorPage(ctx context.Context) error {
	u, err := p.URL(ctx)
	if err != nil || !strings.HasPrefix(u, "chrome-error:") {
		return err
	}
	rp, cancel := p.with(ctx)
	defer cancel()
	h, err := proto.PageGetNavigationHistory{}.Call(rp)
	if err != nil {
		return classify(ctx, err)
	}
	i := h.CurrentIndex
	if i <= 0 || i >= len(h.Entries) {
		return nil
	}
	if err := (proto.PageNavigateToHistoryEntry{EntryID: h.Entries[i-1].ID}).Call(rp); err != nil {
		return classify(ctx, err)
	}
	return nil
}
