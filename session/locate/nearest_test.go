package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

func nearLabels(ns []Near) string {
	var out []string
	for _, n := range ns {
		s := fmt.Sprintf("%s (%.2f)", n.Label, n.Score)
		if n.Count > 1 {
			s += fmt.Sprintf(" ×%d", n.Count)
		}
		out = append(out, s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

// TestNearestNamesTheTypo: a one-letter typo is no match for the locator,
// and Nearest names the element meant, first, with a score below 1.
func TestNearestNamesTheTypo(t *testing.T) {
	login, users := load(t, "login"), load(t, "users")
	for _, tt := range []struct {
		s     *ax.Snapshot
		desc  string
		first string
		score float64 // of the first, to two places
	}{
		{login, "the Sing in button", `button "Sign in"`, 0.87},  // two letters swapped
		{login, "the Sign in buton", `button "Sign in"`, 0.93},   // the role word misspelt
		{login, "the Pasword field", `textbox "Password"`, 0.88}, // a letter left out
		{login, "the Emial field", `textbox "Email"`, 0.82},
		{users, "the Alcie row", `row "Alice …"`, 0.82},
		{users, "the Menu button in the Alcie row", `button "Menu" in row "Alice …"`, 0.91}, // the typo in the container
	} {
		if r := Locate(tt.s, tt.desc); r.Target != nil {
			t.Errorf("%q: the locator picked %s; a typo must stay a miss", tt.desc, label(r.Target))
		}
		got := Nearest(tt.s, tt.desc)
		if len(got) == 0 || got[0].Label != tt.first || got[0].Score != tt.score {
			t.Errorf("%q: nearest %s, want %s (%.2f) first", tt.desc, nearLabels(got), tt.first, tt.score)
		}
		for _, n := range got {
			if n.Score >= 1 || n.Score < nearFloor {
				t.Errorf("%q: %s scores %.2f", tt.desc, n.Label, n.Score)
			}
		}
	}
}

// TestNearestOrdersByCloseness: of a button and a link both named "Sign
// in", the button is nearer "the Sing in button"; the heading reading the
// same comes last. At most three, each element once: the list item
// wrapping the link is the link.
func TestNearestOrdersByCloseness(t *testing.T) {
	got := Nearest(load(t, "login"), "the Sing in button")
	if s := nearLabels(got); s != `[button "Sign in" (0.87), link "Sign in" (0.82), heading "Sign in" (0.77)]` {
		t.Errorf("nearest %s", s)
	}
	for _, n := range Nearest(load(t, "login"), "Sing in") {
		if n.Node.Role == "listitem" {
			t.Errorf(`"Sing in": the list item wrapping the link is listed too: %s`, nearLabels(Nearest(load(t, "login"), "Sing in")))
		}
	}
}

// TestNearestNoneOnNoise: a description that reads like nothing on the
// page, or names nothing, gets no nearest.
func TestNearestNoneOnNoise(t *testing.T) {
	login, users := load(t, "login"), load(t, "users")
	for _, tt := range []struct {
		s    *ax.Snapshot
		desc string
	}{
		{login, "the Launch rocket button"},
		{login, "the xyzzy button"},
		{login, "the Quantum flux capacitor field"},
		{login, "the blue button"}, // no name to compare
		{login, "the button"},
		{users, "the Menu button in the Zed row"}, // the row reads like no row
		{users, "the Save button"},                // "Save" is two letters from "Name", too far
	} {
		if got := Nearest(tt.s, tt.desc); len(got) > 0 {
			t.Errorf("%q: nearest %s, want none", tt.desc, nearLabels(got))
		}
	}
}

// TestNearestCountsAlike: five Menu buttons are one piece of advice.
func TestNearestCountsAlike(t *testing.T) {
	got := Nearest(load(t, "users"), "the Manu button")
	if len(got) != 1 || got[0].Label != `button "Menu"` || got[0].Count != 5 {
		t.Errorf("nearest %s, want button \"Menu\" ×5", nearLabels(got))
	}
}

// checkNarrow checks every narrowing of desc on s: located again, it has
// exactly its candidate as the target.
func checkNarrow(t *testing.T, s *ax.Snapshot, desc string) []Narrowing {
	t.Helper()
	r := Locate(s, desc)
	if r.Reason != ReasonAmbiguous {
		t.Fatalf("%q: %s, want an ambiguity (%s)", desc, r.Reason, r.Detail)
	}
	ns := Narrow(s, desc, r)
	for _, n := range ns {
		got := Locate(s, n.Description)
		if got.Target == nil || got.Target.Node.Ref != n.Node.Ref {
			t.Errorf("%q: narrowing %q locates %s (%s), not its candidate %s", desc, n.Description, label(got.Target), got.Detail, n.Node.Line())
		}
	}
	return ns
}

func narrowAdds(ns []Narrowing) string {
	var out []string
	for _, n := range ns {
		if n.Add != "" {
			out = append(out, n.Add)
		} else {
			out = append(out, "say "+n.Description)
		}
	}
	return strings.Join(out, " | ")
}

// TestNarrowByRow: the five Menu buttons of /users differ by their rows.
func TestNarrowByRow(t *testing.T) {
	ns := checkNarrow(t, load(t, "users"), "the Menu button")
	want := "in the Alice row | in the Bob row | in the Carol row | in the Dave row | in the Erin row"
	if got := narrowAdds(ns); got != want {
		t.Errorf("narrow: %s, want %s", got, want)
	}
	ns = checkNarrow(t, usersPage(shuffled(), ""), "Menu")
	if got := narrowAdds(ns); got != "in the Dave row | in the Bob row | in the Erin row | in the Carol row | in the Alice row" {
		t.Errorf("shuffled: %s", got)
	}
}

// TestNarrowNearMissRows: rows "Ann Lee" and "Ann Leeds" (a near miss) are
// told apart by their whole names, and the advice for one never reaches
// the other.
func TestNarrowNearMissRows(t *testing.T) {
	var rows []*ax.Node
	for _, name := range []string{"Ann Leeds", "Bob Stone", "Ann Lee"} {
		rows = append(rows, el("row", name+" More actions", kids(el("cell", name), el("cell", "", kids(el("button", "More actions"))))))
	}
	s := snap(el("table", "Members", kids(rows...)))
	ns := checkNarrow(t, s, "the More actions button")
	if got := narrowAdds(ns); got != "in the Ann Leeds row | in the Bob Stone row | in the Ann Lee row" {
		t.Errorf("narrow: %s", got)
	}
}

// TestNarrowByOrdinal: candidates in one container (or none) differ only
// by their place: ordinals, checked like the rest.
func TestNarrowByOrdinal(t *testing.T) {
	s := snap(el("main", "", kids(el("form", "Upload", kids(el("button", "Delete"), el("textbox", "File"), el("button", "Delete"))))))
	ns := checkNarrow(t, s, "the Delete button")
	if got := narrowAdds(ns); got != "say the first Delete button | say the second Delete button" {
		t.Errorf("narrow: %s", got)
	}
	// Two rows reading the same: the rows do not tell them apart.
	s = snap(el("table", "", kids(
		el("row", "Alice Edit", kids(el("cell", "Alice"), el("cell", "", kids(el("button", "Edit"))))),
		el("row", "Alice Edit", kids(el("cell", "Alice"), el("cell", "", kids(el("button", "Edit"))))),
	)))
	ns = checkNarrow(t, s, "the Edit button")
	if got := narrowAdds(ns); got != "say the first Edit button | say the second Edit button" {
		t.Errorf("twin rows: %s", got)
	}
}

// TestNarrowByName: "the Save button" between "Save draft" and "Save copy"
// (an ordinal does not count among different names): their own names.
func TestNarrowByName(t *testing.T) {
	s := snap(el("form", "", kids(el("button", "Save draft"), el("button", "Save copy"))))
	ns := checkNarrow(t, s, "the Save button")
	if got := narrowAdds(ns); got != "say the Save draft button | say the Save copy button" {
		t.Errorf("narrow: %s", got)
	}
}

// TestNarrowOnlyAmbiguities: a result with a target, or with none, has
// nothing to narrow.
func TestNarrowOnlyAmbiguities(t *testing.T) {
	s := load(t, "users")
	for _, d := range []string{"the Menu button in the Alice row", "the Launch rocket button"} {
		if ns := Narrow(s, d, Locate(s, d)); len(ns) > 0 {
			t.Errorf("%q: narrow %s", d, narrowAdds(ns))
		}
	}
}

// TestNarrow2kRows: 2,000 Delete buttons: the best five, each by its row.
func TestNarrow2kRows(t *testing.T) {
	ns := checkNarrow(t, twoThousandRows(), "the Delete button")
	if got := narrowAdds(ns); got != "in the Item 1 row | in the Item 2 row | in the Item 3 row | in the Item 4 row | in the Item 5 row" {
		t.Errorf("narrow: %s", got)
	}
}

// TestNearestNearMissRows: a typo of one of two names a letter apart is
// nearest the one it misspells, by a clear step.
func TestNearestNearMissRows(t *testing.T) {
	var rows []*ax.Node
	for _, name := range []string{"Ann Leeds", "Bob Stone", "Ann Lee"} {
		rows = append(rows, el("row", name+" More actions", kids(el("cell", name), el("cell", "", kids(el("button", "More actions"))))))
	}
	s := snap(el("table", "Members", kids(rows...)))
	for _, tt := range []struct{ desc, first, second string }{
		{"the Ann Leds row", `row "Ann Leeds …"`, `row "Ann Lee …"`},
		{"the Ann Le row", `row "Ann Lee …"`, `row "Ann Leeds …"`},
		{"the More actions button in the Ann Leds row", `button "More actions" in row "Ann Leeds …"`, `button "More actions" in row "Ann Lee …"`},
	} {
		if r := Locate(s, tt.desc); r.Target != nil {
			t.Errorf("%q: the locator picked %s", tt.desc, label(r.Target))
		}
		got := Nearest(s, tt.desc)
		if len(got) < 2 || got[0].Label != tt.first || got[1].Label != tt.second || got[0].Score-got[1].Score < 0.05 {
			t.Errorf("%q: nearest %s, want %s then %s, well apart", tt.desc, nearLabels(got), tt.first, tt.second)
		}
	}
}

// TestNarrowBySection: two Starter cards, one in each section: the card
// alone does not tell them apart, the card in its section does (and the
// Team section, which holds one card, alone).
func TestNarrowBySection(t *testing.T) {
	card := func(title, price string) *ax.Node {
		return el("listitem", "", kids(el("article", title, kids(el("heading", title, level(3)), txt(price), el("button", "Delete")))))
	}
	s := snap(el("main", "", kids(
		el("region", "Personal", kids(el("heading", "Personal", level(2)), el("list", "", kids(card("Starter", "Free"), card("Pro", "$12 / month"))))),
		el("region", "Team", kids(el("heading", "Team", level(2)), el("list", "", kids(card("Starter", "$5 / seat"))))),
	)))
	ns := checkNarrow(t, s, "the Delete button")
	if got := narrowAdds(ns); got != "in the Starter card in the Personal section | in the Pro card | in the Team section" {
		t.Errorf("narrow: %s", got)
	}
}

// TestNarrowTwinRows: 2,000 rows that all read alike: only ordinals tell
// their Delete buttons apart.
func TestNarrowTwinRows(t *testing.T) {
	rows := []*ax.Node{}
	for range 2000 {
		rows = append(rows, el("row", "Same Delete", kids(el("cell", "Same"), el("cell", "", kids(el("button", "Delete"))))))
	}
	s := snap(el("table", "", kids(rows...)))
	ns := checkNarrow(t, s, "the Delete button")
	if got := narrowAdds(ns); got != "say the first Delete button | say the second Delete button | say the third Delete button | say the fourth Delete button | say the fifth Delete button" {
		t.Errorf("narrow: %s", got)
	}
}

// TestNarrowStopsInTime: buttons deep in containers that all read alike
// give many clauses to try and none that singles one out; Narrow locates
// no more than its budget of narrowed descriptions, and still tells the
// candidates apart by ordinals.
func TestNarrowStopsInTime(t *testing.T) {
	var boxes []*ax.Node
	for range 5 {
		n := el("button", "Delete")
		for range 8 {
			n = el("group", "Same", kids(n))
		}
		boxes = append(boxes, el("region", "Same", kids(n)))
	}
	s := snap(el("main", "", kids(boxes...)))
	const desc = "the Delete button"
	calls := 0
	ns := narrow(s, desc, Locate(s, desc), func(s *ax.Snapshot, d string) Result { calls++; return Locate(s, d) })
	if calls > narrowClauses+narrowOthers {
		t.Errorf("%d narrowed descriptions located, more than %d", calls, narrowClauses+narrowOthers)
	}
	if got := narrowAdds(ns); got != "say the first Delete button | say the second Delete button | say the third Delete button | say the fourth Delete button | say the fifth Delete button" {
		t.Errorf("narrow: %s", got)
	}
}

// TestNarrowPriceByQuotedText: "the price" on /product fits the
// description paragraph, the price and the cart status alike. The advice
// names them by their quoted text, never by an ordinal that would call the
// paragraph or the cart status a price; the paragraph, too long to quote,
// gets none.
func TestNarrowPriceByQuotedText(t *testing.T) {
	ns := checkNarrow(t, load(t, "product"), "the price")
	if got, want := narrowAdds(ns), `say the "$129.00" text | say the "Cart: 0 items" text`; got != want {
		t.Errorf("narrow: %s, want %s", got, want)
	}
}

// TestNarrowLinkByList: of two "Getting started" links, the one in the
// Pages list is told by its list, not by an ordinal or its own item's
// text; the other, in no container, by its place.
func TestNarrowLinkByList(t *testing.T) {
	s := snap(el("main", "", kids(
		el("paragraph", "", kids(txt("Read the "), el("link", "Getting started"), txt(" guide first."))),
		el("list", "Pages", kids(el("listitem", "", kids(el("link", "Getting started"))), el("listitem", "", kids(el("link", "Reference"))))),
	)))
	ns := checkNarrow(t, s, "the Getting started link")
	if got, want := narrowAdds(ns), "say the first Getting started link | in the Pages list"; got != want {
		t.Errorf("narrow: %s, want %s", got, want)
	}
}
