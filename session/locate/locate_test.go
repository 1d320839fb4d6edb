package locate

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// want is what a test expects of a description: a target (`role "name"`,
// optionally ` in row "…"` for nodes inside a row), or a reason.
type want struct {
	desc   string
	target string // label(Target), or "" when Reason is expected
	reason string
}

func expect(t *testing.T, s *ax.Snapshot, page string, tests []want) {
	t.Helper()
	for _, tt := range tests {
		r := Locate(s, tt.desc)
		if tt.target != "" {
			if got := label(r.Target); got != tt.target {
				t.Errorf("%s: Locate(%q) = %s, want %s (%s: %s; candidates %s)", page, tt.desc, got, tt.target, r.Reason, r.Detail, labels(r.Candidates))
			}
			continue
		}
		if r.Target != nil || r.Reason != tt.reason {
			t.Errorf("%s: Locate(%q) = %s reason %q, want no target, reason %q (%s)", page, tt.desc, label(r.Target), r.Reason, tt.reason, r.Detail)
		}
	}
}

func labels(cs []Candidate) string {
	var out []string
	for i := range cs {
		out = append(out, label(&cs[i])+" "+strings.TrimRight(strings.TrimRight(jsonf(cs[i].Score), "0"), "."))
	}
	return "[" + strings.Join(out, "; ") + "]"
}

func jsonf(f float64) string { b, _ := json.Marshal(f); return string(b) }

// TestFixtureMustPass runs the must-pass descriptions against real snapshots
// of the fixture app.
func TestFixtureMustPass(t *testing.T) {
	pages := map[string][]want{
		"users": {
			{desc: "the Menu button in the Alice row", target: `button "Menu" in row "Alice Admin Menu"`},
			{desc: "the Users heading", target: `heading "Users"`},
			{desc: "the Alice row", target: `row "Alice Admin Menu"`},
			{desc: "the Menu button", reason: ReasonAmbiguous},
		},
		"users_shuffle": {
			{desc: "the Menu button in the Alice row", target: `button "Menu" in row "Alice Admin Menu"`},
			{desc: "the Alice row", target: `row "Alice Admin Menu"`},
		},
		"users_menu": {
			{desc: "the Menu button in the Alice row", target: `button "Menu" in row "Alice Admin Menu Edit Archive"`},
			{desc: "Archive in the row menu", target: `menuitem "Archive" in row "Alice Admin Menu Edit Archive"`},
			{desc: "Edit in the row menu", target: `menuitem "Edit" in row "Alice Admin Menu Edit Archive"`},
		},
		"users_menu_shuffle": {
			{desc: "the Menu button in the Alice row", target: `button "Menu" in row "Alice Admin Menu Edit Archive"`},
			{desc: "Archive in the row menu", target: `menuitem "Archive" in row "Alice Admin Menu Edit Archive"`},
		},
		"users_edit": {
			{desc: "the Save button in the dialog", target: `button "Save"`},
			{desc: "the Name field", target: `textbox "Name"`},
			{desc: "the Edit Alice dialog", target: `dialog "Edit Alice"`},
		},
		"product": {
			{desc: "the blue button", target: `button "Add to cart"`},
			{desc: "the Add to cart button", target: `button "Add to cart"`},
		},
		"product_recolor": {
			{desc: "the blue button", target: `button "Save for later"`},
			{desc: "the Add to cart button", target: `button "Add to cart"`},
		},
		"rows20": {
			{desc: "the second Delete button", target: `button "Delete" in row "Item 2 SKU-00002 74 Delete"`},
			{desc: "the Delete button", reason: ReasonAmbiguous},
		},
		"login": {
			{desc: "the email field", target: `textbox "Email"`},
			{desc: "the Sign in button", target: `button "Sign in"`},
			{desc: "the password field", target: `textbox "Password"`},
		},
		"booking": {
			{desc: "the Cabin class dropdown", target: `combobox "Cabin class"`},
			{desc: "the One way radio", target: `radio "One way"`},
			{desc: "the From field", target: `combobox "From"`},
		},
	}
	for page, tests := range pages {
		expect(t, load(t, page), page, tests)
	}
}

func TestMenuButtonInAliceRow(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order []user
		menu  string
	}{
		{"base", users, ""},
		{"shuffle", shuffled(), ""},
		{"reversed", []user{users[4], users[3], users[2], users[1], users[0]}, ""},
		{"menu open", users, "Alice"},
		{"shuffle, menu open", shuffled(), "Alice"},
		{"Bob's menu open", shuffled(), "Bob"},
	} {
		s := usersPage(tc.order, tc.menu)
		for _, desc := range []string{
			"the Menu button in the Alice row", "the Menu button in Alice's row", "the menu button in the alice row",
			"the Menu button inside the Alice row", "the Menu button of the Alice row", "the Menu button within the Alice row",
			"the Menu button for Alice", `the "Menu" button in the "Alice" row`, "Menu in the Alice row",
		} {
			r := Locate(s, desc)
			if r.Target == nil {
				t.Errorf("%s: %q: no target: %s", tc.name, desc, r.Detail)
				continue
			}
			if row := rowOf(r.Target.Ancestors); row == nil || !strings.HasPrefix(row.Name, "Alice ") {
				t.Errorf("%s: %q picked %s", tc.name, desc, label(r.Target))
			}
			if r.Target.Node.Role != "button" {
				t.Errorf("%s: %q picked a %s", tc.name, desc, r.Target.Node.Role)
			}
			for _, c := range r.Candidates {
				if row := rowOf(c.Ancestors); row != nil && strings.HasPrefix(row.Name, "Bob ") {
					t.Errorf("%s: %q lists Bob's button as a candidate", tc.name, desc)
				}
			}
		}
	}
}

func TestRoleWordsLocate(t *testing.T) {
	tests := []struct {
		desc   string
		target string // role of the target, named "Thing"
		decoys []string
	}{
		{"the Thing button", "button", []string{"link", "heading", "textbox"}},
		{"the Thing link", "link", []string{"heading", "textbox", "checkbox"}},
		{"the Thing field", "textbox", []string{"button", "link", "checkbox"}},
		{"the Thing field", "searchbox", []string{"button", "heading"}},
		{"the Thing field", "combobox", []string{"button", "heading"}},
		{"the Thing input", "textbox", []string{"button", "checkbox"}},
		{"the Thing textbox", "textbox", []string{"button"}},
		{"the Thing text box", "textbox", []string{"button", "checkbox"}},
		{"the Thing box", "textbox", []string{"button", "heading"}},
		{"the Thing checkbox", "checkbox", []string{"button", "textbox", "radio"}},
		{"the Thing check box", "checkbox", []string{"button", "textbox", "radio"}},
		{"the Thing radio", "radio", []string{"button", "checkbox"}},
		{"the Thing radio button", "radio", []string{"button", "checkbox"}},
		{"the Thing option button", "radio", []string{"button", "option"}},
		{"the Thing dropdown", "combobox", []string{"textbox", "heading"}},
		{"the Thing select", "listbox", []string{"textbox", "heading"}},
		{"the Thing combobox", "combobox", []string{"textbox"}},
		{"the Thing combo box", "combobox", []string{"textbox"}},
		{"the Thing picker", "combobox", []string{"textbox"}},
		{"the Thing tab", "tab", []string{"heading", "textbox", "tabpanel"}},
		{"the Thing heading", "heading", []string{"button", "link", "region"}},
		{"the Thing title", "heading", []string{"button", "link"}},
		{"the Thing row", "row", []string{"button", "cell"}},
		{"the Thing cell", "cell", []string{"button", "row"}},
		{"the Thing menu item", "menuitem", []string{"menu", "heading"}},
		{"the Thing item", "menuitem", []string{"menu", "heading"}},
		{"the Thing option", "option", []string{"listbox", "heading"}},
		{"the Thing dialog", "dialog", []string{"button", "heading"}},
		{"the Thing modal", "dialog", []string{"button", "heading"}},
		{"the Thing popup", "dialog", []string{"button", "heading"}},
		{"the Thing image", "img", []string{"button", "heading", "link"}},
		{"the Thing picture", "img", []string{"button", "heading"}},
		{"the Thing logo", "img", []string{"heading"}},
		{"the Thing switch", "switch", []string{"textbox", "heading"}},
		{"the Thing toggle", "switch", []string{"textbox", "heading"}},
		{"the Thing slider", "slider", []string{"button", "heading"}},
		{"the Thing list item", "listitem", []string{"list", "button", "heading"}},
		{"the Thing region", "region", []string{"heading", "button"}},
		{"the Thing section", "region", []string{"heading", "button"}},
		{"the Thing navigation", "navigation", []string{"heading", "link"}},
		{"the Thing form", "form", []string{"heading", "button"}},
		{"the Thing table", "table", []string{"heading", "row"}},
		{"the Thing status", "status", []string{"heading", "button"}},
		{"the Thing alert", "alert", []string{"heading", "button"}},
		// Loosely: a "button" that is really a link, with no button around.
		{"the Thing button", "link", []string{"heading", "textbox"}},
		{"the Thing link", "button", []string{"heading", "textbox"}},
		{"the Thing button", "menuitem", []string{"heading", "textbox"}},
	}
	for _, tt := range tests {
		var ns []*ax.Node
		for _, d := range tt.decoys {
			ns = append(ns, el(d, "Thing", at(0, 0, 10, 10)))
		}
		ns = append(ns, el(tt.target, "Thing", at(0, 0, 10, 10)))
		for _, d := range tt.decoys {
			ns = append(ns, el(d, "Thing", at(0, 0, 10, 10)))
		}
		s := snap(ns...)
		r := Locate(s, tt.desc)
		if r.Target == nil || r.Target.Node.Role != tt.target {
			t.Errorf("Locate(%q) among %s and %v = %s, want the %s (%s)", tt.desc, tt.target, tt.decoys, label(r.Target), tt.target, r.Detail)
		}
	}
	// A role word that fits nothing on the page finds nothing, even when the name fits.
	s := snap(el("link", "Users"), el("button", "Users"))
	if r := Locate(s, "the Users heading"); r.Target != nil || r.Reason != ReasonNoMatch {
		t.Errorf("the Users heading without a heading: %s %s", label(r.Target), r.Reason)
	}
}

func TestNameMatching(t *testing.T) {
	s := snap(el("main", "", kids(
		el("button", "Save"),
		el("button", "Save draft"),
		el("button", "Save and close"),
		el("button", "Sign-in"),
		el("button", "Add to cart"),
		el("link", "Privacy policy"),
		el("textbox", "Work email"),
		el("textbox", "Search", placeholder("Search products")),
		el("textbox", "", placeholder("Your name")),
		el("heading", "Team members"),
	)))
	expect(t, s, "names", []want{
		{desc: "the Save button", target: `button "Save"`},               // exact beats "Save draft" (starts with)
		{desc: "the save button", target: `button "Save"`},               // case-insensitive
		{desc: `the "Save" button`, target: `button "Save"`},             // quoted exact
		{desc: `'Save'`, target: `button "Save"`},                        // quoted, no role word
		{desc: `the "Save draft" button`, target: `button "Save draft"`}, // quoted exact
		{desc: `the button labeled "Save draft"`, target: `button "Save draft"`},
		{desc: "the button labeled Save draft", target: `button "Save draft"`},
		{desc: "the button with text Save and close", target: `button "Save and close"`},
		{desc: "the button that says Save and close", target: `button "Save and close"`},
		{desc: "the Save draft button", target: `button "Save draft"`},
		{desc: "the Save & close button", target: `button "Save and close"`}, // same words
		{desc: "the sign in button", target: `button "Sign-in"`},             // same words, punctuation aside
		{desc: "the add to cart button", target: `button "Add to cart"`},
		{desc: "the cart button", target: `button "Add to cart"`}, // all words contained
		{desc: "the privacy link", target: `link "Privacy policy"`},
		{desc: "the email field", target: `textbox "Work email"`},
		{desc: "the Search products field", target: `textbox "Search"`}, // by placeholder
		{desc: "the Your name field", target: `textbox ""`},             // by placeholder, no name
		{desc: "the Team heading", target: `heading "Team members"`},
		{desc: `the "Sav" button`, reason: ReasonNoMatch},              // quoted text is exact (or whole words)
		{desc: `the "Save draft" link`, target: `button "Save draft"`}, // loose role: a button called a link
		{desc: "the Delete button", reason: ReasonNoMatch},
	})
	// Partial overlap never resolves (a word the element lacks may be the
	// word that tells it from another: "Ann Leeds" is not "Ann Lee"); the
	// element is named as the closest.
	if r := Locate(s, "the email address field"); r.Target != nil || !strings.Contains(r.Detail, `"Work email"`) {
		t.Errorf("partial overlap: %s (%s)", label(r.Target), r.Detail)
	}
	// "the Save buttons" (a plural) still means Save.
	if r := Locate(s, "the Saves button"); label(r.Target) != `button "Save"` {
		t.Errorf("plural: %s (%s)", label(r.Target), r.Detail)
	}
}

func TestContainers(t *testing.T) {
	expect(t, load(t, "users_menu"), "users_menu", []want{
		{desc: "Archive in the row menu", target: `menuitem "Archive" in row "Alice Admin Menu Edit Archive"`},
		{desc: "the Archive item in the menu", target: `menuitem "Archive" in row "Alice Admin Menu Edit Archive"`},
		{desc: "the Archive menu item", target: `menuitem "Archive" in row "Alice Admin Menu Edit Archive"`},
		{desc: "Archive in the Alice row", target: `menuitem "Archive" in row "Alice Admin Menu Edit Archive"`},
		{desc: "Archive in the Bob row", reason: ReasonNoMatch},
		{desc: "the Menu button in the Zed row", reason: ReasonNoMatch},
		{desc: "the Menu button for Bob", target: `button "Menu" in row "Bob Editor Menu"`},
		{desc: "the row for Alice", target: `row "Alice Admin Menu Edit Archive"`},
		{desc: "the row with Bob", target: `row "Bob Editor Menu"`},
		{desc: "the row containing Carol", target: `row "Carol Viewer Menu"`},
		{desc: "the row with the Archive menu item", target: `row "Alice Admin Menu Edit Archive"`},
		{desc: "the row with the Menu button", reason: ReasonAmbiguous},
		{desc: "the Admin cell in the Alice row", target: `cell "Admin" in row "Alice Admin Menu Edit Archive"`},
		{desc: "the Menu button in the second row", target: `button "Menu" in row "Bob Editor Menu"`}, // the header row does not count
		{desc: "the Menu button in the first row", target: `button "Menu" in row "Alice Admin Menu Edit Archive"`},
		{desc: "the Menu button in the last row", target: `button "Menu" in row "Erin Viewer Menu"`},
		{desc: "the Home link in the navigation", target: `link "Home"`},
		{desc: "the Home link in the Primary navigation", target: `link "Home"`},
		{desc: "the Trailhead link in the header", target: `link "Trailhead"`},
		{desc: "the Users link in the header", target: `link "Users"`},
		{desc: "the Users heading in the header", reason: ReasonNoMatch},
	})
	expect(t, load(t, "users_edit"), "users_edit", []want{
		{desc: "the Save button in the Edit Alice dialog", target: `button "Save"`},
		{desc: "the Save button in the Edit dialog", target: `button "Save"`},
		{desc: "the Name field in the modal", target: `textbox "Name"`},
		{desc: "the Name field in the form", target: `textbox "Name"`},
		{desc: "the Cancel button inside the dialog", target: `button "Cancel"`},
	})
	expect(t, load(t, "actions"), "actions", []want{
		{desc: "the Notes field in the Fields section", target: `textbox "Notes"`},
		{desc: "the Notes field in the Fields region", target: `textbox "Notes"`},
		{desc: "the Notes field in the Buttons section", reason: ReasonNoMatch},
		{desc: "the Far away button in the Bottom of the page section", target: `button "Far away"`},
		{desc: "the Accept cookies button in the cookie banner", target: `button "Accept cookies"`},
		{desc: "the Accept cookies button in the Cookie banner dialog", target: `button "Accept cookies"`},
	})
	expect(t, rowsPage(30), "rows", []want{
		{desc: "the Delete button in the Item 17 row", target: `button "Delete" in row "Item 17 SKU-00017 129 Delete"`},
		{desc: "the Delete button in the Item 1 row", target: `button "Delete" in row "Item 1 SKU-00001 37 Delete"`},
		{desc: `the Delete button in the "Item 3" row`, target: `button "Delete" in row "Item 3 SKU-00003 111 Delete"`},
		{desc: "the Delete button in the SKU-00004 row", target: `button "Delete" in row "Item 4 SKU-00004 148 Delete"`},
		{desc: "the Delete button in the table", reason: ReasonAmbiguous},
		{desc: "the Delete button in the Item 31 row", reason: ReasonNoMatch},
	})
	// Unnamed cards are named by their text; lists and forms by their names.
	s := snap(el("main", "", kids(
		el("article", "", kids(el("heading", "Trail Runner 2"), el("button", "Buy"))),
		el("article", "", kids(el("heading", "Road Racer"), el("button", "Buy"))),
		el("list", "Groceries", kids(el("listitem", "", kids(txt("Milk"), el("button", "Remove"))), el("listitem", "", kids(txt("Eggs"), el("button", "Remove"))))),
		el("form", "Login", kids(el("textbox", "Email"))),
		el("form", "Newsletter", kids(el("textbox", "Email"))),
	)))
	expect(t, s, "cards", []want{
		{desc: "the Buy button on the Road Racer card", target: `button "Buy"`},
		{desc: "the Buy button in the Trail Runner card", target: `button "Buy"`},
		{desc: "the Buy button", reason: ReasonAmbiguous},
		{desc: "the Remove button in the Eggs list item", target: `button "Remove"`},
		{desc: "the Remove button in the Groceries list", reason: ReasonAmbiguous},
		{desc: "the Email field in the Newsletter form", target: `textbox "Email"`},
		{desc: "the Email field in the login form", target: `textbox "Email"`},
	})
	r := Locate(s, "the Buy button on the Road Racer card")
	if r.Target == nil || r.Target.Ancestors[len(r.Target.Ancestors)-1] != s.Root[0].Children[1] {
		t.Errorf("Road Racer card: picked the wrong Buy button")
	}
	r = Locate(s, "the Remove button in the Eggs list item")
	if r.Target == nil || r.Target.Ancestors[len(r.Target.Ancestors)-1] != s.Root[0].Children[2].Children[1] {
		t.Errorf("Eggs item: picked the wrong Remove button")
	}
	r = Locate(s, "the Email field in the Newsletter form")
	if r.Target == nil || r.Target.Ancestors[len(r.Target.Ancestors)-1].Name != "Newsletter" {
		t.Errorf("Newsletter form: picked the wrong field")
	}
}

func TestSpatial(t *testing.T) {
	// Seed 001's example: "the login button above the sign up button".
	s0 := snap(
		el("link", "Log in", at(1100, 12, 60, 24)),
		el("main", "", kids(
			el("button", "Log in", at(500, 300, 200, 40)),
			el("button", "Sign up", at(500, 360, 200, 40)),
			el("button", "Log in", at(500, 600, 200, 40)),
		)),
	)
	r0 := Locate(s0, "the login button above the sign up button")
	if r0.Target == nil || r0.Target.Node.Box.Y != 300 {
		t.Errorf("login above sign up: %s (%s)", label(r0.Target), r0.Detail)
	} else if got, _ := json.Marshal(r0.Intent); string(got) != `{"attributes":{"name":"Log in","name~":"login","role":"button"},"related":[{"relation":"above","role":"button","name":"Sign up"}]}` {
		t.Errorf("intent %s", got)
	}
	if r := Locate(s0, "the login button below the sign up button"); r.Target == nil || r.Target.Node.Box.Y != 600 {
		t.Errorf("login below sign up: %s (%s)", label(r.Target), r.Detail)
	}
	if r := Locate(s0, "the login button"); r.Target != nil {
		t.Errorf("login alone should be ambiguous: %s", label(r.Target))
	}

	for _, s := range []*ax.Snapshot{bookingPage(), load(t, "booking")} {
		expect(t, s, "booking", []want{
			{desc: "the button next to the Departure date field", target: `button "Choose date"`},
			{desc: "the button beside the Departure date field", target: `button "Choose date"`},
			{desc: "the button near the Departure date field", target: `button "Choose date"`},
			{desc: "the field left of the Choose date button", target: `textbox "Departure date"`},
			{desc: "the field to the left of the Choose date button", target: `textbox "Departure date"`},
			{desc: "the field right of the Choose date button", target: `combobox "Cabin class"`},
			{desc: "the field above the Departure date field", target: `combobox "From"`},
			{desc: "the field below the From field", target: `textbox "Departure date"`},
			{desc: "the button below the Round trip radio", target: `button "Search flights"`},
			{desc: "the radio next to the One way radio", target: `radio "Round trip"`},
			{desc: "the button above the Nowhere field", reason: ReasonNoMatch},
		})
	}
	// Nothing is placed without boxes.
	s := snap(el("textbox", "Email"), el("button", "Go"))
	if r := Locate(s, "the button next to the Email field"); r.Target != nil || r.Reason != ReasonNoMatch {
		t.Errorf("no boxes: %s %s", label(r.Target), r.Reason)
	}
	// Too far is not next to.
	s = snap(el("textbox", "Email", at(0, 0, 100, 30)), el("button", "Go", at(900, 600, 60, 30)))
	if r := Locate(s, "the button next to the Email field"); r.Target != nil {
		t.Errorf("far away: %s", label(r.Target))
	}
	r := Locate(bookingPage(), "the button above the Nowhere field")
	if !strings.Contains(r.Detail, `nothing matches "the Nowhere field"`) {
		t.Errorf("detail %q", r.Detail)
	}
}

func TestOrdinals(t *testing.T) {
	rows := load(t, "rows20")
	expect(t, rows, "rows20", []want{
		{desc: "the first Delete button", target: `button "Delete" in row "Item 1 SKU-00001 37 Delete"`},
		{desc: "the second Delete button", target: `button "Delete" in row "Item 2 SKU-00002 74 Delete"`},
		{desc: "the 2nd Delete button", target: `button "Delete" in row "Item 2 SKU-00002 74 Delete"`},
		{desc: "the third Delete button", target: `button "Delete" in row "Item 3 SKU-00003 111 Delete"`},
		{desc: "the 3rd Delete button", target: `button "Delete" in row "Item 3 SKU-00003 111 Delete"`},
		{desc: "Delete button #4", target: `button "Delete" in row "Item 4 SKU-00004 148 Delete"`},
		{desc: "the tenth Delete button", target: `button "Delete" in row "Item 10 SKU-00010 370 Delete"`},
		{desc: "the last Delete button", target: `button "Delete" in row "Item 20 SKU-00020 240 Delete"`},
		{desc: "the second to last Delete button", target: `button "Delete" in row "Item 19 SKU-00019 203 Delete"`},
		{desc: "the 25th Delete button", reason: ReasonNoMatch},
		{desc: "the first button", target: `button "Delete" in row "Item 1 SKU-00001 37 Delete"`},
		{desc: "the second row", target: `row "Item 1 SKU-00001 37 Delete"`}, // the header row is a row too
		{desc: "the first link", target: `link "Trailhead"`},
	})
	expect(t, usersPage(shuffled(), ""), "users shuffled", []want{
		{desc: "the first Menu button", target: `button "Menu" in row "Dave Editor Menu"`},
		{desc: "the last Menu button", target: `button "Menu" in row "Alice Admin Menu"`},
		{desc: "the second Menu button in the Alice row", reason: ReasonNoMatch},
	})
	expect(t, load(t, "booking"), "booking", []want{
		{desc: "the first option", target: `option "Economy"`},
		{desc: "the First option", target: `option "First"`}, // capitalised mid-sentence: a name
		{desc: `the "First" option`, target: `option "First"`},
		{desc: "the last option", target: `option "First"`},
		{desc: "the second radio", target: `radio "Round trip"`},
	})
	s := snap(el("form", "", kids(el("textbox", "First name"), el("textbox", "Last name"), el("textbox", "Second address line"))))
	expect(t, s, "names with ordinal words", []want{
		{desc: "the first name field", target: `textbox "First name"`},
		{desc: "the last name field", target: `textbox "Last name"`},
		{desc: "the Last name field", target: `textbox "Last name"`},
		{desc: "the second address line field", target: `textbox "Second address line"`},
		{desc: "the second field", target: `textbox "Last name"`},
	})
	// The ordinal is reported in Why.
	r := Locate(rows, "the second Delete button")
	if w := strings.Join(r.Target.Why, "; "); !strings.Contains(w, "2nd of 20 in document order") {
		t.Errorf("why: %s", w)
	}
}

func TestColours(t *testing.T) {
	for _, s := range []*ax.Snapshot{productPage(false), load(t, "product")} {
		expect(t, s, "product", []want{
			{desc: "the blue button", target: `button "Add to cart"`},
			{desc: "the dark blue button", target: `button "Add to cart"`},
			{desc: "the green button", target: `button "Buy now"`},
			{desc: "the red button", target: `button "Compare"`},
			{desc: "the grey button", target: `button "Save for later"`},
			{desc: "the gray button", target: `button "Save for later"`},
			{desc: "the blue Add to cart button", target: `button "Add to cart"`},
			{desc: "the blue Buy now button", reason: ReasonNoMatch},
			{desc: "the purple button", reason: ReasonNoMatch},
		})
	}
	for _, s := range []*ax.Snapshot{productPage(true), load(t, "product_recolor")} {
		expect(t, s, "product recolor", []want{
			{desc: "the blue button", target: `button "Save for later"`},
			{desc: "the green button", reason: ReasonAmbiguous},
			{desc: "the first green button", target: `button "Add to cart"`},
			{desc: "the grey button", reason: ReasonNoMatch},
		})
	}
	r := Locate(productPage(false), "the blue Buy now button")
	if !strings.Contains(r.Detail, `button "Buy now" [e`) || !strings.Contains(r.Detail, "is green, not blue") {
		t.Errorf("detail %q", r.Detail)
	}
	// Every colour word, on a page with one button of each colour.
	colours := map[string]string{
		"blue": "#1d4ed8", "green": "#15803d", "red": "#b91c1c", "grey": "#6b7280", "yellow": "#eab308",
		"orange": "#f97316", "purple": "#9333ea", "black": "#111111", "white": "#ffffff", "pink": "#ec4899",
	}
	var ns []*ax.Node
	for name, c := range colours {
		ns = append(ns, el("button", strings.ToUpper(name[:1])+name[1:]+" thing", color(c)))
	}
	s := snap(ns...)
	for name := range colours {
		r := Locate(s, "the "+name+" button")
		if r.Target == nil || !strings.HasPrefix(strings.ToLower(r.Target.Node.Name), name) {
			t.Errorf("the %s button = %s (%s)", name, label(r.Target), r.Detail)
		}
	}
	if r := Locate(s, "the gray button"); r.Target == nil || r.Target.Node.Name != "Grey thing" {
		t.Errorf("gray: %s", label(r.Target))
	}
}

func TestAmbiguity(t *testing.T) {
	s := rowsPage(2)
	r := Locate(s, "the Delete button")
	if r.Target != nil || r.Reason != ReasonAmbiguous {
		t.Fatalf("target %s reason %q", label(r.Target), r.Reason)
	}
	wantDetail := `2 equal candidates for "the Delete button": button "Delete" [` + r.Candidates[0].Node.Ref + `] in row "Item 1 …", button "Delete" [` + r.Candidates[1].Node.Ref + `] in row "Item 2 …"`
	if r.Detail != wantDetail {
		t.Errorf("detail\n got %s\nwant %s", r.Detail, wantDetail)
	}
	if len(r.Candidates) != 2 || r.Candidates[0].Score != r.Candidates[1].Score {
		t.Errorf("candidates %s", labels(r.Candidates))
	}

	rows := load(t, "rows20")
	r = Locate(rows, "the Delete button")
	if r.Target != nil || r.Reason != ReasonAmbiguous || len(r.Candidates) != 5 {
		t.Fatalf("rows20: target %s reason %q, %d candidates", label(r.Target), r.Reason, len(r.Candidates))
	}
	if !strings.HasPrefix(r.Detail, `20 equal candidates for "the Delete button": button "Delete" [`) || !strings.HasSuffix(r.Detail, ", …") {
		t.Errorf("detail %q", r.Detail)
	}
	for i, c := range r.Candidates {
		if want := "Item " + string(rune('1'+i)) + " "; !strings.HasPrefix(rowOf(c.Ancestors).Name, want) {
			t.Errorf("candidate %d in row %q, want document order", i, rowOf(c.Ancestors).Name)
		}
	}
	// Never at random: the same question gets the same answer.
	for i := 0; i < 5; i++ {
		r2 := Locate(rows, "the Delete button")
		if r2.Detail != r.Detail || !reflect.DeepEqual(labels(r2.Candidates), labels(r.Candidates)) {
			t.Fatalf("answers differ between calls")
		}
	}
	// Near ties are ambiguous too, and say so.
	s = snap(el("button", "Save"), el("link", "Save", color("")), el("menuitem", "Save"))
	r = Locate(s, "Save")
	if r.Target != nil || r.Reason != ReasonAmbiguous || !strings.HasPrefix(r.Detail, "3 equal candidates") {
		t.Errorf("bare name among three roles: %s %q", label(r.Target), r.Detail)
	}
	// Nothing to look for.
	for _, desc := range []string{"", "the", "   ", "the thing"} {
		if r := Locate(s, desc); r.Target != nil || r.Reason != ReasonNoMatch {
			t.Errorf("%q: %s %q", desc, label(r.Target), r.Reason)
		}
	}
	if r := Locate(nil, "the Save button"); r.Target != nil || r.Reason != ReasonNoMatch {
		t.Errorf("nil snapshot: %s", r.Reason)
	}
}

func TestNonInteractiveTargets(t *testing.T) {
	expect(t, load(t, "users"), "users", []want{
		{desc: "the Alice row", target: `row "Alice Admin Menu"`},
		{desc: "the Carol row", target: `row "Carol Viewer Menu"`},
		{desc: "the Users heading", target: `heading "Users"`},
		{desc: "the Users title", target: `heading "Users"`},
		{desc: "the Alice cell", target: `cell "Alice" in row "Alice Admin Menu"`},
		{desc: "the table", target: `table ""`},
		{desc: "the Primary navigation", target: `navigation "Primary"`},
		{desc: "Users", target: `link "Users"`}, // no role word: what can be acted on wins
	})
	expect(t, load(t, "actions"), "actions", []want{
		{desc: "the Fields region", target: `region "Fields"`},
		{desc: "the Buttons section", target: `region "Buttons"`},
		{desc: "the Key log status", target: `status "Key log"`},
		{desc: "the cookie banner", target: `dialog "Cookie banner"`},
		{desc: "the Cookie banner dialog", target: `dialog "Cookie banner"`},
		{desc: "the Hover and keys heading", target: `heading "Hover and keys"`},
	})
	expect(t, load(t, "product"), "product", []want{
		{desc: "the cart status", target: `status ""`},
		{desc: "the status", target: `status ""`},
		{desc: "the shoe image", target: `img "Trail Runner 2 shoe"`},
		{desc: "the Trail Runner 2 heading", target: `heading "Trail Runner 2"`},
	})
	expect(t, load(t, "users_edit"), "users_edit", []want{
		{desc: "the Edit Alice dialog", target: `dialog "Edit Alice"`},
		{desc: "the dialog", target: `dialog "Edit Alice"`},
		{desc: "the modal", target: `dialog "Edit Alice"`},
	})
}

func TestLocateFallbacks(t *testing.T) {
	expect(t, load(t, "product"), "product", []want{
		{desc: "Save for later", target: `button "Save for later"`},
		{desc: "the Save for later button", target: `button "Save for later"`},
		{desc: "Add to cart", target: `button "Add to cart"`},
	})
	s := snap(el("main", "", kids(
		el("button", "Log in with Google"),
		el("button", "Log in"),
		el("button", "Blue", color("rgb(255, 255, 255)")),
		el("button", "Green", color("rgb(29, 78, 216)")),
		el("button", "Open menu"),
		el("dialog", "Cookie banner", kids(el("button", "OK"))),
	)))
	expect(t, s, "fallbacks", []want{
		{desc: "the Log in with Google button", target: `button "Log in with Google"`},
		{desc: "the Log in button", target: `button "Log in"`},
		{desc: "the Blue button", target: `button "Blue"`},    // a capitalised colour that names a button
		{desc: "the blue button", target: `button "Green"`},   // the colour
		{desc: "the Open menu", target: `button "Open menu"`}, // "menu" is the name, not the role
		{desc: "the cookie banner", target: `dialog "Cookie banner"`},
		{desc: "the OK button in the cookie banner", target: `button "OK"`},
	})
}

func TestIntent(t *testing.T) {
	tests := []struct {
		page *ax.Snapshot
		desc string
		want string // the intent as JSON
	}{
		{load(t, "product"), "the blue button", `{"attributes":{"color":"blue","role":"button"}}`},
		{load(t, "product"), "the Add to cart button", `{"attributes":{"name":"Add to cart","name~":"Add to cart","role":"button"}}`},
		{load(t, "product_recolor"), "the blue button", `{"attributes":{"color":"blue","role":"button"}}`},
		{load(t, "product"), "the blue Add to cart button", `{"attributes":{"color":"blue","name":"Add to cart","name~":"Add to cart","role":"button"}}`},
		{load(t, "users_shuffle"), "the Menu button in the Alice row", `{"attributes":{"name":"Menu","name~":"Menu","role":"button"},"related":[{"relation":"in","role":"row","name":"Alice"}]}`},
		{load(t, "users"), "the Menu button for Alice", `{"attributes":{"name":"Menu","name~":"Menu","role":"button"},"related":[{"relation":"in","role":"row","name":"Alice"}]}`},
		{load(t, "users"), "the row for Alice", `{"attributes":{"name":"Alice Admin Menu","role":"row"}}`},
		{load(t, "users"), "the Alice row", `{"attributes":{"name":"Alice Admin Menu","name~":"Alice","role":"row"}}`},
		{load(t, "users"), "the Users h1", `{"attributes":{"level":"1","name":"Users","name~":"Users","role":"heading"}}`},
		{load(t, "users_menu"), "Archive in the row menu", `{"attributes":{"name":"Archive","name~":"Archive","role":"menuitem"},"related":[{"relation":"in","role":"menu"},{"relation":"in","role":"row"}]}`},
		{load(t, "users_menu"), "the Menu button in the second row", `{"attributes":{"name":"Menu","name~":"Menu","role":"button"},"related":[{"relation":"in nth","role":"row","name":"2"}]}`},
		{load(t, "rows20"), "the second Delete button", `{"attributes":{"name":"Delete","name~":"Delete","role":"button"},"related":[{"relation":"nth","role":"button","name":"2"}]}`},
		{load(t, "rows20"), "the last Delete button", `{"attributes":{"name":"Delete","name~":"Delete","role":"button"},"related":[{"relation":"nth","role":"button","name":"-1"}]}`},
		{load(t, "booking"), "the button next to the Departure date field", `{"attributes":{"role":"button"},"related":[{"relation":"next to","role":"textbox","name":"Departure date"}]}`},
		{load(t, "actions"), "the Accept cookies button in the cookie banner", `{"attributes":{"name":"Accept cookies","name~":"Accept cookies","role":"button"},"related":[{"relation":"in","role":"dialog","name":"cookie banner"}]}`},
		{load(t, "login"), "the email field", `{"attributes":{"name":"Email","name~":"email","role":"textbox"}}`},
		{load(t, "product"), "the cart status", `{"attributes":{"role":"status","text~":"cart"}}`},
		{load(t, "users_menu"), "the row with the Archive menu item", `{"attributes":{"role":"row"},"related":[{"relation":"has","role":"menuitem","name":"Archive"}]}`},
		// No target: the intent is what the description says.
		{load(t, "rows20"), "the Delete button", `{"attributes":{"name":"Delete","role":"button"}}`},
		{load(t, "product"), "the purple button", `{"attributes":{"color":"purple","role":"button"}}`},
	}
	for _, tt := range tests {
		r := Locate(tt.page, tt.desc)
		got, _ := json.Marshal(r.Intent)
		if string(got) != tt.want {
			t.Errorf("Locate(%q).Intent\n got %s\nwant %s", tt.desc, got, tt.want)
		}
		// The intent of a target always holds for that target.
		if r.Target != nil {
			if ok, why := Check(tt.page, r.Target.Node, r.Target.Ancestors, r.Intent); !ok {
				t.Errorf("Check(%q) on its own target: %s", tt.desc, why)
			}
		}
	}
}

type fake struct {
	r     Result
	err   error
	calls *int
}

func (f fake) Locate(ctx context.Context, s *ax.Snapshot, d string) (Result, error) {
	*f.calls++
	return f.r, f.err
}

func TestChain(t *testing.T) {
	s := load(t, "rows20")
	ctx := context.Background()
	calls := 0
	target := &Candidate{Node: &ax.Node{Role: "button", Name: "Delete", Ref: "e99"}}
	llm := fake{r: Result{Target: target, Intent: session.Intent{Attributes: map[string]string{"role": "button"}}}, calls: &calls}

	// The local locator answers what it can; the model is not asked.
	r, err := Chain{Local{}, llm}.Locate(ctx, s, "the second Delete button")
	if err != nil || r.Target == nil || calls != 0 {
		t.Fatalf("local answer: %v %v calls=%d", r.Target, err, calls)
	}
	// An ambiguity goes on to the model.
	r, err = Chain{Local{}, llm}.Locate(ctx, s, "the Delete button")
	if err != nil || r.Target != target || calls != 1 {
		t.Fatalf("model answer: %v %v calls=%d", r.Target, err, calls)
	}
	// A failing model: the local result comes back with the error.
	boom := errors.New("model down")
	r, err = Chain{Local{}, fake{err: boom, calls: &calls}}.Locate(ctx, s, "the Delete button")
	if !errors.Is(err, boom) || r.Reason != ReasonAmbiguous {
		t.Fatalf("failing model: %v %q", err, r.Reason)
	}
	// Nobody finds it: the last answer.
	nobody := fake{r: Result{Reason: ReasonNoMatch, Detail: "model: nothing"}, calls: &calls}
	r, err = Chain{Local{}, nobody}.Locate(ctx, s, "the Delete button")
	if err != nil || r.Detail != "model: nothing" {
		t.Fatalf("nobody: %v %q", err, r.Detail)
	}
	// An empty chain, a cancelled context.
	if r, err := (Chain{}).Locate(ctx, s, "x"); err != nil || r.Reason != ReasonNoMatch {
		t.Fatalf("empty chain: %v %q", err, r.Reason)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := (Local{}).Locate(cctx, s, "the Delete button"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	var _ Locator = Local{}
	var _ Locator = Chain{}
}

func TestActionWords(t *testing.T) {
	tests := []struct {
		desc   string
		action bool
		rest   string // the name left once the verb is gone
	}{
		{"click the Save button", true, "Save"},
		{"click on the Save button", true, "Save"},
		{"Click Save", true, "Save"},
		{"double-click the Save button", true, "Save"},
		{"double click the Save button", true, "Save"},
		{"type into the Email field", true, "Email"},
		{"fill in the Email field", true, "Email"},
		{"hover over the Save button", true, "Save"},
		{"select the Business option", true, "Business"},
		{"check the Remember me checkbox", true, "Remember me"},
		{"the Select all checkbox", false, "Select all"},
		{"Select all checkbox", false, "Select all"},
		{"Open menu", false, "Open"}, // "menu" is the role word here; see TestLocateFallbacks
		{"click", false, "click"},
	}
	for _, tt := range tests {
		q := parse(tt.desc, mode{})
		if q.action != tt.action || q.name.phrase != tt.rest {
			t.Errorf("parse(%q): action %v name %q, want %v %q", tt.desc, q.action, q.name.phrase, tt.action, tt.rest)
		}
	}
	// An action needs something to act on: rows and headings are not.
	expect(t, load(t, "users"), "users", []want{
		{desc: "click the Menu button in the Alice row", target: `button "Menu" in row "Alice Admin Menu"`},
		{desc: "click Users", target: `link "Users"`},
		{desc: "click the Users heading", reason: ReasonNoMatch},
		{desc: "click the Alice row", reason: ReasonNoMatch},
		{desc: "the Alice row", target: `row "Alice Admin Menu"`},
	})
	expect(t, load(t, "booking"), "booking", []want{
		{desc: "select the Business option", target: `option "Business"`},
		{desc: "type into the Departure date field", target: `textbox "Departure date"`},
		{desc: "click the button next to the Departure date field", target: `button "Choose date"`},
	})
}

func TestLooseRole(t *testing.T) {
	for _, c := range []struct {
		desc, recorded string
		n              *ax.Node
		want           bool
	}{
		{"the Sign in button", "button", el("link", "Sign in"), true},
		{"the Sign in button", "button", el("button", "Log in"), false},
		{"the Sign in button", "link", el("link", "Sign in"), false}, // recorded on a link: the word was loose from the start
		{"the Sign in link", "link", el("button", "Sign in"), true},
		{"the Sign in", "button", el("link", "Sign in"), false},            // no role word
		{"Menu in the Alice row", "button", el("menuitem", "Menu"), false}, // a capitalised role word is a name
		{"the Save button", "button", el("tab", "Save"), true},
	} {
		if got := LooseRole(c.desc, c.recorded, c.n); got != c.want {
			t.Errorf("LooseRole(%q, %s, %s) = %v, want %v", c.desc, c.recorded, c.n.Role, got, c.want)
		}
	}
}
