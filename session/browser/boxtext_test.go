package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/locate"
)

// itemTextJS is the text of the task item an element sits in, read from
// the DOM (through shadow roots): the text of its nearest ancestor that has
// any, style sheets left out. It is the ground truth of which item a
// checkbox belongs to, found without the snapshot or the locator.
const itemTextJS = `(ref) => {
  const text = (n) => {
    let s = '';
    for (const c of n.childNodes) {
      if (c.nodeType === 3) s += ' ' + c.data;
      else if (c.nodeType === 1 && c.tagName !== 'STYLE') s += ' ' + text(c.shadowRoot || c);
    }
    return s;
  };
  let el = window.__e2e.resolve(ref);
  while (el) {
    const t = text(el).trim().replace(/\s+/g, ' ');
    if (t) return t;
    el = el.parentNode instanceof ShadowRoot ? el.parentNode.host : el.parentElement;
  }
  return '';
}`

// TestZooTasksCheckboxInItem locates "the checkbox in the oat milk item"
// and "… in the oat milk and honey item" on every style of the zoo's task
// list, where the one item's text starts the other's. Where the snapshot
// holds the item (semantic: an unnamed list item with the checkbox named
// after it; library: a list item named by aria-label, an unnamed
// checkbox), the locator must pick the checkbox of that item; where it has
// no item at all (divsoup and webcomponents: generic divs, which the
// snapshot, like Chrome's tree, passes through) it must not pick another.
// The intent it records passes the replay check on that checkbox only.
func TestZooTasksCheckboxInItem(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			intents := map[string]session.Intent{}
			// The checkboxes by the item they are in, from the DOM.
			byItem := map[string]*ax.Node{}
			anc := map[*ax.Node][]*ax.Node{}
			s.Walk(func(n *ax.Node, a []*ax.Node) bool {
				if n.Role == "checkbox" && n.Ref != "" {
					var item string
					if err := p.Eval(ctxT(t), &item, itemTextJS, n.Ref); err != nil {
						t.Fatal(err)
					}
					byItem[item] = n
					anc[n] = append([]*ax.Node(nil), a...)
				}
				return true
			})
			for _, item := range []string{"oat milk", "oat milk and honey"} {
				want := byItem[item]
				if want == nil {
					t.Fatalf("no checkbox in the %q item; checkboxes by item: %v", item, byItem)
				}
				desc := "the checkbox in the " + item + " item"
				r := locate.Locate(s, desc)
				inItem := false
				for _, a := range anc[want] {
					inItem = inItem || a.Role == "listitem"
				}
				switch {
				case r.Target != nil && r.Target.Node != want:
					t.Fatalf("%s: Locate(%q) = %s %q [%s], want [%s] (%s)", style, desc, r.Target.Node.Role, r.Target.Node.Name, r.Target.Node.Ref, want.Ref, strings.Join(r.Target.Why, "; "))
				case r.Target == nil && inItem:
					t.Fatalf("%s: Locate(%q): %s %s, want [%s]", style, desc, r.Reason, r.Detail, want.Ref)
				case r.Target == nil:
					t.Logf("%s: %q: no item in the snapshot to be in (%s)", style, desc, r.Reason)
					continue
				}
				intents[item] = r.Intent
				for other, n := range byItem {
					ok, why := locate.Check(s, n, anc[n], r.Intent)
					if ok != (n == want) {
						t.Errorf("%s: Check(%q intent, checkbox in %q) = %v %q", style, desc, other, ok, why)
					}
				}
			}

			// While "oat milk" is edited in place its item holds a field and
			// no checkbox: "the checkbox in the oat milk item" is none, never
			// the "oat milk and honey" one, and a cached one misses.
			var edited bool
			zooEval(t, p, &edited, `const el = deepAll(zoo, e => [...e.childNodes].some(c => c.nodeType === 3 && c.data.trim() === args[0]))[0];
if (!el) return false;
el.dispatchEvent(new MouseEvent('dblclick', { bubbles: true, composed: true }));
return true;`, "oat milk")
			if !edited {
				t.Fatal("no element shows oat milk")
			}
			if _, err := p.Settle(ctxT(t), SettleOptions{Quiet: 50 * time.Millisecond}); err != nil {
				t.Fatal(err)
			}
			s, err = p.Snapshot(ctxT(t), SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var honey *ax.Node
			var honeyAnc []*ax.Node
			s.Walk(func(n *ax.Node, a []*ax.Node) bool {
				if n.Role == "checkbox" && n.Ref != "" {
					var item string
					if err := p.Eval(ctxT(t), &item, itemTextJS, n.Ref); err != nil {
						t.Fatal(err)
					}
					if item == "oat milk and honey" {
						honey, honeyAnc = n, append([]*ax.Node(nil), a...)
					}
				}
				return true
			})
			if honey == nil {
				t.Fatal("editing: no checkbox in the oat milk and honey item")
			}
			if r := locate.Locate(s, "the checkbox in the oat milk item"); r.Target != nil {
				t.Errorf("%s, editing oat milk: Locate picked %s %q [%s] (%s)", style, r.Target.Node.Role, r.Target.Node.Name, r.Target.Node.Ref, strings.Join(r.Target.Why, "; "))
			}
			if in, ok := intents["oat milk"]; ok {
				if ok, _ := locate.Check(s, honey, honeyAnc, in); ok {
					t.Errorf("%s, editing oat milk: the cached intent passes on the oat milk and honey checkbox", style)
				}
			}
		})
	}
}

// swapItemsJS swaps the texts of the "oat milk" and "oat milk and honey"
// items in the DOM (text and aria-label), as a reorder would: the elements
// stay, what they read changes.
const swapItemsJS = `
const a = 'oat milk', b = 'oat milk and honey';
const own = (t) => deepAll(zoo, e => [...e.childNodes].some(c => c.nodeType === 3 && c.data.trim() === t));
const ta = own(a), tb = own(b);
if (ta.length !== 1 || tb.length !== 1) return false;
const na = [...ta[0].childNodes].find(c => c.nodeType === 3 && c.data.trim() === a);
const nb = [...tb[0].childNodes].find(c => c.nodeType === 3 && c.data.trim() === b);
na.data = b; nb.data = a;
const la = deepAll(zoo, e => e.getAttribute('aria-label') === a), lb = deepAll(zoo, e => e.getAttribute('aria-label') === b);
for (const e of la) e.setAttribute('aria-label', b);
for (const e of lb) e.setAttribute('aria-label', a);
return true;`

// TestZooTasksReplayCheckboxInItem replays a cached "the checkbox in the
// oat milk item" the way the runner does (resolve the selectors, take the
// page when NeedsPage says so, check the intent) after the two items swap
// their texts: the checkbox the selectors find is now in "oat milk and
// honey", and the check must miss.
func TestZooTasksReplayCheckboxInItem(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range []string{"semantic", "library"} {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			const desc = "the checkbox in the oat milk item"
			r := locate.Locate(s, desc)
			if r.Target == nil {
				t.Fatalf("Locate(%q): %s", desc, r.Detail)
			}
			sels, _, err := p.CaptureElement(ctxT(t), r.Target.Node.Ref, nil)
			if err != nil {
				t.Fatal(err)
			}
			var swapped bool
			zooEval(t, p, &swapped, swapItemsJS)
			if !swapped {
				t.Fatal("could not swap the items' texts")
			}
			res, err := p.ResolveCached(ctxT(t), sels)
			if err != nil {
				t.Fatal(err)
			}
			if res.Reason != "" {
				t.Skipf("the selectors no longer resolve (%s): a miss, nothing to check", res.Reason)
			}
			var item string
			if err := p.Eval(ctxT(t), &item, itemTextJS, res.Ref); err != nil {
				t.Fatal(err)
			}
			snap, node := &ax.Snapshot{}, res.Node
			if locate.NeedsPage(res.Ancestors, r.Intent) {
				if snap, err = p.Snapshot(ctxT(t), SnapshotOptions{}); err != nil {
					t.Fatal(err)
				}
				if n := snap.Find(res.Ref); n != nil {
					node = n
				}
			}
			ok, why := locate.Check(snap, node, res.Ancestors, r.Intent)
			t.Logf("%s: found the checkbox in %q; check %v %q", style, item, ok, why)
			if ok != (item == "oat milk") {
				t.Errorf("%s: the selectors found the checkbox in %q; Check = %v %q", style, item, ok, why)
			}
		})
	}
}
