package run

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/locate"
)

// shadowTwinPage is one form, in the light DOM (#light) or with its parts in
// nested open shadow roots and a slot (#shadow), rendered alike.
const shadowTwinPage = `<!doctype html><body><main></main>
<script>
const shadow = location.hash === '#shadow';
function el(tag, attrs, kids) { const e = document.createElement(tag); for (const k in attrs || {}) e.setAttribute(k, attrs[k]); for (const c of kids || []) e.append(c); return e; }
function host(tag, kids, light) { if (!shadow) return el(tag, {}, kids.map((k) => k === 'SLOT' ? (light || []) : k).flat()); const h = el(tag, {}, light || []); h.attachShadow({ mode: 'open' }).append(...kids.map((k) => k === 'SLOT' ? el('slot') : k)); return h; }
const row = (name) => host('div', [el('input', { type: 'checkbox', id: 'c-' + name }), el('label', { for: 'c-' + name }, [name]), el('button', { type: 'button' }, ['Delete'])]);
const form = host('section', [
  el('h2', {}, ['Shipping']),
  el('label', {}, ['Full name ', el('input', { type: 'text' })]),
  el('span', { id: 'em' }, ['Email address']), el('input', { type: 'email', 'aria-labelledby': 'em' }),
  host('div', [el('p', {}, ['Pick items']), el('div', {}, [row('oat milk'), row('bread')])]),
  'SLOT',
  el('div', {}, ['2 tasks remaining']),
], [el('button', { type: 'submit' }, ['Place order'])]);
document.querySelector('main').append(form);
</script>`

func strip(ns []*ax.Node) []*ax.Node {
	out := make([]*ax.Node, 0, len(ns))
	for _, n := range ns {
		c := *n
		c.Ref, c.Box = "", nil
		c.Children = strip(n.Children)
		out = append(out, &c)
	}
	return out
}

// TestShadowRootsSnapshotAndScoreAsLightDOM snapshots one form built in the
// light DOM and in nested open shadow roots: the snapshots agree but for
// refs and boxes, and descriptions resolve to the same node with the same
// score on both.
func TestShadowRootsSnapshotAndScoreAsLightDOM(t *testing.T) {
	browserTest(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, shadowTwinPage)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	snaps := map[string]*ax.Snapshot{}
	for _, which := range []string{"light", "shadow"} {
		p, err := shared.NewPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if _, err := p.Navigate(ctx, srv.URL+"/#"+which); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Settle(ctx, browser.SettleOptions{}); err != nil {
			t.Fatal(err)
		}
		s, err := p.Snapshot(ctx, browser.SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		snaps[which] = s
	}
	l, _ := json.Marshal(strip(snaps["light"].Root))
	s, _ := json.Marshal(strip(snaps["shadow"].Root))
	if string(l) != string(s) {
		t.Errorf("the snapshots differ:\nlight  %s\nshadow %s", l, s)
	}
	for _, d := range []string{"the Full name field", "the Email address field", "the oat milk checkbox", "the Delete button for bread",
		"the Place order button", "the Shipping heading", "the bread checkbox", "the 2 tasks remaining text"} {
		lr, sr := locate.Locate(snaps["light"], d), locate.Locate(snaps["shadow"], d)
		desc := func(r locate.Result) string {
			if r.Target == nil {
				return r.Reason + ": " + r.Detail
			}
			return fmt.Sprintf("%s %q %.4f %v", r.Target.Node.Role, r.Target.Node.Name, r.Target.Score, r.Target.Why)
		}
		t.Logf("%q: light %s", d, desc(lr))
		if desc(lr) != desc(sr) {
			t.Errorf("%q: light %s, shadow %s", d, desc(lr), desc(sr))
		}
	}
}
