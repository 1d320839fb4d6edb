package locate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// located resolves a description and fails the test when it finds nothing.
func located(t *testing.T, s *ax.Snapshot, desc string) Result {
	t.Helper()
	r := Locate(s, desc)
	if r.Target == nil {
		t.Fatalf("Locate(%q): %s", desc, r.Detail)
	}
	return r
}

// refNode finds the node with a ref and its ancestors.
func refNode(s *ax.Snapshot, ref string) (*ax.Node, []*ax.Node) {
	var n *ax.Node
	var anc []*ax.Node
	s.Walk(func(x *ax.Node, a []*ax.Node) bool {
		if n == nil && x.Ref == ref {
			n, anc = x, append([]*ax.Node(nil), a...)
		}
		return n == nil
	})
	return n, anc
}

// nthNode finds the k-th node (from 0) with this role and name.
func nthNode(s *ax.Snapshot, role, name string, k int) (*ax.Node, []*ax.Node) {
	var n *ax.Node
	var anc []*ax.Node
	s.Walk(func(x *ax.Node, a []*ax.Node) bool {
		if n == nil && x.Role == role && x.Name == name {
			if k == 0 {
				n, anc = x, append([]*ax.Node(nil), a...)
			}
			k--
		}
		return n == nil
	})
	return n, anc
}

func wantCheck(t *testing.T, what string, s *ax.Snapshot, n *ax.Node, anc []*ax.Node, in session.Intent, wantReason string) {
	t.Helper()
	ok, reason := Check(s, n, anc, in)
	if wantReason == "" {
		if !ok || reason != "" {
			t.Errorf("%s: Check = %v %q, want ok", what, ok, reason)
		}
		return
	}
	if ok || !strings.HasPrefix(reason, wantReason) {
		t.Errorf("%s: Check = %v %q, want a miss %q", what, ok, reason, wantReason)
	}
}

// TestCheckBlueButton is seed 001's example: "the blue button" must miss once
// the cached button is green, "the Add to cart button" must not.
func TestCheckBlueButton(t *testing.T) {
	for _, pages := range [][2]*ax.Snapshot{
		{productPage(false), productPage(true)},
		{load(t, "product"), load(t, "product_recolor")},
	} {
		base, recolor := pages[0], pages[1]
		blue := located(t, base, "the blue button")
		add := located(t, base, "the Add to cart button")
		if blue.Target.Node != add.Target.Node {
			t.Fatalf("the blue button is %s", label(blue.Target))
		}
		ref := blue.Target.Node.Ref
		// The cache finds the same element again on the recoloured page.
		cached, anc := refNode(recolor, ref)
		if cached == nil || cached.Name != "Add to cart" {
			t.Fatalf("ref %s on recolor: %v", ref, cached)
		}
		wantCheck(t, "blue, same page", base, blue.Target.Node, blue.Target.Ancestors, blue.Intent, "")
		wantCheck(t, "blue, recolored", recolor, cached, anc, blue.Intent, "attribute-changed: color")
		_, reason := Check(recolor, cached, anc, blue.Intent)
		if reason != "attribute-changed: color is green, was blue" {
			t.Errorf("reason %q", reason)
		}
		wantCheck(t, "Add to cart, recolored", recolor, cached, anc, add.Intent, "")
		// Located again, the blue button is now "Save for later", and it checks.
		again := located(t, recolor, "the blue button")
		if again.Target.Node.Name != "Save for later" {
			t.Errorf("relocated %s", label(again.Target))
		}
		wantCheck(t, "relocated", recolor, again.Target.Node, nil, again.Intent, "")
	}
}

// TestCheckAliceRow is seed 001's failure mode 4: after a reorder, a
// structural selector lands on Bob's Menu button, and the cache must miss.
func TestCheckAliceRow(t *testing.T) {
	for _, pages := range [][2]*ax.Snapshot{
		{usersPage(users, ""), usersPage(shuffled(), "")},
		{load(t, "users"), load(t, "users_shuffle")},
	} {
		base, shuffle := pages[0], pages[1]
		r := located(t, base, "the Menu button in the Alice row")
		// A structural selector (the first row's button) on the shuffled
		// page finds another user's button.
		wrong, anc := nthNode(shuffle, "button", "Menu", 0)
		if row := rowOf(anc); row == nil || strings.HasPrefix(row.Name, "Alice") {
			t.Fatalf("expected the ref to move to another row, got %v", row)
		}
		wantCheck(t, "moved", shuffle, wrong, anc, r.Intent, "relation-broken: not in a row \"Alice\"")
		wantCheck(t, "moved, ancestors found by Check", shuffle, wrong, nil, r.Intent, "relation-broken")
		right, ranc := findNode(shuffle, "button", "Menu", "Alice")
		wantCheck(t, "Alice's", shuffle, right, ranc, r.Intent, "")
		wantCheck(t, "Alice's, ancestors found by Check", shuffle, right, nil, r.Intent, "")
	}
	// Renamed: the redesign calls the button "Actions".
	r := located(t, load(t, "users"), "the Menu button in the Alice row")
	red := load(t, "users_redesign")
	n, anc := findNode(red, "button", "Actions", "Alice")
	wantCheck(t, "renamed", red, n, anc, r.Intent, `attribute-changed: name "Actions" no longer says "Menu"`)
}

func TestCheckOrdinal(t *testing.T) {
	s := rowsPage(5)
	r := located(t, s, "the second Delete button")
	wantCheck(t, "same page", s, r.Target.Node, r.Target.Ancestors, r.Intent, "")
	third, anc := findNode(s, "button", "Delete", "Item 3 ")
	wantCheck(t, "third", s, third, anc, r.Intent, "relation-broken: is the 3rd of 5, was the 2nd")
	// The first row is deleted: what was second is now first.
	s2 := rowsPage(5)
	table := s2.Root[1].Children[2]
	table.Children = append(table.Children[:1], table.Children[2:]...)
	n, anc := findNode(s2, "button", "Delete", "Item 2 ")
	wantCheck(t, "shifted", s2, n, anc, r.Intent, "relation-broken: is the 1st of 4")
	n, anc = findNode(s2, "button", "Delete", "Item 3 ")
	wantCheck(t, "new second", s2, n, anc, r.Intent, "")

	last := located(t, s, "the last Delete button")
	n, anc = findNode(s, "button", "Delete", "Item 5 ")
	wantCheck(t, "last", s, n, anc, last.Intent, "")
	n, anc = findNode(s, "button", "Delete", "Item 4 ")
	wantCheck(t, "not last", s, n, anc, last.Intent, "relation-broken")

	// A container ordinal: the button in the second row.
	cr := located(t, s, "the Delete button in the second row")
	n, anc = findNode(s, "button", "Delete", "Item 2 ")
	wantCheck(t, "in the second row", s, n, anc, cr.Intent, "")
	n, anc = findNode(s, "button", "Delete", "Item 3 ")
	wantCheck(t, "in the third row", s, n, anc, cr.Intent, "relation-broken: in the 3rd row")
}

func TestCheckSpatial(t *testing.T) {
	s := bookingPage()
	r := located(t, s, "the button next to the Departure date field")
	wantCheck(t, "same page", s, r.Target.Node, nil, r.Intent, "")
	// The button moves to the bottom of the form.
	s2 := bookingPage()
	n, anc := findNode(s2, "button", "Choose date", "")
	n.Box = &ax.Box{X: 900, Y: 900, W: 140, H: 44}
	wantCheck(t, "moved away", s2, n, anc, r.Intent, "relation-broken: not next to a textbox \"Departure date\"")
	// Another button moves in closer.
	s3 := bookingPage()
	n, anc = findNode(s3, "button", "Choose date", "")
	n.Box.X = 560
	search, _ := findNode(s3, "button", "Search flights", "")
	search.Box = &ax.Box{X: 480, Y: 270, W: 6, H: 44}
	wantCheck(t, "another nearer", s3, n, anc, r.Intent, "relation-broken")
	// The anchor is gone.
	s4 := bookingPage()
	df, _ := findNode(s4, "textbox", "Departure date", "")
	df.Name = "Date"
	n, anc = findNode(s4, "button", "Choose date", "")
	wantCheck(t, "anchor renamed", s4, n, anc, r.Intent, `relation-broken: no textbox "Departure date" to be next to`)

	above := located(t, s, "the field above the Departure date field")
	wantCheck(t, "above", s, above.Target.Node, nil, above.Intent, "")
	n, anc = findNode(s, "button", "Search flights", "")
	in := session.Intent{Related: []session.Relation{{Relation: "above", Role: "textbox", Name: "Departure date"}}}
	wantCheck(t, "below, not above", s, n, anc, in, "relation-broken")
}

func TestCheckAttributes(t *testing.T) {
	s := load(t, "users_menu")
	r := located(t, s, "Archive in the row menu")
	wantCheck(t, "menu item", s, r.Target.Node, r.Target.Ancestors, r.Intent, "")
	// The row menu is gone: Archive is now a plain button in the row.
	s2 := usersPage(users, "")
	row := s2.Root[1].Children[2].Children[1]
	btn := el("button", "Archive")
	row.Children[2].Children = append(row.Children[2].Children, btn)
	wantCheck(t, "role changed", s2, btn, nil, r.Intent, "attribute-changed: role is button, was menuitem")
	btn.Role = "menuitem"
	wantCheck(t, "out of the menu", s2, btn, nil, r.Intent, "relation-broken: not in a menu")

	tests := []struct {
		n      *ax.Node
		in     session.Intent
		reason string
	}{
		{el("button", "Save"), session.Intent{Attributes: map[string]string{"role": "button", "name": "save"}}, ""},
		{el("button", "Save  now"), session.Intent{Attributes: map[string]string{"name": "Save now"}}, ""},
		{el("button", "Save"), session.Intent{Attributes: map[string]string{"name": "Save draft"}}, `attribute-changed: name is "Save", was "Save draft"`},
		{el("textbox", "", placeholder("Search")), session.Intent{Attributes: map[string]string{"placeholder": "Search"}}, ""},
		{el("textbox", "", placeholder("Find")), session.Intent{Attributes: map[string]string{"placeholder": "Search"}}, "attribute-changed: placeholder"},
		{el("combobox", "Cabin", value("Economy")), session.Intent{Attributes: map[string]string{"value": "Business"}}, "attribute-changed: value"},
		{el("status", "", kids(txt("Cart: 1 item"))), session.Intent{Attributes: map[string]string{"text": "Cart: 0 items"}}, `attribute-changed: text is "Cart: 1 item"`},
		{el("heading", "Users", level(2)), session.Intent{Attributes: map[string]string{"level": "1"}}, "attribute-changed: level is 2, was 1"},
		{el("button", "Go", color("rgb(30, 41, 59)")), session.Intent{Attributes: map[string]string{"color": "blue"}}, ""}, // near blue
		{el("button", "Go", color("")), session.Intent{Attributes: map[string]string{"color": "blue"}}, "attribute-changed: color is none, was blue"},
		{el("button", "Go"), session.Intent{Attributes: map[string]string{"size": "large"}}, ""}, // not judged
		{el("row", "Alice Admin", kids(el("cell", "Alice"))), session.Intent{Related: []session.Relation{{Relation: "has", Role: "cell", Name: "Alice"}}}, ""},
		{el("row", "Bob Admin", kids(el("cell", "Bob"))), session.Intent{Related: []session.Relation{{Relation: "has", Role: "cell", Name: "Alice"}}}, `relation-broken: has no cell "Alice"`},
		{el("button", "Go"), session.Intent{Related: []session.Relation{{Relation: "someday", Name: "x"}}}, ""},
	}
	for _, tt := range tests {
		ps := snap(el("main", "", kids(tt.n)))
		wantCheck(t, tt.n.Line(), ps, tt.n, nil, tt.in, tt.reason)
	}
	if ok, reason := Check(s, nil, nil, session.Intent{}); ok || reason != ReasonNoMatch {
		t.Errorf("nil node: %v %q", ok, reason)
	}
	// A node that is not in the snapshot is judged with the ancestors given.
	cell := el("cell", "Alice")
	arow := el("row", "Alice Admin Menu", kids(cell))
	lone := el("button", "Menu")
	in := session.Intent{Attributes: map[string]string{"role": "button"}, Related: []session.Relation{{Relation: "in", Role: "row", Name: "Alice"}}}
	wantCheck(t, "outside the snapshot", s, lone, []*ax.Node{arow, cell}, in, "")
	wantCheck(t, "outside, no ancestors", s, lone, nil, in, "relation-broken")
}

// entriesPage is a list of role-less repeated entries (role "item", no
// name, known by their text), each a checkbox, its text and a Delete
// button, refs e<k>1, e<k>2, e<k>3 for the k-th entry.
func entriesPage(texts ...string) *ax.Snapshot {
	var items []*ax.Node
	for k, t := range texts {
		cb, del := el("checkbox", ""), el("button", "Delete")
		cb.Ref, del.Ref = "e"+strconv.Itoa(k)+"1", "e"+strconv.Itoa(k)+"3"
		it := el("item", "", kids(cb, txt(t), del))
		it.Ref = "e" + strconv.Itoa(k) + "0"
		items = append(items, it)
	}
	return &ax.Snapshot{Root: []*ax.Node{el("list", "", kids(items...))}}
}

// TestCheckEntryByItsText: a cached step "in the X item" whose item is a
// role-less entry is judged by the entry's text, with the locator's
// container rules; a cache replay passes such an entry as an ancestor with
// no name, which needs the page (NeedsPage), and never hits without it. The
// entry's text changed ("oat milk" → "oat milk and honey" while an "oat
// milk" entry is elsewhere) or the entry removed is a miss.
func TestCheckEntryByItsText(t *testing.T) {
	base := entriesPage("bread", "oat milk", "eggs")
	r := located(t, base, "the Delete button in the oat milk item")
	if r.Target.Node.Ref != "e13" {
		t.Fatalf("located %s (%s)", label(r.Target), r.Target.Node.Ref)
	}
	wantCheck(t, "same page", base, r.Target.Node, nil, r.Intent, "")

	// As a replay passes them: the entry with its role, no name, no content.
	replayed := []*ax.Node{{Role: "list"}, {Role: "item", Ref: "e10"}}
	if !NeedsPage(replayed, r.Intent) {
		t.Errorf("NeedsPage = false for a nameless entry ancestor: the entry's text is on the page only")
	}
	wantCheck(t, "no page", &ax.Snapshot{}, r.Target.Node, replayed, r.Intent, "relation-broken")

	// The cached entry now reads "oat milk and honey"; an "oat milk" entry
	// is elsewhere: the selectors' element no longer fits.
	changed := entriesPage("bread", "oat milk and honey", "eggs", "oat milk")
	n, _ := refNode(changed, "e13")
	wantCheck(t, "text changed", changed, n, nil, r.Intent, `relation-broken: not in a item "oat milk"`)
	// The right one, located again, fits.
	again := located(t, changed, "the Delete button in the oat milk item")
	if again.Target.Node.Ref != "e33" {
		t.Errorf("relocated %s (%s), want the oat milk entry's", label(again.Target), again.Target.Node.Ref)
	}
	wantCheck(t, "the oat milk entry's", changed, again.Target.Node, nil, r.Intent, "")

	// The entry removed: the selectors now land on the next entry's button.
	removed := entriesPage("bread", "eggs")
	n, _ = refNode(removed, "e13")
	wantCheck(t, "removed", removed, n, nil, r.Intent, `relation-broken: not in a item "oat milk"`)
	// Its text grew alone (no exact "oat milk" entry left): the locator
	// reads "oat milk and honey" as containing the phrase, and so does Check.
	grown := entriesPage("bread", "oat milk and honey", "eggs")
	n, _ = refNode(grown, "e13")
	loc := Locate(grown, "the Delete button in the oat milk item")
	ok, why := Check(grown, n, nil, r.Intent)
	if got := loc.Target != nil && loc.Target.Node == n; got != ok {
		t.Errorf("grown: Locate picks it %v, Check says %v (%s): the check must judge as the locator does", got, ok, why)
	}
}

// TestCheckDescriptionWords: a cached element is judged by the words of the
// description it was found by, not by the name seen at recording. A
// renamed element the description still names is a hit; one it no longer
// names is a miss; so is one that a rival now fits better or as well (the
// description no longer picks it alone, and a replay must not guess).
func TestCheckDescriptionWords(t *testing.T) {
	form := func(field, button string, more ...*ax.Node) *ax.Snapshot {
		ns := []*ax.Node{el("textbox", field), el("button", button), el("link", "Help")}
		return snap(el("main", "", kids(append(ns, more...)...)))
	}
	type row struct {
		what, desc  string
		before, now *ax.Snapshot
		role, was   string // the cached element: its role and, on now, its name
		name        string
		wantReason  string // "" for a hit
	}
	rows := []row{
		{"Email → Work email", "the email field", form("Email", "Sign in"), form("Work email", "Sign in"), "textbox", "", "Work email", ""},
		{"Sign in → Log in", "the Sign in button", form("Email", "Sign in"), form("Email", "Log in"), "button", "", "Log in", `attribute-changed: name "Log in" no longer says "Sign in"`},
		{"link opens in a new tab", "the Help link", form("Email", "Sign in"), form("Email", "Sign in", el("link", "Contact")), "link", "", "Help (opens in a new tab)", ""},
		{"name moved to a rival", "the Save button",
			snap(el("main", "", kids(el("button", "Save"), el("button", "Cancel")))),
			snap(el("main", "", kids(el("button", "Save changes"), el("button", "Save")))),
			"button", "", "Save changes", `rival: button "Save" now fits better`},
		{"rival with the same name", "the Save button",
			snap(el("main", "", kids(el("button", "Save"), el("button", "Cancel")))),
			snap(el("main", "", kids(el("button", "Save"), el("button", "Save")))),
			"button", "", "Save", `rival: button "Save" fits as well`},
	}
	for _, r := range rows {
		rec := located(t, r.before, r.desc)
		if _, ok := rec.Intent.Attributes["name~"]; !ok {
			t.Fatalf("%s: intent %v records no name~", r.what, rec.Intent.Attributes)
		}
		if r.what == "link opens in a new tab" {
			// the Help link gains its note
			n, _ := nthNode(r.now, "link", "Help", 0)
			n.Name = r.name
		}
		n, anc := nthNode(r.now, r.role, r.name, 0)
		if n == nil {
			t.Fatalf("%s: no %s %q", r.what, r.role, r.name)
		}
		wantCheck(t, r.what, r.now, n, anc, rec.Intent, r.wantReason)
		if r.wantReason != "" {
			if _, reason := Check(r.now, n, anc, rec.Intent); reason != r.wantReason {
				t.Errorf("%s: reason %q, want %q", r.what, reason, r.wantReason)
			}
		}
		// Without the page a renamed element is not judged: today's miss.
		if r.wantReason == "" && Renamed(n, rec.Intent) {
			wantCheck(t, r.what+", no page", &ax.Snapshot{}, n, anc, rec.Intent, "attribute-changed: name is")
		}
	}
	// An old row (no name~) keeps the pinned name.
	rec := located(t, form("Email", "Sign in"), "the email field")
	old := session.Intent{Attributes: map[string]string{}, Related: rec.Intent.Related}
	for k, v := range rec.Intent.Attributes {
		if k != "name~" {
			old.Attributes[k] = v
		}
	}
	now := form("Work email", "Sign in")
	n, anc := nthNode(now, "textbox", "Work email", 0)
	if Renamed(n, old) {
		t.Errorf("Renamed = true for an old row")
	}
	wantCheck(t, "old row", now, n, anc, old, `attribute-changed: name is "Work email", was "Email"`)
}

// namedRowsPage is a table whose rows are named by their first cell, then
// an email and a Menu button, as /zoo/table's are.
func namedRowsPage(names ...string) *ax.Snapshot {
	rows := []*ax.Node{el("row", "Name Email Actions", kids(el("columnheader", "Name"), el("columnheader", "Email"), el("columnheader", "Actions")))}
	for i, name := range names {
		y := 120 + float64(i)*48
		mail := strings.ToLower(strings.NewReplacer(" ", ".", "-", ".").Replace(name)) + "@example.com"
		if name == "Ana Cruz" {
			mail = "cara.diaz.ortega@example.com"
		}
		rows = append(rows, el("row", name+" "+mail+" Menu", at(100, y, 800, 48), kids(
			el("cell", name, at(100, y, 300, 48)),
			el("cell", mail, at(400, y, 300, 48)),
			el("cell", "Menu", at(700, y, 200, 48), kids(el("button", "Menu", at(710, y+8, 70, 32)))),
		)))
	}
	return snap(el("main", "", kids(el("table", "", kids(rows...)))))
}

// asReplayed is what a cache replay resolves of a node's ancestors: each
// container's role and name, without its content, but for a row's first
// cell (page.js resolveCached).
func asReplayed(anc []*ax.Node) []*ax.Node {
	out := make([]*ax.Node, len(anc))
	for k, a := range anc {
		out[k] = &ax.Node{Role: a.Role, Name: a.Name, Ref: a.Ref}
		if a.Role == "row" && len(a.Children) > 0 && a.Children[0].Role == "cell" {
			out[k].Children = []*ax.Node{{Role: "cell", Name: a.Children[0].Name}}
		}
	}
	return out
}

// replayCheck checks node n of page s as a cache replay does: on its
// replayed ancestors alone, or on the page when NeedsPage says so.
func replayCheck(s *ax.Snapshot, n *ax.Node, anc []*ax.Node, in session.Intent) (bool, string, bool) {
	rep := asReplayed(anc)
	if NeedsPage(rep, in) {
		ok, why := Check(s, n, rep, in)
		return ok, why, true
	}
	ok, why := Check(&ax.Snapshot{}, n, rep, in)
	return ok, why, false
}

// TestCheckRowLookalikeNames: a row whose name only holds the recorded
// row's name as part of a longer one ("Ann Lee-Smith" or "Mary-Ann Lee" for
// "Ann Lee": a hyphen joins words into one name; "Bobby" for "Bob"; "Item
// 15" or "Item 1.5" for "Item 1"; "Cara Diaz 2", whose first cell is not
// "Cara Diaz") is not the recorded row, whether the check reads the page or
// the replayed ancestors; the row itself still is, from its ancestors alone
// (no snapshot), and the locator picks it beside its look-alike, and finds
// nothing when only a look-alike of another name is left.
func TestCheckRowLookalikeNames(t *testing.T) {
	for _, c := range []struct {
		name, lookalike string
		startsWith      bool // the look-alike starts with the name, word for word: alone, the locator takes it
	}{
		{"Cara Diaz", "Cara Diaz-Ortega", false},
		{"Ann Lee", "Ann Lee-Smith", false},
		{"Ann Lee", "Mary-Ann Lee", false},
		{"Bob", "Bobby", false},
		{"Item 1", "Item 15", false},
		{"Item 1", "Item 1.5", false},
		{"Cara Diaz", "Ana Cruz", false}, // her email, cara.diaz.ortega@…, is not her name
		{"Cara Diaz", "Cara Diaz 2", true},
		{"Ann Lee", "Ann Lee (former)", true},
	} {
		desc := "the Menu button in the " + c.name + " row"
		base := namedRowsPage(c.name)
		r := located(t, base, desc)
		after := namedRowsPage(c.lookalike, c.name)
		wrong, wanc := nthNode(after, "button", "Menu", 0) // the look-alike's row is above
		right, ranc := nthNode(after, "button", "Menu", 1)
		if wrong == nil || right == nil || !strings.HasPrefix(rowOf(wanc).Name, c.lookalike+" ") || !strings.HasPrefix(rowOf(ranc).Name, c.name+" ") {
			t.Fatalf("%s: rows not built", c.lookalike)
		}
		what := c.lookalike + " for " + c.name
		if ok, why, _ := replayCheck(after, wrong, wanc, r.Intent); ok || !strings.HasPrefix(why, ReasonRelationBroken) {
			t.Errorf("%s, replayed: Check = %v %q, want a miss %q", what, ok, why, ReasonRelationBroken)
		}
		wantCheck(t, what+", whole page", after, wrong, wanc, r.Intent, ReasonRelationBroken)
		if ok, why, page := replayCheck(after, right, ranc, r.Intent); !ok || page {
			t.Errorf("%s, replayed: Check = %v %q (page read: %v), want ok from the ancestors alone", c.name, ok, why, page)
		}
		wantCheck(t, c.name+", whole page", after, right, ranc, r.Intent, "")
		if got := Locate(after, desc); got.Target == nil || got.Target.Node != right {
			t.Errorf("Locate(%q) beside %q: %s, want the %s row's", desc, c.lookalike, label(got.Target), c.name)
		}
		if got := Locate(namedRowsPage(c.lookalike), desc); got.Target != nil && !c.startsWith {
			t.Errorf("Locate(%q) with only %q: %s, want none", desc, c.lookalike, label(got.Target))
		}
	}
}

func TestWholeRun(t *testing.T) {
	for _, c := range []struct {
		name, phrase string
		want         bool
	}{
		{"Cara Diaz cara@example.com", "Cara Diaz", true},
		{"Cara Diaz-Ortega", "Cara Diaz", false},
		{"Mary-Ann Lee", "Ann Lee", false},
		{"Mary-Ann Lee", "Mary Ann Lee", true},
		{"Sign-in options", "sign in", true},
		{"Jean-de-Luc Martin", "Jean", false},
		{"Jean-de-Luc Martin", "Martin", true},
		{"Item 1.5", "Item 1", false},
		{"Alice's orders", "Alice", true},
		{"ann.lee@example.com Ann", "Ann", true},
		{"ann.lee@example.com", "Ann Lee", false},
	} {
		spec := relationSpec(c.phrase)
		if got := wholeRun(words(c.name), wordJoins(c.name), spec.words); got != c.want {
			t.Errorf("wholeRun(%q, %q) = %v, want %v (joins %v)", c.name, c.phrase, got, c.want, wordJoins(c.name))
		}
	}
}
