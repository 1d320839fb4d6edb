package browser

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/locate"
)

// zooKey is the ground truth of the element behind ref ("" when it has none).
func zooKey(t *testing.T, p *Page, ref string) string {
	t.Helper()
	v, _, err := p.Attribute(ctxT(t), ref, "data-zoo-key")
	if err != nil {
		t.Fatalf("read data-zoo-key of %s: %v", ref, err)
	}
	return v
}

// TestRepeatedItemsOnZoo: in the styles whose list items, table rows and
// cards are role-less elements (divsoup's <div class="tl-item">, a custom
// element host per task), the snapshot gives each entry an "item" line and
// the locator places controls in them by the entry's own text. Near misses
// end in the exact element or in an ambiguity, never in a neighbour; no
// wrapper of all the entries and nothing outside a list is an item.
func TestRepeatedItemsOnZoo(t *testing.T) {
	base := fixtureURL(t)
	type want struct {
		desc string
		key  string // the element it must be; "" for an ambiguity, "-" for no pick
	}
	pages := []struct {
		page string
		// itemKeys: the ground-truth prefixes an item element may carry
		// (the entries of a list, a table's rows, the cards and the
		// sections they repeat in); an item without one is a wrong item
		itemKeys []string
		wants    map[string][]want
	}{
		{"tasks", []string{"tasks:item:"}, map[string][]want{
			"divsoup": {
				{"the oat milk item", "tasks:item:oat milk"},
				{"the oat milk and honey item", "tasks:item:oat milk and honey"},
				{"the milk item", "-"},
				{"the checkbox in the oat milk item", "tasks:toggle:oat milk"},
				{"the checkbox in the oat milk and honey item", "tasks:toggle:oat milk and honey"},
				{"the checkbox in the bread item", "tasks:toggle:bread"},
			},
			"webcomponents": {
				{"the oat milk item", "tasks:item:oat milk"},
				{"the oat milk and honey item", "tasks:item:oat milk and honey"},
				{"the milk item", "-"},
				{"the checkbox in the oat milk item", "tasks:toggle:oat milk"},
				{"the checkbox in the oat milk and honey item", "tasks:toggle:oat milk and honey"},
				{"the Delete button in the oat milk item", "tasks:delete:oat milk"},
				{"the Delete button in the bread item", "tasks:delete:bread"},
				{"the Delete button in the bread entry", "tasks:delete:bread"},
			},
		}},
		{"table", []string{"table:row:"}, map[string][]want{
			"divsoup": {
				{"the ⋯ button in the Bob Stone row", "table:menu:bob stone"},
				{"the button in the Ann Lee row", "table:menu:ann lee"},
			},
		}},
		{"cards", []string{"cards:card:", "cards:section:"}, map[string][]want{
			"divsoup": {
				{"the Delete button in the Pro card", "cards:delete:personal/pro"},
				{"the Delete button in the Starter card", ""},
			},
			"webcomponents": {
				{"the Delete button in the Pro card", "cards:delete:personal/pro"},
				{"the Delete button in the Starter card", ""},
			},
		}},
	}
	for _, pg := range pages {
		for _, style := range []string{"divsoup", "webcomponents"} {
			t.Run(pg.page+"/"+style, func(t *testing.T) {
				p := newPage(t)
				open(t, p, base+"/zoo/"+pg.page+"?style="+style)
				s := snapshotT(t, p)
				outline := s.Text(ax.TextOptions{})
				items := 0
				s.Walk(func(n *ax.Node, anc []*ax.Node) bool {
					if n.Role != "item" {
						return true
					}
					items++
					if n.Name != "" || n.States.Interactive {
						t.Errorf("%s: an item has no name and is never interactive", n.Line())
					}
					k := zooKey(t, p, n.Ref)
					ok := false
					for _, pre := range pg.itemKeys {
						ok = ok || strings.HasPrefix(k, pre)
					}
					if !ok {
						t.Errorf("%s (key %q, text %q) is an item, but no entry of a list", n.Line(), k, rowText(t, p, n.Ref))
					}
					return true
				})
				if _, has := pg.wants[style]; has && items < 3 {
					t.Errorf("%d items, want every entry as one\n%s", items, outline)
				}
				for _, w := range pg.wants[style] {
					r := locate.Locate(s, w.desc)
					if w.key == "-" {
						if r.Target != nil {
							t.Errorf("Locate(%q) = %s (key %q), want no pick", w.desc, r.Target.Node.Line(), zooKey(t, p, r.Target.Node.Ref))
						}
						continue
					}
					if w.key == "" {
						if r.Target != nil {
							t.Errorf("Locate(%q) = %s (key %q), want an ambiguity", w.desc, r.Target.Node.Line(), zooKey(t, p, r.Target.Node.Ref))
						} else if r.Reason != locate.ReasonAmbiguous {
							t.Errorf("Locate(%q): %s (%s), want an ambiguity", w.desc, r.Reason, r.Detail)
						}
						continue
					}
					if r.Target == nil {
						t.Errorf("Locate(%q) found nothing (%s: %s)\n%s", w.desc, r.Reason, r.Detail, outline)
						continue
					}
					if k := zooKey(t, p, r.Target.Node.Ref); k != w.key {
						t.Errorf("Locate(%q) = %s with key %q, want %q\n%s", w.desc, r.Target.Node.Line(), k, w.key, outline)
					}
				}
			})
		}
	}
}

const itemsPage = `<!doctype html><title>items</title>
<div id="wrap" class="list">
  <div id="a" class="entry">apple <button>Buy</button></div>
  <div id="b" class="entry is-done">banana <button>Buy</button></div>
  <div id="c" class="entry"><span class="cell">cherry</span> <span class="cell">red</span> <button>Buy</button></div>
</div>
<div class="p">First paragraph of prose.</div>
<div class="p">Second paragraph of prose.</div>
<div class="tools"><div class="w"><button>Cut</button></div><div class="w"><button>Copy</button></div></div>
<p>words <span class="chip"><button>x</button> one</span> <span class="chip"><button>y</button> two</span></p>
<nav class="bar"><span class="tab" style="display:block"><a href="#1">One</a></span><span class="tab" style="display:block"><a href="#2">Two</a></span></nav>
<div class="grid">
  <div class="row" id="r1"><div class="td">Ann</div><div class="td">ann@example.com</div><div class="td"><button>Edit</button></div></div>
  <div class="row" id="r2"><div class="td">Bob</div><div class="td">bob@example.com</div><div class="td"><button>Edit</button></div></div>
</div>
<div class="pair"><div class="x">left <button>L</button></div><div class="y">right <button>R</button></div></div>
<div class="list"><x-entry id="h1"></x-entry><x-entry id="h2"></x-entry></div>
<script>
  customElements.define('x-entry', class extends HTMLElement {
    connectedCallback() {
      const sr = this.attachShadow({ mode: 'open' });
      sr.innerHTML = '<style>:host{display:block}</style><div class="in">' + this.id + ' host <button>Open</button></div>';
    }
  });
</script>`

// TestRepeatedItemsNearMisses: only entries of a run of same-shaped
// siblings that hold a control and text of their own become items: not
// the wrapper that holds them all, not prose, not wrappers of one control,
// not inline chips, not the cells of a role-less row, not two different
// boxes side by side, and a wrapper that shares its shape with another is
// still no item when it holds items. A would-be item that is dropped leaves
// its controls in place, one level up.
func TestRepeatedItemsNearMisses(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, itemsPage))
	s := snapshotT(t, p)
	var ids []string
	parentOf := map[string]*ax.Node{}
	s.Walk(func(n *ax.Node, anc []*ax.Node) bool {
		if n.Role == "item" {
			id, _, err := p.Attribute(ctxT(t), n.Ref, "id")
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if n.Role == "button" && len(anc) > 0 {
			parentOf[n.Name] = anc[len(anc)-1]
		}
		return true
	})
	if want := []string{"a", "b", "c", "r1", "r2", "h1", "h2"}; strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("items %q, want %q\n%s", ids, want, s.Text(ax.TextOptions{}))
	}
	for _, name := range []string{"Cut", "Copy", "x", "y", "L", "R"} {
		if pn := parentOf[name]; pn != nil && pn.Role == "item" {
			t.Errorf("button %q is in an item", name)
		}
	}
	for _, w := range []struct{ desc, id string }{
		{"the Buy button in the banana item", "b"},
		{"the Buy button in the cherry item", "c"},
		{"the Edit button in the Bob row", "r2"},
		{"the Open button in the h2 host item", "h2"},
	} {
		r := locate.Locate(s, w.desc)
		if r.Target == nil {
			t.Errorf("Locate(%q) found nothing (%s: %s)", w.desc, r.Reason, r.Detail)
			continue
		}
		var id string
		if err := p.Eval(ctxT(t), &id, `(r) => { let e = window.__e2e.resolve(r); for (; e; e = e.parentElement || (e.getRootNode().host) || null) if (e.id) return e.id; return ''; }`, r.Target.Node.Ref); err != nil {
			t.Fatal(err)
		}
		if id != w.id {
			t.Errorf("Locate(%q) = %s in #%s, want #%s", w.desc, r.Target.Node.Line(), id, w.id)
		}
	}
	// no item holds these: nothing to be in
	for _, desc := range []string{"the Cut button in the Copy item", "the L button in the right item", "the y button in the two item"} {
		if r := locate.Locate(s, desc); r.Target != nil {
			t.Errorf("Locate(%q) = %s, want nothing", desc, r.Target.Node.Line())
		}
	}
}

// TestRepeatedItemsUnderCapsAndBoxes: items, kept or dropped, leave a
// snapshot that decodes under every node cap, and with boxes asked for an
// item has its box.
func TestRepeatedItemsUnderCapsAndBoxes(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, itemsPage))
	for n := 1; n <= 40; n++ {
		if _, err := p.Snapshot(ctxT(t), SnapshotOptions{MaxNodes: n}); err != nil {
			t.Fatalf("MaxNodes %d: %v", n, err)
		}
	}
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{Boxes: true})
	if err != nil {
		t.Fatal(err)
	}
	items := 0
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "item" {
			items++
			if n.Box == nil || n.Box.W <= 0 || n.Box.H <= 0 {
				t.Errorf("%s has no box: %+v", n.Line(), n.Box)
			}
		}
		return true
	})
	if items == 0 {
		t.Errorf("no items\n%s", s.Text(ax.TextOptions{}))
	}
}
