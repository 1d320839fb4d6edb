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
		key  string // the element it must be; "" for an ambiguity
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
				{"the checkbox in the oat milk item", "tasks:toggle:oat milk"},
				{"the checkbox in the oat milk and honey item", "tasks:toggle:oat milk and honey"},
				{"the checkbox in the bread item", "tasks:toggle:bread"},
			},
			"webcomponents": {
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
