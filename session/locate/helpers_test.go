package locate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// Snapshot builders. el makes a node; options set its box, colour, states
// and children. snap numbers refs e1, e2, … in document order, as the
// browser does. A text run carries its owner element's ref, as in the
// browser: the parent's when it is the parent's only child (`<p>$129</p>`),
// else one of its own (a <label> or <span> with no role).

type opt func(*ax.Node)

var interactiveRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "combobox": true, "checkbox": true,
	"radio": true, "switch": true, "slider": true, "menuitem": true, "option": true, "tab": true, "spinbutton": true,
	"menuitemcheckbox": true, "menuitemradio": true, "treeitem": true,
}

func el(role, name string, opts ...opt) *ax.Node {
	n := &ax.Node{Role: role, Name: name}
	n.States.Interactive = interactiveRoles[role]
	if n.States.Interactive {
		n.States.Color = "rgb(255, 255, 255)"
	}
	for _, o := range opts {
		o(n)
	}
	return n
}

func txt(s string, opts ...opt) *ax.Node {
	n := &ax.Node{Role: "text", Text: s}
	for _, o := range opts {
		o(n)
	}
	return n
}

func kids(ns ...*ax.Node) opt { return func(n *ax.Node) { n.Children = append(n.Children, ns...) } }

func at(x, y, w, h float64) opt {
	return func(n *ax.Node) { n.Box = &ax.Box{X: x, Y: y, W: w, H: h} }
}

func color(c string) opt { return func(n *ax.Node) { n.States.Color = c } }
func level(l int) opt    { return func(n *ax.Node) { n.States.Level = l } }
func value(v string) opt { return func(n *ax.Node) { n.States.Value = v } }
func placeholder(p string) opt {
	return func(n *ax.Node) { n.States.Placeholder = p }
}
func inert() opt { return func(n *ax.Node) { n.States.Interactive = false; n.States.Color = "" } }

func snap(ns ...*ax.Node) *ax.Snapshot {
	s := &ax.Snapshot{URL: "http://fixture.test/", Root: ns}
	k, total := 0, 0
	s.Walk(func(n *ax.Node, anc []*ax.Node) bool {
		total++
		if n.Role == "text" && len(anc) > 0 && len(anc[len(anc)-1].Children) == 1 {
			n.Ref = anc[len(anc)-1].Ref
			return true
		}
		k++
		n.Ref = fmt.Sprintf("e%d", k)
		return true
	})
	s.Total, s.Shown = total, total
	return s
}

// Pages that mirror the fixture app.

func banner() *ax.Node {
	links := []*ax.Node{}
	for i, name := range []string{"Home", "Sign in", "Users", "Product", "Booking", "Search", "Inventory", "Accessibility", "Actions"} {
		links = append(links, el("listitem", "", kids(el("link", name, at(128+float64(i)*70, 12, 60, 24), color("rgb(203, 213, 225)")))))
	}
	return el("banner", "", at(0, 0, 1280, 48), kids(
		el("link", "Trailhead", at(24, 12, 84, 24)),
		el("navigation", "Primary", kids(el("list", "", kids(links...)))),
	))
}

type user struct{ name, role string }

var users = []user{{"Alice", "Admin"}, {"Bob", "Editor"}, {"Carol", "Viewer"}, {"Dave", "Editor"}, {"Erin", "Viewer"}}

// usersPage is /users with the rows in the given order; menuFor opens that
// user's row menu.
func usersPage(order []user, menuFor string) *ax.Snapshot {
	rows := []*ax.Node{el("row", "Name Role Actions", kids(el("columnheader", "Name"), el("columnheader", "Role"), el("columnheader", "Actions")))}
	for i, u := range order {
		y := 180 + float64(i)*48
		cell := el("cell", "Menu", at(700, y, 200, 48), kids(el("button", "Menu", at(710, y+8, 70, 32))))
		name := u.name + " " + u.role + " Menu"
		if u.name == menuFor {
			cell.Name = "Menu Edit Archive"
			cell.Children = append(cell.Children, el("menu", "Menu", at(710, y+40, 160, 80), kids(
				el("menuitem", "Edit", at(710, y+44, 160, 32), color("rgb(232, 238, 252)")),
				el("menuitem", "Archive", at(710, y+80, 160, 32), color("rgb(185, 28, 28)")),
			)))
			name += " Edit Archive"
		}
		rows = append(rows, el("row", name, at(184, y, 912, 48), kids(el("cell", u.name, at(184, y, 300, 48)), el("cell", u.role, at(484, y, 216, 48)), cell)))
	}
	return snap(banner(), el("main", "", kids(
		el("heading", "Users", level(1), at(184, 80, 912, 40)),
		el("status", ""),
		el("table", "", kids(rows...)),
	)))
}

func shuffled() []user {
	return []user{users[3], users[1], users[4], users[2], users[0]} // Dave, Bob, Erin, Carol, Alice
}

// productPage is /product; recolor swaps the blue of "Add to cart" onto
// "Save for later" as the recolor variant does.
func productPage(recolor bool) *ax.Snapshot {
	blue, green, grey, red := "rgb(29, 78, 216)", "rgb(21, 128, 61)", "rgb(107, 114, 128)", "rgb(185, 28, 28)"
	add, save := blue, grey
	if recolor {
		add, save = green, blue
	}
	return snap(banner(), el("main", "", kids(el("article", "", kids(
		el("heading", "Trail Runner 2", level(1)),
		el("img", "Trail Runner 2 shoe", at(360, 178, 560, 360)),
		el("paragraph", "", kids(txt("$129.00"))),
		el("button", "Add to cart", color(add), at(363, 688, 135, 44)),
		el("button", "Buy now", color(green), at(510, 688, 110, 44)),
		el("button", "Save for later", color(save), at(633, 688, 157, 44)),
		el("button", "Compare", color(red), at(802, 688, 114, 44)),
		el("status", "", kids(txt("Cart: 0 items"))),
	)))))
}

// rowsPage is /rows?n=N: an inventory table with a Delete button a row.
func rowsPage(n int) *ax.Snapshot {
	rows := make([]*ax.Node, 0, n+1)
	rows = append(rows, el("row", "Name SKU Quantity Actions", kids(
		el("columnheader", "Name"), el("columnheader", "SKU"), el("columnheader", "Quantity"), el("columnheader", "Actions"))))
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("Item %d", i)
		sku := fmt.Sprintf("SKU-%05d", i)
		qty := fmt.Sprint(i * 37 % 500)
		y := 200 + float64(i)*41
		rows = append(rows, el("row", strings.Join([]string{name, sku, qty, "Delete"}, " "), at(184, y, 912, 41), kids(
			el("cell", name), el("cell", sku), el("cell", qty),
			el("cell", "Delete", kids(el("button", "Delete", at(1000, y+4, 70, 32)))),
		)))
	}
	return snap(banner(), el("main", "", kids(
		el("heading", "Inventory", level(1)),
		el("paragraph", "", kids(txt(fmt.Sprintf("%d items", n)))),
		el("table", "", kids(rows...)),
	)))
}

func loginPage() *ax.Snapshot {
	return snap(banner(), el("main", "", kids(
		el("heading", "Sign in", level(1)),
		el("form", "", kids(
			txt("Email"), el("textbox", "Email", at(209, 180, 400, 40)),
			txt("Password"), el("textbox", "Password", at(209, 260, 400, 40)),
			el("checkbox", "Remember me", at(209, 320, 13, 13), color("rgb(0, 0, 0)")), txt("Remember me"),
			el("button", "Sign in", color("rgb(29, 78, 216)"), at(209, 360, 90, 44)),
		)),
		el("paragraph", "", kids(txt("Demo account: alice@example.com / correct-horse"))),
	)))
}

func bookingPage() *ax.Snapshot {
	return snap(banner(), el("main", "", kids(
		el("heading", "Book a flight", level(1)),
		el("form", "", kids(
			txt("From"), el("combobox", "From", placeholder("City or airport"), at(209, 182, 423, 44)),
			txt("To"), el("combobox", "To", placeholder("City or airport"), at(648, 182, 423, 44)),
			txt("Departure date"), el("textbox", "Departure date", placeholder("YYYY-MM-DD"), at(209, 270, 269, 44)),
			el("button", "Choose date", at(486, 270, 146, 44)),
			txt("Cabin class"), el("combobox", "Cabin class", value("Economy"), at(648, 270, 423, 41), kids(
				el("option", "Economy"), el("option", "Premium economy"), el("option", "Business"), el("option", "First"),
			)),
			el("group", "Trip type", at(209, 329, 862, 67), kids(
				el("legend", "Trip type"),
				el("radio", "One way", at(231, 364, 13, 13), color("rgb(0, 0, 0)")), txt("One way"),
				el("radio", "Round trip", at(352, 364, 13, 13), color("rgb(0, 0, 0)")), txt("Round trip"),
			)),
			el("button", "Search flights", color("rgb(29, 78, 216)"), at(209, 412, 159, 44)),
		)),
	)))
}

// load reads a real snapshot of a fixture page saved in testdata (see
// capture_test.go for how they are made).
func load(t testing.TB, name string) *ax.Snapshot {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var s ax.Snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// findNode returns the first node with this role and name (and, when row is
// set, inside the row whose name starts with it), with its ancestors.
func findNode(s *ax.Snapshot, role, name, row string) (*ax.Node, []*ax.Node) {
	var found *ax.Node
	var anc []*ax.Node
	s.Walk(func(n *ax.Node, a []*ax.Node) bool {
		if found != nil {
			return false
		}
		if n.Role == role && n.Name == name && (row == "" || rowOf(a) != nil && strings.HasPrefix(rowOf(a).Name, row)) {
			found, anc = n, append([]*ax.Node(nil), a...)
			return false
		}
		return true
	})
	return found, anc
}

func rowOf(anc []*ax.Node) *ax.Node {
	for k := len(anc) - 1; k >= 0; k-- {
		if anc[k].Role == "row" {
			return anc[k]
		}
	}
	return nil
}

// label is `button "Menu" in row "Alice Admin Menu"`, how tests name a target.
func label(c *Candidate) string {
	if c == nil {
		return "<none>"
	}
	s := c.Node.Role + " " + fmt.Sprintf("%q", c.Node.Name)
	if r := rowOf(c.Ancestors); r != nil && c.Node.Role != "row" {
		s += " in row " + fmt.Sprintf("%q", r.Name)
	}
	return s
}
