package locate

import (
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// Ordinals over containers ("in the second item") count only containers of
// the role named, one list at a time: never a nav link, a heading link or a
// tab that comes first, never an item of another list.

func item(name string, extra ...*ax.Node) *ax.Node {
	return el("listitem", "", kids(append([]*ax.Node{el("checkbox", name), el("link", "Open "+name)}, extra...)...))
}

// todoPage has a banner (a nav list of links), a heading with a link, a tab
// list, then one list of todo items.
func todoPage() *ax.Snapshot {
	return snap(banner(), el("main", "", kids(
		el("heading", "Todos", level(1), kids(el("link", "Todos"))),
		el("tablist", "", kids(el("tab", "All"), el("tab", "Open"))),
		el("list", "Todo", kids(item("Milk"), item("Eggs"), item("Bread"))),
	)))
}

func TestOrdinalContainerCountsItsRole(t *testing.T) {
	expect(t, todoPage(), "todo", []want{
		{desc: "the checkbox in the first item", target: `checkbox "Milk"`},
		{desc: "the checkbox in the second item", target: `checkbox "Eggs"`},
		{desc: "the checkbox in the last item", target: `checkbox "Bread"`},
		{desc: "the Open Eggs link in the second item", target: `link "Open Eggs"`},
		// The nav list's first item holds a link too: two lists, no pick.
		{desc: "the link in the first item", reason: ReasonAmbiguous},
	})
}

func TestOrdinalContainerTwoLists(t *testing.T) {
	s := snap(el("main", "", kids(
		el("list", "Groceries", kids(item("Milk"), item("Eggs"))),
		el("list", "Chores", kids(item("Dishes"), item("Laundry"))),
	)))
	expect(t, s, "two lists", []want{
		{desc: "the checkbox in the first item", reason: ReasonAmbiguous},
		{desc: "the checkbox in the second item", reason: ReasonAmbiguous},
		// A container name still picks the list's item by its own name.
		{desc: "the checkbox in the Laundry item", target: `checkbox "Laundry"`},
	})
}

func TestOrdinalContainerNestedLists(t *testing.T) {
	// Document order: Fruit, Apple, Pear, Bread. The second listitem in
	// document order is Apple, a sub-item; "the second item" must not pick it.
	s := snap(el("list", "", kids(
		item("Fruit", el("list", "", kids(item("Apple"), item("Pear")))),
		item("Bread"),
	)))
	r := Locate(s, "the checkbox in the second item")
	if r.Target != nil && r.Target.Node.Name == "Apple" {
		t.Fatalf("Locate picked the sub-item Apple")
	}
	if r.Target != nil || r.Reason != ReasonAmbiguous {
		t.Errorf("Locate = %s %q, want ambiguous (Bread or Pear)", label(r.Target), r.Reason)
	}
	// In a list without nested items the count is plain.
	expect(t, snap(el("list", "", kids(item("Fruit"), item("Bread")))), "flat", []want{
		{desc: "the checkbox in the second item", target: `checkbox "Bread"`},
	})
}

func TestOrdinalContainerNoItem(t *testing.T) {
	// No list item anywhere: rows, links and buttons are not items.
	row := func(name string) *ax.Node {
		return el("row", name, kids(el("cell", name, kids(el("checkbox", name))), el("cell", "", kids(el("button", "Delete")))))
	}
	s := snap(el("main", "", kids(el("table", "People", kids(row("Alice"), row("Bob"))))))
	expect(t, s, "no item", []want{
		{desc: "the checkbox in the first item", reason: ReasonNoMatch},
		{desc: "the Delete button in the second item", reason: ReasonNoMatch},
		{desc: "the checkbox in the first row", target: `checkbox "Alice" in row "Alice"`},
	})
}

func TestOrdinalContainerCards(t *testing.T) {
	card := func(name string) *ax.Node {
		return el("article", name, kids(el("heading", name, level(2)), el("button", "Delete")))
	}
	s := snap(el("main", "", kids(card("Alpha"), card("Beta"), card("Gamma"),
		el("region", "Help", kids(el("link", "Docs"))))))
	r := Locate(s, "the Delete button in the last card")
	if r.Target == nil || len(r.Target.Ancestors) == 0 || r.Target.Ancestors[len(r.Target.Ancestors)-1].Name != "Gamma" {
		t.Errorf("Locate = %s (%s), want the Delete button in card Gamma", label(r.Target), r.Detail)
	}
}

// The cache's intent check counts as the locator does: a replay must not
// accept an element the locator would not pick.
func TestCheckOrdinalContainerCountsItsRole(t *testing.T) {
	s := todoPage()
	r := located(t, s, "the checkbox in the second item")
	n, anc := nthNode(s, "checkbox", "Eggs", 0)
	wantCheck(t, "second item", s, n, anc, r.Intent, "")
	n, anc = nthNode(s, "checkbox", "Milk", 0)
	wantCheck(t, "first item", s, n, anc, r.Intent, "relation-broken")

	// A page with a one-item nav list before the todo list: the Milk
	// checkbox is the second list item in document order, yet in the first
	// item of its own list.
	s2 := snap(
		el("navigation", "", kids(el("list", "", kids(el("listitem", "", kids(el("link", "Home"))))))),
		el("list", "Todo", kids(item("Milk"), item("Eggs"))),
	)
	n, anc = nthNode(s2, "checkbox", "Milk", 0)
	wantCheck(t, "nav before", s2, n, anc, r.Intent, "relation-broken")
	n, anc = nthNode(s2, "checkbox", "Eggs", 0)
	wantCheck(t, "nav before, second", s2, n, anc, r.Intent, "")
	if l := Locate(s2, "the checkbox in the second item"); l.Target == nil || l.Target.Node != n {
		t.Errorf("Locate on the nav page = %s, want Eggs", label(l.Target))
	}
}

// TestOrdinalContainerFixture runs on a real snapshot of the fixture app: the
// banner's Trailhead link comes before the nav list and is not an item.
func TestOrdinalContainerFixture(t *testing.T) {
	expect(t, load(t, "users"), "users", []want{
		{desc: "the link in the first item", target: `link "Home"`},
		{desc: "the link in the second item", target: `link "Sign in"`},
		{desc: "the Menu button in the first item", reason: ReasonNoMatch}, // rows are not items
		{desc: "the Menu button in the second row", target: `button "Menu" in row "Bob Editor Menu"`},
	})
}

// TestCheckOrdinalContainerHandWritten checks an intent as a cache entry
// holds it, with no locator run first: counted over the whole page, the
// Milk item would be the second list item and pass.
func TestCheckOrdinalContainerHandWritten(t *testing.T) {
	s := snap(
		el("navigation", "", kids(el("list", "", kids(el("listitem", "", kids(el("link", "Home"))))))),
		el("list", "Todo", kids(item("Milk"), item("Eggs"))),
	)
	in := session.Intent{Attributes: map[string]string{"role": "checkbox"},
		Related: []session.Relation{{Relation: "in nth", Role: "listitem", Name: "2"}}}
	n, anc := nthNode(s, "checkbox", "Milk", 0)
	wantCheck(t, "Milk", s, n, anc, in, "relation-broken: in the 1st listitem")
	n, anc = nthNode(s, "checkbox", "Eggs", 0)
	wantCheck(t, "Eggs", s, n, anc, in, "")
	in.Related[0].Name = "-1"
	wantCheck(t, "Eggs last", s, n, anc, in, "")
	n, anc = nthNode(s, "link", "Home", 0)
	in.Related[0].Name = "1"
	in.Attributes["role"] = "link"
	wantCheck(t, "Home is in the first item of its list", s, n, anc, in, "")
}

// TestOrdinalContainerCardsInItems: cards as articles, each in a list item,
// are one set; the list item around each is no set of its own.
func TestOrdinalContainerCardsInItems(t *testing.T) {
	card := func(name string) *ax.Node {
		return el("listitem", "", kids(el("article", name, kids(el("heading", name, level(2)), el("button", "Delete")))))
	}
	s := snap(el("main", "", kids(el("list", "Cards", kids(card("Alpha"), card("Beta"), card("Gamma"))))))
	for desc, wantCard := range map[string]string{
		"the Delete button in the last card":   "Gamma",
		"the Delete button in the first card":  "Alpha",
		"the Delete button in the second card": "Beta",
	} {
		r := Locate(s, desc)
		if r.Target == nil || len(r.Target.Ancestors) == 0 || r.Target.Ancestors[len(r.Target.Ancestors)-1].Name != wantCard {
			t.Errorf("Locate(%q) = %s %s (%s), want the Delete button in card %s", desc, label(r.Target), r.Reason, r.Detail, wantCard)
		}
	}
}
