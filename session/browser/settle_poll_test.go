package browser

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSettlePollingPage: a page that fetches every 100 ms and never changes
// its DOM is quiet to look at, so it settles (well before the cap); a page
// whose DOM really never stops changing still hits the cap, and says so.
func TestSettlePollingPage(t *testing.T) {
	base := fixtureURL(t)
	p := newPage(t)
	if _, err := p.Navigate(ctxT(t), base+"/settle/poll"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Settle(ctxT(t), SettleOptions{Quiet: 300 * time.Millisecond, Max: 5 * time.Second}); err != nil {
		t.Fatalf("a page that only polls did not settle: %v", err)
	}
	// It does poll: the page has made requests since it loaded.
	var polls int
	must(t, p.Eval(ctxT(t), &polls, `() => performance.getEntriesByType('resource').filter(e => e.name.includes('/api/slow')).length`))
	if polls < 2 {
		t.Fatalf("the page made %d polls; the test needs a polling page", polls)
	}

	busy := newPage(t)
	if _, err := busy.Navigate(ctxT(t), base+"/settle/never"); err != nil {
		t.Fatal(err)
	}
	_, err := busy.Settle(ctxT(t), SettleOptions{Quiet: 300 * time.Millisecond, Max: time.Second})
	var ns *NotSettledError
	if !errors.As(err, &ns) || !strings.Contains(err.Error(), "DOM kept changing") || ns.Mutations == 0 {
		t.Fatalf("a page whose DOM never stops changing: got %v", err)
	}
}
