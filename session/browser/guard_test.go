package browser

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/fixture"
)

// TestGuardBlocksOtherOrigins: with the guard on, a link to another origin
// (the same fixture under its other loopback name) is blocked before the
// request leaves the browser, the tab stays on the page, and same-origin
// navigations go on. After Stop the link works again.
func TestGuardBlocksOtherOrigins(t *testing.T) {
	p := newPage(t)
	base := fixtureURL(t) // http://127.0.0.1:port
	open(t, p, base+"/inject")
	ctx := ctxT(t)
	g, err := p.GuardNavigations(ctx, func(u string) bool { return strings.HasPrefix(u, base+"/") || u == base }, []string{"^" + regexp.QuoteMeta(base) + "$"})
	must(t, err)
	must(t, p.Click(ctx, ref(t, p, "link", "Claim your prize"), ActOptions{}))
	settle(t, p)
	blocked := g.Blocked()
	if len(blocked) != 1 || !strings.HasPrefix(blocked[0], "http://localhost:") || !strings.HasSuffix(blocked[0], "/prize") {
		t.Fatalf("blocked %q", blocked)
	}
	must(t, p.LeaveErrorPage(ctx))
	settle(t, p)
	if u, err := p.URL(ctx); err != nil || u != base+"/inject" {
		t.Fatalf("after the blocked click the tab is on %q (%v)", u, err)
	}
	if !has(t, p, "button", "Helpful") {
		t.Fatal("the page is gone")
	}
	// Same-origin navigations are not touched.
	open(t, p, base+"/login")
	if g.Blocked() != nil {
		t.Error("a same-origin load was blocked")
	}
	must(t, g.Stop(ctx))
	open(t, p, base+"/inject")
	must(t, p.Click(ctx, ref(t, p, "link", "Claim your prize"), ActOptions{}))
	settle(t, p)
	if u, _ := p.URL(ctx); !strings.HasPrefix(u, "http://localhost:") {
		t.Errorf("after Stop the link still does not open: %q", u)
	}
}

// pagesIn counts the page targets (tabs and windows) of p's browser context.
func pagesIn(t *testing.T, p *Page) int {
	t.Helper()
	n := 0
	for _, ti := range targetsOf(t, p.browser) {
		if ti.Type == "page" && ti.BrowserContextID == string(p.incognito.BrowserContextID) {
			n++
		}
	}
	return n
}

// TestGuardRefusesPopupsOffSite: with the guard on, neither a target=_blank
// link nor window.open opens another origin: no window appears, no request
// reaches that origin, and both are reported. The guard holds in the next
// document too, lets a same-origin window open, and is gone after Stop.
func TestGuardRefusesPopupsOffSite(t *testing.T) {
	var mu sync.Mutex
	var offSite []string // requests that reached the other origin
	app := fixture.Handler(fixture.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.Host, "localhost") {
			mu.Lock()
			offSite = append(offSite, r.URL.Path)
			mu.Unlock()
		}
		app.ServeHTTP(w, r)
	}))
	defer srv.Close()
	base := srv.URL // http://127.0.0.1:port; the other origin is localhost:port
	p := newPage(t)
	open(t, p, base+"/inject")
	ctx := ctxT(t)
	g, err := p.GuardNavigations(ctx, func(u string) bool { return strings.HasPrefix(u, base+"/") }, []string{"^" + regexp.QuoteMeta(base) + "$"})
	must(t, err)
	wantBlocked := func(what string) {
		t.Helper()
		time.Sleep(300 * time.Millisecond) // a window would have opened by now
		blocked := g.Blocked()
		if len(blocked) != 1 || !strings.HasPrefix(blocked[0], "http://localhost:") || !strings.HasSuffix(blocked[0], "/prize") {
			t.Errorf("%s: blocked %q", what, blocked)
		}
		if n := pagesIn(t, p); n != 1 {
			t.Errorf("%s: %d windows in the browser context, want 1", what, n)
		}
	}
	must(t, p.Click(ctx, ref(t, p, "link", "Open the partner site in a new tab"), ActOptions{}))
	wantBlocked("target=_blank link")
	must(t, p.Click(ctx, ref(t, p, "button", "Open the partner window"), ActOptions{}))
	wantBlocked("window.open")
	// The next document is guarded from its first script on.
	open(t, p, base+"/inject?again=1")
	must(t, p.Click(ctx, ref(t, p, "link", "Open the partner site in a new tab"), ActOptions{}))
	wantBlocked("target=_blank link in the next document")
	if u, _ := p.URL(ctx); u != base+"/inject?again=1" {
		t.Errorf("the tab moved to %s", u)
	}
	// A window on an allowed origin opens.
	must(t, p.Eval(ctx, nil, `(u) => { window.open(u, 'same'); }`, base+"/login"))
	deadline := time.Now().Add(5 * time.Second)
	for pagesIn(t, p) != 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := pagesIn(t, p); n != 2 || g.Blocked() != nil {
		t.Errorf("a same-origin window: %d windows, blocked %q", n, g.Blocked())
	}
	mu.Lock()
	if len(offSite) != 0 {
		t.Errorf("requests reached the other origin while guarded: %q", offSite)
	}
	mu.Unlock()
	// After Stop the page opens windows again.
	must(t, g.Stop(context.Background()))
	must(t, p.Click(ctx, ref(t, p, "link", "Open the partner site in a new tab"), ActOptions{}))
	deadline = time.Now().Add(5 * time.Second)
	for pagesIn(t, p) != 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := pagesIn(t, p); n != 3 {
		t.Errorf("after Stop the link opened no window: %d windows", n)
	}
}

// TestGuardWithNoPopupOrigins: with no origin allowed, every new window on
// a web origin is refused, and the guard still starts and stops.
func TestGuardWithNoPopupOrigins(t *testing.T) {
	p := newPage(t)
	base := fixtureURL(t)
	open(t, p, base+"/inject")
	ctx := ctxT(t)
	g, err := p.GuardNavigations(ctx, func(string) bool { return true }, nil)
	must(t, err)
	must(t, p.Eval(ctx, nil, `(u) => { window.open(u); }`, base+"/login"))
	var b []string
	for deadline := time.Now().Add(2 * time.Second); len(b) == 0 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b = g.Blocked() // the page reports it through an event
	}
	if len(b) != 1 || b[0] != base+"/login" {
		t.Errorf("blocked %q", b)
	}
	must(t, g.Stop(ctx))
}
