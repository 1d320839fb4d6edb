package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// Containers without a name are known by their own text: the text a person
// reads in them, the labels of the controls inside left out. "in the oat
// milk item" is the item reading "oat milk"; an item reading "oat milk and
// honey" only when no item reads exactly "oat milk"; two equally good
// containers are an ambiguity.

// todo is one task as the zoo's task list renders it.
type todo struct {
	text  string
	shape string // "semantic", "library", "wc" (checkbox "Complete"), "before" (controls before the text)
}

// todoItem renders one task in a list item with no accessible name (but for
// the library shape, which names it by aria-label), with its controls.
func todoItem(it todo, controls ...string) *ax.Node {
	var ks []*ax.Node
	switch it.shape {
	case "library":
		ks = append(ks, el("checkbox", ""), txt(it.text))
	case "wc":
		ks = append(ks, el("checkbox", "Complete"), txt(it.text))
	case "before":
		for _, c := range controls {
			ks = append(ks, el("button", c))
		}
		controls = nil
		ks = append(ks, el("checkbox", it.text), txt(it.text))
	default:
		ks = append(ks, el("checkbox", it.text), txt(it.text))
	}
	for _, c := range controls {
		ks = append(ks, el("button", c))
	}
	name := ""
	if it.shape == "library" {
		name = it.text
	}
	return el("listitem", name, kids(ks...))
}

func todoList(items []todo, controls ...string) *ax.Snapshot {
	var ns []*ax.Node
	for _, it := range items {
		ns = append(ns, todoItem(it, controls...))
	}
	return snap(el("main", "", kids(
		el("heading", "Tasks", level(1)),
		el("checkbox", "Mark all as complete"),
		el("list", "", kids(ns...)),
		el("paragraph", "", kids(txt("2 tasks remaining"))),
	)))
}

// itemOf is the own text of the list item around the target, or "".
func itemOf(c *Candidate) string {
	if c == nil {
		return ""
	}
	for k := len(c.Ancestors) - 1; k >= 0; k-- {
		a := c.Ancestors[k]
		if a.Role != "listitem" && a.Role != "article" {
			continue
		}
		for _, ch := range a.Children {
			if ch.Role == "text" || ch.Role == "heading" {
				return ch.Text + ch.Name
			}
		}
	}
	return ""
}

type boxWant struct {
	desc   string
	role   string // the target's role
	item   string // the text of the item the target must be in; "" with reason
	reason string // anyReason: no target, for whatever reason
}

const anyReason = "*"

func expectBox(t *testing.T, s *ax.Snapshot, page string, tests []boxWant) {
	t.Helper()
	for _, tt := range tests {
		r := Locate(s, tt.desc)
		if tt.item != "" {
			if r.Target == nil || r.Target.Node.Role != tt.role || itemOf(r.Target) != tt.item {
				t.Errorf("%s: Locate(%q) = %s in item %q, want a %s in item %q (%s: %s; candidates %s)",
					page, tt.desc, label(r.Target), itemOf(r.Target), tt.role, tt.item, r.Reason, r.Detail, labels(r.Candidates))
			}
			continue
		}
		if r.Target != nil || r.Reason != tt.reason && tt.reason != anyReason {
			t.Errorf("%s: Locate(%q) = %s in item %q, want no target, reason %q (%s)", page, tt.desc, label(r.Target), itemOf(r.Target), tt.reason, r.Detail)
		}
	}
}

func TestUnnamedItemByItsText(t *testing.T) {
	const om, omh = "oat milk", "oat milk and honey"
	for _, shape := range []string{"semantic", "library", "wc", "before"} {
		for _, order := range [][]string{{om, omh, "bread"}, {omh, om, "bread"}, {"bread", omh, om}} {
			for _, controls := range [][]string{nil, {"Mark done", "Remove item"}, {"Edit", "Mark done", "Remove item", "Delete"}} {
				var items []todo
				for _, s := range order {
					items = append(items, todo{s, shape})
				}
				page := fmt.Sprintf("%s %q controls %q", shape, order, controls)
				tests := []boxWant{
					{desc: "the checkbox in the oat milk item", role: "checkbox", item: om},
					{desc: "the checkbox in the oat milk and honey item", role: "checkbox", item: omh},
					{desc: "the checkbox in the Oat Milk list item", role: "checkbox", item: om},
					{desc: `the checkbox in the "oat milk" item`, role: "checkbox", item: om},
					{desc: "the checkbox in the bread item", role: "checkbox", item: "bread"},
					{desc: "the checkbox for oat milk", role: "checkbox", item: om},
					{desc: "the checkbox for oat milk and honey", role: "checkbox", item: omh},
					{desc: "the checkbox in the milk item", reason: anyReason},         // in both
					{desc: "the checkbox in the milk oat item", reason: ReasonNoMatch}, // words out of order are no phrase
					{desc: "the checkbox in the oat item", reason: ReasonAmbiguous},    // starts both
					{desc: "the checkbox in the almond milk item", reason: ReasonNoMatch},
				}
				for _, c := range controls {
					tests = append(tests,
						boxWant{desc: "the " + c + " button in the oat milk item", role: "button", item: om},
						boxWant{desc: "the " + c + " button in the oat milk and honey item", role: "button", item: omh},
						boxWant{desc: "the " + c + " button for oat milk", role: "button", item: om},
						boxWant{desc: "click " + c + " in the oat milk item", role: "button", item: om},
						boxWant{desc: "the " + c + " button", reason: ReasonAmbiguous},
					)
				}
				expectBox(t, todoList(items, controls...), page, tests)
			}
		}
	}
}

// TestUnnamedItemExactOnly: the item that reads exactly the phrase is the
// one meant, even when it lacks what the description asks for; an item
// that only starts with the phrase is then no fallback.
func TestUnnamedItemExactOnly(t *testing.T) {
	for _, shape := range []string{"semantic", "wc", "library"} {
		s := snap(el("list", "", kids(
			el("listitem", nameIf(shape, "oat milk"), kids(txt("oat milk"), el("button", "Delete"))),
			todoItem(todo{"oat milk and honey", shape}, "Delete"),
		)))
		expectBox(t, s, shape, []boxWant{
			{desc: "the checkbox in the oat milk item", reason: ReasonNoMatch},
			{desc: "the checkbox for oat milk", reason: ReasonNoMatch},
			{desc: "the Delete button in the oat milk item", role: "button", item: "oat milk"},
			{desc: "the checkbox in the oat milk and honey item", role: "checkbox", item: "oat milk and honey"},
		})
		// With no item reading exactly "oat milk", the one that starts so is it.
		s = snap(el("list", "", kids(
			el("listitem", nameIf(shape, "almond milk"), kids(txt("almond milk"), el("button", "Delete"))),
			todoItem(todo{"oat milk and honey", shape}, "Delete"),
		)))
		expectBox(t, s, shape+", no exact", []boxWant{
			{desc: "the checkbox in the oat milk item", role: "checkbox", item: "oat milk and honey"},
			{desc: "the Delete button in the oat milk item", role: "button", item: "oat milk and honey"},
			{desc: "the Delete button for oat milk", role: "button", item: "oat milk and honey"},
		})
	}
}

func nameIf(shape, name string) string {
	if shape == "library" {
		return name
	}
	return ""
}

// TestUnnamedCardsTie: two cards reading the same are an ambiguity, never a
// coin toss, with or without a third card that only starts so.
func TestUnnamedCardsTie(t *testing.T) {
	card := func(title, price string) *ax.Node {
		return el("article", "", kids(el("heading", title, level(2)), el("paragraph", "", kids(txt(price))), el("button", "Choose"), el("button", "Details")))
	}
	two := snap(el("main", "", kids(card("Pro plan", "$20"), card("Pro plan", "$20"), card("Pro plan plus", "$30"))))
	expectBox(t, two, "two Pro plan cards", []boxWant{
		{desc: "the Choose button in the Pro plan card", reason: ReasonAmbiguous},
		{desc: "the Choose button for Pro plan", reason: ReasonAmbiguous},
		{desc: "the Choose button in the Pro plan plus card", role: "button", item: "Pro plan plus"},
	})
	one := snap(el("main", "", kids(card("Pro plan", "$20"), card("Pro plan plus", "$30"), card("Basic plan", "$5"))))
	expectBox(t, one, "one Pro plan card", []boxWant{
		{desc: "the Choose button in the Pro plan card", role: "button", item: "Pro plan"},
		{desc: "the Details button in the Pro plan plus card", role: "button", item: "Pro plan plus"},
		{desc: "the Choose button in the plan card", reason: anyReason},
	})
}

// TestUnnamedItemCutText: a container whose text the snapshot cut (a cut
// text run, or the locator's own text cap) never reads exactly as a phrase.
func TestUnnamedItemCutText(t *testing.T) {
	// The snapshot cut the run after "oat milk and"; the last word kept may
	// be split, so what surely reads is "oat milk".
	cutRun := func(s string) *ax.Node {
		return &ax.Node{Role: "text", Text: s + " and… 40 more characters", Cut: true}
	}
	item := func(t *ax.Node) *ax.Node {
		return el("listitem", "", kids(el("checkbox", "Complete"), t, el("button", "Delete")))
	}
	// The kept part of the cut one reads "oat milk": it is longer than that.
	s := snap(el("list", "", kids(item(cutRun("oat milk")), item(txt("oat milk")))))
	expectBox(t, s, "cut, exact", []boxWant{
		{desc: "the checkbox in the oat milk item", role: "checkbox", item: "oat milk"},
		{desc: "the Delete button for oat milk", role: "button", item: "oat milk"},
	})
	s = snap(el("list", "", kids(item(cutRun("oat milk")), item(txt("oat milk and honey")))))
	expectBox(t, s, "cut, no exact", []boxWant{
		{desc: "the checkbox in the oat milk item", reason: ReasonAmbiguous},
		{desc: "the checkbox in the oat milk and honey item", role: "checkbox", item: "oat milk and honey"},
	})
	// A text as long as the locator's text cap: what it keeps is not all of it.
	long := strings.TrimSpace(strings.Repeat("word ", textCap/5))
	if len(long) > textCap {
		long = long[:strings.LastIndexByte(long[:textCap], ' ')]
	}
	for len(long) < textCap {
		long += "x"
	}
	s = snap(el("list", "", kids(item(txt(long+" and more")), item(txt(long)))))
	r := Locate(s, `the checkbox in the "`+long+`" item`)
	if r.Target == nil || itemOf(r.Target) != long {
		t.Errorf("capped text: Locate = %s in %q (%s %s), want the item reading exactly the phrase", label(r.Target), short(itemOf(r.Target), 20), r.Reason, r.Detail)
	}
}

// TestCheckUnnamedItem: the replay-time check of a cached "in the oat milk
// item" agrees with the locator: it fails when the item reads something
// else, and on "oat milk and honey" while an item reads "oat milk".
func TestCheckUnnamedItem(t *testing.T) {
	for _, shape := range []string{"semantic", "wc", "library", "before"} {
		items := func(texts ...string) []todo {
			var out []todo
			for _, s := range texts {
				out = append(out, todo{s, shape})
			}
			return out
		}
		base := todoList(items("oat milk", "oat milk and honey", "bread"), "Mark done", "Remove item")
		for _, desc := range []string{"the checkbox in the oat milk item", "the checkbox for oat milk", "the Remove item button in the oat milk item"} {
			r := located(t, base, desc)
			if got := itemOf(r.Target); got != "oat milk" {
				t.Fatalf("%s: Locate(%q) in item %q", shape, desc, got)
			}
			wantCheck(t, shape+": same page", base, r.Target.Node, r.Target.Ancestors, r.Intent, "")
			role := r.Target.Node.Role
			pages := map[string]*ax.Snapshot{
				"renamed":     todoList(items("almond milk", "oat milk and honey", "bread"), "Mark done", "Remove item"),
				"reordered":   todoList(items("oat milk and honey", "bread", "oat milk"), "Mark done", "Remove item"),
				"only longer": todoList(items("oat milk and honey", "bread"), "Mark done", "Remove item"),
				"same":        base,
			}
			for what, p := range pages {
				// Every node of the target's role, checked as the cache would
				// offer it, passes exactly when the locator picks it.
				l := Locate(p, desc)
				p.Walk(func(n *ax.Node, anc []*ax.Node) bool {
					if n.Role != role || n.Ref == "" {
						return true
					}
					// A check may be stricter than the locator where the
					// intent holds the target's own name (a miss costs a
					// locate); it must never pass what the locator would not pick.
					ok, why := Check(p, n, anc, r.Intent)
					picked := l.Target != nil && l.Target.Node == n
					if ok != picked && !(picked && strings.HasPrefix(why, ReasonAttributeChanged+": name")) {
						t.Errorf("%s %s %q: Check(%s in %q) = %v %q, but Locate picked %s (%s)", shape, what, desc, n.Name, itemText(anc), ok, why, label(l.Target), l.Detail)
					}
					return true
				})
			}
		}
	}
}

func itemText(anc []*ax.Node) string {
	for k := len(anc) - 1; k >= 0; k-- {
		if anc[k].Role == "listitem" {
			for _, ch := range anc[k].Children {
				if ch.Role == "text" {
					return ch.Text
				}
			}
		}
	}
	return ""
}

// TestCheckNthNamedContainer: "in the second Alice row" counts the rows
// that read Alice, in the locator and in the check alike.
func TestCheckNthNamedContainer(t *testing.T) {
	row := func(name, role string) *ax.Node {
		return el("row", name+" "+role+" Menu", kids(el("cell", name), el("cell", role), el("cell", "Menu", kids(el("button", "Menu")))))
	}
	table := func(rows ...*ax.Node) *ax.Snapshot {
		hdr := el("row", "Name Role Actions", kids(el("columnheader", "Name"), el("columnheader", "Role"), el("columnheader", "Actions")))
		return snap(el("table", "", kids(append([]*ax.Node{hdr}, rows...)...)))
	}
	base := table(row("Bob", "Editor"), row("Alice", "Admin"), row("Alice", "Viewer"), row("Carol", "Viewer"))
	r := located(t, base, "the Menu button in the second Alice row")
	if got := rowOf(r.Target.Ancestors).Name; got != "Alice Viewer Menu" {
		t.Fatalf("Locate picked the button in row %q", got)
	}
	pages := map[string]*ax.Snapshot{
		"same":         base,
		"alices last":  table(row("Bob", "Editor"), row("Carol", "Viewer"), row("Alice", "Admin"), row("Alice", "Viewer")),
		"one alice":    table(row("Bob", "Editor"), row("Alice", "Viewer"), row("Carol", "Viewer")),
		"alices first": table(row("Alice", "Admin"), row("Alice", "Viewer"), row("Bob", "Editor")),
		"three":        table(row("Alice", "Owner"), row("Bob", "Editor"), row("Alice", "Admin"), row("Alice", "Viewer")),
	}
	for what, p := range pages {
		l := Locate(p, "the Menu button in the second Alice row")
		p.Walk(func(n *ax.Node, anc []*ax.Node) bool {
			if n.Role != "button" {
				return true
			}
			ok, why := Check(p, n, anc, r.Intent)
			picked := l.Target != nil && l.Target.Node == n
			if ok != picked {
				t.Errorf("%s: Check(button in %q) = %v %q, but Locate picked %s (%s)", what, rowOf(anc).Name, ok, why, label(l.Target), l.Detail)
			}
			return true
		})
	}
	// A cached intent written by hand (or by the model) pairs the ordinal
	// with the named container of the same role.
	in := session.Intent{Attributes: map[string]string{"role": "button", "name": "Menu"}, Related: []session.Relation{
		{Relation: "in nth", Role: "row", Name: "2"}, {Relation: "in", Role: "row", Name: "Alice"}}}
	n, anc := findNode(base, "button", "Menu", "Alice Admin")
	wantCheck(t, "second row, first Alice", base, n, anc, in, "relation-broken")
	n, anc = findNode(base, "button", "Menu", "Alice Viewer")
	wantCheck(t, "fourth row, second Alice", base, n, anc, in, "")
}

// TestUnnamedItemBeingEdited: an item edited in place holds only a field
// with its text; it still reads "oat milk", so the "oat milk and honey"
// item's checkbox is not "the checkbox in the oat milk item" meanwhile.
func TestUnnamedItemBeingEdited(t *testing.T) {
	for _, order := range [][]int{{0, 1}, {1, 0}} {
		items := []*ax.Node{
			el("listitem", "", kids(el("textbox", "", value("oat milk")))),
			todoItem(todo{"oat milk and honey", "wc"}, "Delete"),
		}
		s := snap(el("list", "", kids(items[order[0]], items[order[1]])))
		expectBox(t, s, fmt.Sprint("editing ", order), []boxWant{
			{desc: "the checkbox in the oat milk item", reason: ReasonNoMatch},
			{desc: "the Delete button for oat milk", reason: ReasonNoMatch},
			{desc: "the checkbox in the oat milk and honey item", role: "checkbox", item: "oat milk and honey"},
		})
		r := located(t, snap(el("list", "", kids(todoItem(todo{"oat milk", "wc"}, "Delete"), todoItem(todo{"oat milk and honey", "wc"}, "Delete")))), "the checkbox in the oat milk item")
		n, anc := nthNode(s, "checkbox", "Complete", 0)
		wantCheck(t, "editing", s, n, anc, r.Intent, "relation-broken")
	}
}

// TestUnnamedCardsInAGroup: a group around cards is not called by its first
// card's title.
func TestUnnamedCardsInAGroup(t *testing.T) {
	card := func(title string) *ax.Node {
		return el("article", "", kids(el("heading", title, level(3)), el("button", "Choose")))
	}
	s := snap(el("main", "", kids(el("group", "", kids(card("Pro plan"), card("Basic plan"))))))
	expectBox(t, s, "group of cards", []boxWant{
		{desc: "the Choose button in the Basic plan card", role: "button", item: "Basic plan"},
		{desc: "the Choose button in the Pro plan card", role: "button", item: "Pro plan"},
		{desc: "the Choose button for Pro plan", role: "button", item: "Pro plan"},
	})
}

// TestNeedsPage: a cache replay resolves a node with its ancestors only
// (names, no content). An "in" relation met by an unnamed container, or by
// a name that only starts with the relation's name, needs the page to be
// judged: there Check sees the rival that reads it exactly.
func TestNeedsPage(t *testing.T) {
	shallow := func(anc []*ax.Node) []*ax.Node {
		var out []*ax.Node
		for _, a := range anc {
			out = append(out, &ax.Node{Role: a.Role, Name: a.Name, Ref: a.Ref})
		}
		return out
	}
	for _, shape := range []string{"library", "semantic"} {
		items := func(texts ...string) []todo {
			var out []todo
			for _, s := range texts {
				out = append(out, todo{s, shape})
			}
			return out
		}
		r := located(t, todoList(items("oat milk", "oat milk and honey")), "the checkbox in the oat milk item")
		// The list reordered; the cached selectors land on the first item's
		// checkbox, which is now in "oat milk and honey".
		page := todoList(items("oat milk and honey", "oat milk"))
		var wrong, right *ax.Node
		var wrongAnc, rightAnc []*ax.Node
		page.Walk(func(n *ax.Node, anc []*ax.Node) bool {
			if n.Role == "checkbox" && len(anc) > 0 && anc[len(anc)-1].Role == "listitem" {
				if itemText(anc) == "oat milk" {
					right, rightAnc = n, anc
				} else {
					wrong, wrongAnc = n, anc
				}
			}
			return true
		})
		node := &ax.Node{Role: wrong.Role, Name: wrong.Name, Ref: wrong.Ref}
		if !NeedsPage(shallow(wrongAnc), r.Intent) {
			t.Errorf("%s: NeedsPage = false for a checkbox in %q", shape, itemText(wrongAnc))
		}
		wantCheck(t, shape+": wrong, on the page", page, wrong, wrongAnc, r.Intent, "relation-broken")
		wantCheck(t, shape+": wrong, on the page, from a shallow node", page, node, shallow(wrongAnc), r.Intent, "relation-broken")
		wantCheck(t, shape+": right, on the page", page, right, rightAnc, r.Intent, "")
		if shape == "library" {
			// Named exactly: the ancestors are enough.
			if NeedsPage(shallow(rightAnc), r.Intent) {
				t.Errorf("%s: NeedsPage = true for the checkbox in the item named exactly", shape)
			}
		}
	}
	// Rows are judged on their names (their cells joined), as before.
	s := usersPage(users, "")
	r := located(t, s, "the Menu button in the Alice row")
	_, anc := findNode(s, "button", "Menu", "Alice")
	if NeedsPage(shallow(anc), r.Intent) {
		t.Errorf("NeedsPage = true for the Menu button in the Alice row")
	}
}
