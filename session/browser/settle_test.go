package browser

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestSettle(t *testing.T) {
	base := fixtureURL(t)
	t.Run("never settles", func(t *testing.T) {
		p := newPage(t)
		if _, err := p.Navigate(ctxT(t), base+"/settle/never"); err != nil {
			t.Fatal(err)
		}
		waited, err := p.Settle(ctxT(t), SettleOptions{Quiet: 300 * time.Millisecond, Max: time.Second})
		var ns *NotSettledError
		if !errors.As(err, &ns) || !strings.Contains(err.Error(), "DOM kept changing") {
			t.Fatalf("got %v", err)
		}
		if waited < time.Second || waited > 3*time.Second {
			t.Errorf("waited %s for a 1s cap", waited)
		}
	})
	t.Run("late mutations and a slow fetch", func(t *testing.T) {
		p := newPage(t)
		if _, err := p.Navigate(ctxT(t), base+"/settle/late"); err != nil {
			t.Fatal(err)
		}
		waited, err := p.Settle(ctxT(t), SettleOptions{Quiet: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if waited < 600*time.Millisecond {
			t.Errorf("settled after %s, before the 1 s of mutations and the 700 ms fetch ended", waited)
		}
		var done bool
		must(t, p.Eval(ctxT(t), &done, `() => document.body.innerText.includes('700')`))
		if !done {
			t.Errorf("the fetched answer is not on the page after settling:\n%s", textOf(t, p))
		}
	})
	t.Run("navigation during the wait", func(t *testing.T) {
		p := newPage(t)
		open(t, p, base+"/login")
		// A click that submits a form: settling follows the navigation.
		must(t, p.Fill(ctxT(t), ref(t, p, "textbox", "Email"), "alice@example.com", ActOptions{}))
		must(t, p.Fill(ctxT(t), ref(t, p, "textbox", "Password"), "correct-horse", ActOptions{}))
		must(t, p.Click(ctxT(t), ref(t, p, "button", "Sign in"), ActOptions{}))
		if _, err := p.Settle(ctxT(t), SettleOptions{Quiet: 50 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		find(t, snap(t, p, SnapshotOptions{}), "heading", "Users")
	})
	t.Run("idle page settles at once", func(t *testing.T) {
		p := newPage(t)
		open(t, p, base+"/login")
		if _, err := p.Settle(ctxT(t), SettleOptions{Quiet: 300 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		// Quiet for 300 ms already: the next settle has nothing to wait for,
		// so it settles within any bound, however short (the page checks
		// before it looks at the clock: no stall can fail this).
		if _, err := p.Settle(ctxT(t), SettleOptions{Quiet: 300 * time.Millisecond, Max: time.Millisecond}); err != nil {
			t.Errorf("an idle page did not settle at once: %v", err)
		}
	})
}

func TestNavigateErrors(t *testing.T) {
	p := newPage(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	_, err = p.Navigate(ctxT(t), closed)
	var ne *NavigationError
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("got %v", err)
	}
	resp, err := p.Navigate(ctxT(t), fixtureURL(t)+"/json")
	if err != nil {
		t.Fatal(err)
	}
	if resp.ContentType != "application/json" || resp.Status != 200 {
		t.Errorf("got %+v", resp)
	}
	resp, err = p.Navigate(ctxT(t), fixtureURL(t)+"/no-such-page")
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 404 || resp.ContentType != "text/html" {
		t.Errorf("got %+v", resp)
	}
}

// TestSettleIgnoresMotion: a page that only moves (a clock's text changing
// in place every 250 ms; once started, a progress bar whose width, value
// and text change every 200 ms from a timer that arms itself again) is
// quiet to settle, in every zoo style: an action on it is not held back
// until the settle gives up (issue 29, class 5). The wait is bounded by a
// minute, far beyond any stall: before, every settle here ran it out.
// /settle/never, whose ticker adds an element each tick, still never
// settles (TestSettle).
func TestSettleIgnoresMotion(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range []string{"semantic", "library", "webcomponents"} {
		t.Run(style, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			p := newPage(t)
			open(t, p, base+"/zoo/progress?style="+style)
			if _, err := p.Settle(ctx, SettleOptions{Quiet: 300 * time.Millisecond, Max: time.Minute}); err != nil {
				t.Fatalf("with the clock ticking: %v", err)
			}
			must(t, p.Click(ctx, ref(t, p, "button", "Start"), ActOptions{}))
			if _, err := p.Settle(ctx, SettleOptions{Quiet: 300 * time.Millisecond, Max: time.Minute}); err != nil {
				t.Fatalf("with the bar moving: %v", err)
			}
			var moving bool
			must(t, p.Eval(ctx, &moving, `() => {
				const dump = (r) => { let s = r.innerHTML; for (const e of r.querySelectorAll('*')) if (e.shadowRoot) s += dump(e.shadowRoot); return s; };
				const a = dump(document.body);
				return new Promise((ok) => setTimeout(() => ok(dump(document.body) !== a), 600));
			}`))
			if !moving {
				t.Fatal("the page stood still: nothing here tests motion")
			}
		})
	}
}
