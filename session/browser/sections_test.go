package browser

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// sectionsPage: two role-less sections, each a title and a grid of cards;
// the second grid holds one card. Beside them a div table whose rows hold
// one cell of each kind, and a run of untitled wrappers of cards.
const sectionsPage = `<!doctype html><main>
<div class="app">
  <div class="sec"><div class="sec-title">Personal</div>
    <div class="grid">
      <div class="card"><div class="t">Starter</div><div>Free</div><button class="del">x</button><button class="more">...</button></div>
      <div class="card"><div class="t">Pro</div><div>$12</div><button class="del">x</button><button class="more">...</button></div>
    </div></div>
  <div class="sec"><div class="sec-title">Team</div>
    <div class="grid">
      <div class="card"><div class="t">Enterprise</div><div>Call</div><button class="del">x</button><button class="more">...</button></div>
    </div></div>
</div>
<div class="tbl">
  <div class="tr"><div class="name">Ann <button class="edit">e</button></div><div class="acts"><button class="a">a</button><button class="b">b</button></div></div>
  <div class="tr"><div class="name">Bob <button class="edit">e</button></div><div class="acts"><button class="a">a</button><button class="b">b</button></div></div>
</div>
<div class="cols">
  <div class="col"><div class="c"><span>One</span><button>a</button></div><div class="c"><span>Two</span><button>b</button></div></div>
  <div class="col"><div class="c"><span>Three</span><button>c</button></div><div class="c"><span>Four</span><button>d</button></div></div>
</div>
</main>`

// TestSnapshotSectionsAndLoneCards: a run of role-less wrappers that each
// hold a title and items is a run of "section" lines; the one card left in
// a grid is an item like the cards of the other grid; a row's one-of-a-kind
// cells stay no items, and wrappers of items with no title no sections.
func TestSnapshotSectionsAndLoneCards(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, sectionsPage))
	s := snap(t, p, SnapshotOptions{})
	var got []string
	s.Walk(func(n *ax.Node, anc []*ax.Node) bool {
		if n.Role == "item" || n.Role == "section" {
			got = append(got, strings.Repeat(" ", len(anc))+n.Role+": "+sectionText(n))
		}
		return true
	})
	want := []string{
		" section: Personal", "  item: Starter", "  item: Pro",
		" section: Team", "  item: Enterprise",
		" item: Ann", " item: Bob",
		" item: One", " item: Two", " item: Three", " item: Four",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items and sections:\n%s\nwant:\n%s\nsnapshot:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), s.Text(ax.TextOptions{}))
	}
}

// sectionText is the first text run under n.
func sectionText(n *ax.Node) string {
	for _, c := range n.Children {
		if c.Role == "text" {
			return c.Text
		}
		if t := sectionText(c); t != "" {
			return t
		}
	}
	return ""
}
