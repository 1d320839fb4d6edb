package locate

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// Vocabulary for icon-only controls and UI nouns that are no role (issue
// 13): each case a near miss too, so that a wider vocabulary never makes
// the locator pick a wrong element.

func card(title string, buttons ...*ax.Node) *ax.Node {
	return el("article", "", kids(append([]*ax.Node{el("heading", title, level(3))}, buttons...)...))
}

func TestHintFavouriteAndMore(t *testing.T) {
	// Icon-only buttons as the zoo's styles draw them: classes
	// "icon icon-heart", an SVG's data-icon "dots-horizontal".
	proFav := el("button", "", hint("icon icon-heart"))
	proMore := el("button", "", hint("dots-horizontal"))
	plusFav := el("button", "", hint("icon icon-heart"))
	plusMore := el("button", "", hint("more"))
	entStar := el("button", "", hint("star-outline"))
	entKebab := el("button", "⋯")
	s := snap(banner(), el("main", "", kids(
		card("Pro", proFav, el("button", "", hint("icon icon-pencil")), proMore),
		card("Pro Plus", plusFav, plusMore),
		card("Enterprise", entStar, entKebab),
	)))
	runHintCases(t, "cards", s, []hintCase{
		{desc: "the Favourite button in the Pro card", want: proFav},
		{desc: "the favorite button in the Pro Plus card", want: plusFav},
		{desc: "the heart button in the Pro card", want: proFav},
		{desc: "the like button in the Pro Plus card", want: plusFav},
		{desc: "the star button in the Enterprise card", want: entStar},
		{desc: "the Favourite button in the Enterprise card", want: entStar},
		{desc: "the More button in the Pro card", want: proMore},
		{desc: "the More actions button in the Pro card", want: proMore},
		{desc: "the More actions button in the Pro Plus card", want: plusMore},
		{desc: "the kebab button in the Pro card", want: proMore},
		{desc: "the overflow menu button in the Pro card", want: proMore},
		{desc: "the ⋯ button in the Pro card", want: proMore},
		{desc: "the … button in the Pro Plus card", want: plusMore},
		{desc: "the More button in the Enterprise card", want: entKebab},
		{desc: "the ⋯ button in the Enterprise card", want: entKebab},
		// near misses: two cards hold a heart, and "Pro" is not "Pro Plus"
		{desc: "the Favourite button", reason: ReasonAmbiguous},
		{desc: "the heart button", reason: ReasonAmbiguous},
		{desc: "the Edit button in the Pro Plus card", reason: ReasonNoMatch},
		{desc: "the Favourite actions button in the Pro card", reason: ReasonNoMatch},
		{desc: `the "heart" button in the Enterprise card`, reason: ReasonNoMatch},
	})
}

func TestSymbolDescriptionNamesWords(t *testing.T) {
	// "the ⋯ button" for a kebab whose accessible name is "More actions"
	// (an aria-label over the glyph); never the row's other buttons.
	row := func(name string, kebab *ax.Node) *ax.Node {
		return el("row", name, kids(el("cell", name), el("cell", "", kids(el("button", "Edit"), kebab))))
	}
	ann := el("button", "More actions")
	bob := el("button", "More actions")
	s := snap(banner(), el("main", "", kids(el("table", "Members", kids(row("Ann Lee", ann), row("Bob Stone", bob))))))
	runHintCases(t, "table", s, []hintCase{
		{desc: "the ⋯ button in the Bob Stone row", want: bob},
		{desc: "the ⋯ button in the Ann Lee row", want: ann},
		{desc: "the ⋯ button", reason: ReasonAmbiguous},
		{desc: "the × button in the Bob Stone row", reason: ReasonNoMatch},
		{desc: "the menu button in the Ann Lee row", want: ann},
		{desc: "the Menu button in the Bob Stone row", want: bob},
		{desc: "the menu button", reason: ReasonAmbiguous},
		{desc: "the kebab button in the Ann Lee row", reason: ReasonNoMatch}, // an icon's look names only a hint
		{desc: "the Delete button in the Ann Lee row", reason: ReasonNoMatch},
	})
	// A name by synonym never beats a name that says it.
	del, rm := el("button", "Delete"), el("button", "Remove")
	both := snap(el("main", "", kids(del, rm, el("button", "Archive"))))
	runHintCases(t, "delete", both, []hintCase{
		{desc: "the Delete button", want: del},
		{desc: "the Remove button", want: rm},
		{desc: "the trash button", reason: ReasonNoMatch},
		{desc: `the "delete" button`, want: del},
	})
	onlyRm := snap(el("main", "", kids(rm, el("button", "Archive"))))
	runHintCases(t, "remove", onlyRm, []hintCase{
		{desc: "the Delete button", want: rm},
		{desc: `the "Delete" button`, reason: ReasonNoMatch}, // quoted: the words as shown
	})
}

func TestUINounsKeepTheName(t *testing.T) {
	// "the Completed filter": a link or tab named Completed, the noun no
	// role of its own.
	completed := el("link", "Completed")
	active := el("link", "Active")
	all := el("link", "All")
	chip := el("button", "Urgent")
	s := snap(banner(), el("main", "", kids(
		el("list", "", kids(el("listitem", "", kids(all)), el("listitem", "", kids(active)), el("listitem", "", kids(completed)))),
		el("button", "Clear completed"), el("button", "Apply"), el("button", "Apply filter"),
		chip,
		el("textbox", "Filter tasks"),
	)))
	expect(t, s, "filters", []want{
		{desc: "the Completed filter", target: `link "Completed"`},
		{desc: "click the All filter", target: `link "All"`},
		// a role word after "filter" is the role: the name keeps "filter"
		{desc: "the Apply filter button", target: `button "Apply filter"`},
		{desc: "the Urgent chip", target: `button "Urgent"`},
		{desc: "the Urgent pill", target: `button "Urgent"`},
		{desc: "the Filter tasks field", target: `textbox "Filter tasks"`},
		// near misses: no filter named so
		{desc: "the Done filter", reason: ReasonNoMatch},
		{desc: "the Archived filter", reason: ReasonNoMatch},
	})
	// A file input is a button named by its label.
	up := snap(el("main", "", kids(el("button", "Avatar"), el("button", "Choose file"), el("button", "Save"), txt("No file chosen"))))
	expect(t, up, "upload", []want{
		{desc: "the Avatar upload", target: `button "Avatar"`},
		{desc: "the Avatar file input", target: `button "Avatar"`},
		{desc: "the Avatar file picker", target: `button "Avatar"`},
		{desc: "the Cover upload", reason: ReasonNoMatch},
	})
	// Div soup: the filters are clickable spans (text runs), and a select-all
	// checkbox is known by its class words "tl all".
	soup := snap(el("main", "", kids(
		el("checkbox", "", hint("Mark all as complete · tl all")), txt("Mark all as complete"),
		el("generic", "", kids(txt("All"))), el("generic", "", kids(txt("Active"))), el("generic", "", kids(txt("Completed"))),
	)))
	for d, w := range map[string]string{"the All filter": "All", "click the Completed filter": "Completed"} {
		r := Locate(soup, d)
		if r.Target == nil || r.Target.Node.Role != "text" || r.Target.Node.Text != w {
			t.Errorf("divsoup: Locate(%q) = %s, want text %q (%s: %s)", d, label(r.Target), w, r.Reason, r.Detail)
		}
	}
	// Library: role tab on a wrapper around a button of the same name; one
	// control. Two such controls apart stay two.
	inner := el("button", "Completed")
	lib := snap(el("tablist", "", kids(el("tab", "All", kids(el("button", "All"))), el("tab", "Completed", kids(inner)))))
	expect(t, lib, "library filters", []want{{desc: "the Completed filter", target: `button "Completed"`}})
	apart := snap(el("main", "", kids(el("tab", "Completed"), el("button", "Completed"))))
	expect(t, apart, "apart", []want{{desc: "the Completed filter", reason: ReasonAmbiguous}})
	tabs := snap(el("tablist", "", kids(el("tab", "All"), el("tab", "Completed"))))
	expect(t, tabs, "filter tabs", []want{{desc: "the Completed filter", target: `tab "Completed"`}})
}

func TestOrdinalItemCountsOneCollection(t *testing.T) {
	// The page's first list item is the navigation's "Home"; the task list
	// is another collection. "the first item" names neither for sure.
	task := func(name string) *ax.Node {
		return el("listitem", "", kids(el("checkbox", "", hint(name+" · toggle")), txt(name)))
	}
	s := snap(banner(), el("main", "", kids(el("list", "", kids(task("oat milk"), task("bread"), task("eggs"))))))
	for _, d := range []string{"the first item", "the first list item", "the second item", "the last item", "the first item in the list"} {
		r := Locate(s, d)
		if r.Target != nil || r.Reason != ReasonAmbiguous {
			t.Errorf("Locate(%q) = %s %q, want ambiguous (%s)", d, label(r.Target), r.Reason, r.Detail)
		}
	}
	// The nav has nine items: the tenth exists only... nowhere; the list
	// of three holds no fourth either.
	if r := Locate(s, "the tenth item"); r.Target != nil {
		t.Errorf("Locate(the tenth item) = %s, want none", label(r.Target))
	}
	// One collection only: the count is plain.
	one := snap(el("main", "", kids(el("list", "", kids(task("oat milk"), task("bread"), task("eggs"))))))
	for d, w := range map[string]string{"the first item": "oat milk", "the second item": "bread", "the last item": "eggs"} {
		r := Locate(one, d)
		if r.Target == nil || r.Target.Node.Role != "listitem" || r.Target.Node.Children[1].Text != w {
			t.Errorf("Locate(%q) = %s, want the %s item (%s: %s)", d, label(r.Target), w, r.Reason, r.Detail)
		}
	}
	// Buttons still count over the whole page: "the second Delete button".
	del := snap(el("main", "", kids(
		el("list", "", kids(el("listitem", "", kids(el("button", "Delete"))))),
		el("list", "", kids(el("listitem", "", kids(el("button", "Delete"))))),
	)))
	if r := Locate(del, "the second Delete button"); r.Target == nil {
		t.Errorf("Locate(the second Delete button) = none (%s: %s)", r.Reason, r.Detail)
	}
}

func TestValueKnownByItsLabel(t *testing.T) {
	// "the display name" is the value beside a "Display name" label: two
	// text runs in a card, or a term and its definition.
	value := txt("Ann Lee")
	spans := snap(banner(), el("main", "", kids(el("region", "Profile", kids(
		txt("Display name"), value, el("button", "Edit name"), el("button", "Share"))))))
	runHintCases(t, "spans", spans, []hintCase{
		{desc: "the display name", want: value},
		{desc: "the Display name label", want: spans.Root[1].Children[0].Children[0]},
		{desc: `the "Display name" text`, want: spans.Root[1].Children[0].Children[0]},
		{desc: "the email", reason: ReasonNoMatch},
	})
	r := Locate(spans, "the display name")
	if r.Target == nil || r.Intent.Attributes["label~"] != "display name" {
		t.Fatalf("intent = %v, want label~ display name", r.Intent)
	}
	if ok, why := Check(spans, r.Target.Node, r.Target.Ancestors, r.Intent); !ok {
		t.Errorf("Check on the same page = %s, want a hit", why)
	}
	// The label renamed: the cached value no longer fits.
	spans.Root[1].Children[0].Children[0].Text = "Email"
	if ok, _ := Check(spans, r.Target.Node, r.Target.Ancestors, r.Intent); ok {
		t.Errorf("Check after the label changed = hit, want a miss")
	}

	dd := el("definition", "", kids(txt("Ann Lee")))
	dl := snap(el("main", "", kids(el("list", "", kids(el("term", "", kids(txt("Display name"))), dd)))))
	runHintCases(t, "dl", dl, []hintCase{{desc: "the display name", want: dd}})

	// Two labels read "Display name": which value is meant is not known.
	two := snap(el("main", "", kids(
		el("region", "Profile", kids(txt("Display name"), txt("Ann Lee"))),
		el("region", "Team", kids(txt("Display name"), txt("Bob Stone"))),
	)))
	runHintCases(t, "two", two, []hintCase{
		{desc: "the display name", reason: ReasonAmbiguous},
		{desc: "the display name in the Team region", want: two.Root[0].Children[1].Children[1]},
	})
	// A label followed by a control labels no value: the label stays.
	ctl := snap(el("main", "", kids(txt("Display name"), el("textbox", ""))))
	r = Locate(ctl, "the display name")
	if r.Target != nil && r.Target.Node.Role != "text" {
		t.Errorf("Locate = %s, want the label text or nothing", label(r.Target))
	}
}

func TestItemPlacedByItsContent(t *testing.T) {
	// Unnamed list items have no box in the snapshot; their checkbox and
	// text do. "the item below the bread item" compares the items.
	task := func(name string, y float64) *ax.Node {
		return el("listitem", "", kids(el("checkbox", name, at(10, y, 16, 16)), txt(name, at(34, y, 80, 16))))
	}
	s := snap(el("main", "", kids(el("list", "", kids(task("oat milk", 100), task("bread", 130), task("eggs", 160))))))
	for d, w := range map[string]string{
		"the item below the bread item":    "eggs",
		"the item above the bread item":    "oat milk",
		"the item below the oat milk item": "bread",
	} {
		r := Locate(s, d)
		if r.Target == nil || r.Target.Node.Role != "listitem" || r.Target.Node.Children[1].Text != w {
			t.Errorf("Locate(%q) = %s, want the %s item (%s: %s)", d, label(r.Target), w, r.Reason, r.Detail)
			continue
		}
		if ok, why := Check(s, r.Target.Node, r.Target.Ancestors, r.Intent); !ok {
			t.Errorf("Check(%q) on the same page: %s", d, why)
		}
	}
	if r := Locate(s, "the item below the eggs item"); r.Target != nil {
		t.Errorf("Locate(below eggs) = %s, want none", label(r.Target))
	}
}

func TestSynonymNameReadsOnce(t *testing.T) {
	// synonymName and the index's memoised reading agree.
	ix := newIndex(nil)
	for _, c := range []struct{ desc, name string }{{"menu", "More actions"}, {"⋯", "More actions"}, {"trash", "Delete"}, {"delete", "Remove"}, {"select", "Check"}} {
		spec := nameSpec{phrase: c.desc, words: words(c.desc)}
		q1, h1 := synonymName(spec, c.name)
		q2, h2 := ix.synonyms(spec).fit(c.name)
		if q1 != q2 || h1 != h2 {
			t.Errorf("%q vs %q: synonymName %v %q, index %v %q", c.desc, c.name, q1, h1, q2, h2)
		}
	}
}

func TestItemTargetKnownByItsOwnText(t *testing.T) {
	// "the oat milk item" as a target or an anchor is the item reading
	// "oat milk", as "in the oat milk item" is, never "oat milk and honey".
	task := func(name string, y float64) *ax.Node {
		return el("listitem", "", kids(el("checkbox", name, at(10, y, 16, 16)), txt(name, at(34, y, 80, 16)), el("button", "Delete", at(300, y, 40, 16))))
	}
	honey, oat, bread := task("oat milk and honey", 100), task("oat milk", 130), task("bread", 160)
	s := snap(el("main", "", kids(el("list", "", kids(honey, oat, bread)))))
	runHintCases(t, "items", s, []hintCase{
		{desc: "the oat milk item", want: oat},
		{desc: "the oat milk and honey item", want: honey},
		{desc: "the honey item", want: honey},
		{desc: "the item above the oat milk item", want: honey},
		{desc: "the item below the oat milk item", want: bread},
		{desc: "the milk item", reason: ReasonAmbiguous},
	})
	// Without an exact item, the one that starts so is still found.
	s2 := snap(el("main", "", kids(el("list", "", kids(task("oat milk and honey", 100), task("bread", 130))))))
	if r := Locate(s2, "the oat milk item"); r.Target == nil {
		t.Errorf("Locate(the oat milk item) with only oat milk and honey = none (%s)", r.Detail)
	}
}
