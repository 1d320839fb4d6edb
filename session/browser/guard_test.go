package browser

import (
	"strings"
	"testing"
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
	g, err := p.GuardNavigations(ctx, func(u string) bool { return strings.HasPrefix(u, base+"/") || u == base })
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
