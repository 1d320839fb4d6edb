package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/go-rod/rod/lib/proto"
)

// Guard blocks the loads of documents (pages and frames) whose URL its
// allow function refuses, at the network level: whatever a page links to,
// redirects to or scripts, the request never leaves the browser. A new
// window (a link or form with a target, window.open) on an origin that no
// popup pattern matches is refused in the page before it opens. It is on
// from GuardNavigations until Stop.
type Guard struct {
	p      *Page
	cancel context.CancelFunc
	done   chan struct{}
	// script guards popups in new documents; "" when not added.
	script proto.PageScriptIdentifier

	mu      sync.Mutex
	blocked []string
	seen    int
}

// popupBinding is the function the page script calls with a refused popup.
const popupBinding = "__e2eBlockedPopup"

// GuardNavigations starts blocking document loads that allow refuses, and
// new windows on origins that none of popupOrigins (regular expressions
// over an origin such as https://auth.example.com, in the syntax Go and
// JavaScript share) matches. Requests allow accepts go on untouched.
func (p *Page) GuardNavigations(ctx context.Context, allow func(url string) bool, popupOrigins []string) (*Guard, error) {
	if popupOrigins == nil {
		popupOrigins = []string{} // no window on any web origin
	}
	for _, o := range popupOrigins {
		if _, err := regexp.Compile(o); err != nil {
			return nil, fmt.Errorf("guard navigations: popup origin pattern: %w", err)
		}
	}
	gctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	g := &Guard{p: p, cancel: cancel, done: make(chan struct{})}
	rp := p.rod.Context(gctx)
	wait := rp.EachEvent(func(e *proto.FetchRequestPaused) {
		if allow(e.Request.URL) {
			_ = proto.FetchContinueRequest{RequestID: e.RequestID}.Call(rp)
			return
		}
		g.block(e.Request.URL)
		_ = proto.FetchFailRequest{RequestID: e.RequestID, ErrorReason: proto.NetworkErrorReasonBlockedByClient}.Call(rp)
	}, func(e *proto.RuntimeBindingCalled) {
		if e.Name == popupBinding {
			g.block(e.Payload)
		}
	})
	go func() { defer close(g.done); wait() }()
	cctx, ccancel := context.WithTimeout(ctx, DefaultCallTimeout)
	defer ccancel()
	fail := func(err error) (*Guard, error) {
		_ = g.Stop(ctx)
		return nil, fmt.Errorf("guard navigations: %w", classify(cctx, err))
	}
	crp := p.rod.Context(cctx)
	err := proto.FetchEnable{Patterns: []*proto.FetchRequestPattern{
		{URLPattern: "*", ResourceType: proto.NetworkResourceTypeDocument, RequestStage: proto.FetchRequestStageRequest},
	}}.Call(crp)
	if err != nil {
		return fail(err)
	}
	if err := (proto.RuntimeAddBinding{Name: popupBinding}).Call(crp); err != nil {
		return fail(err)
	}
	patterns, _ := json.Marshal(popupOrigins)
	script, err := proto.PageAddScriptToEvaluateOnNewDocument{Source: "window.__e2e && window.__e2e.guardPopups(" + string(patterns) + ")"}.Call(crp)
	if err != nil {
		return fail(err)
	}
	g.script = script.Identifier
	if err := p.call(cctx, nil, "guardPopups", popupOrigins); err != nil && !isContextDestroyed(err) {
		return fail(err)
	}
	return g, nil
}

func (g *Guard) block(url string) {
	g.mu.Lock()
	g.blocked = append(g.blocked, url)
	g.mu.Unlock()
}

// Blocked returns the URLs blocked since the last call.
func (g *Guard) Blocked() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := append([]string(nil), g.blocked[g.seen:]...)
	g.seen = len(g.blocked)
	return out
}

// Stop lets every load and window through again.
func (g *Guard) Stop(ctx context.Context) error {
	cctx, ccancel := context.WithTimeout(context.WithoutCancel(ctx), DefaultCallTimeout)
	defer ccancel()
	crp := g.p.rod.Context(cctx)
	err := proto.FetchDisable{}.Call(crp)
	if g.script != "" {
		err = errors.Join(err, proto.PageRemoveScriptToEvaluateOnNewDocument{Identifier: g.script}.Call(crp))
	}
	if cerr := g.p.call(cctx, nil, "unguardPopups"); cerr != nil && !isContextDestroyed(cerr) {
		err = errors.Join(err, cerr)
	}
	err = errors.Join(err, proto.RuntimeRemoveBinding{Name: popupBinding}.Call(crp))
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
