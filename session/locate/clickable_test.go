package locate

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// clk is a role-less clickable as the snapshot has it: generic, no name,
// clickable, its text (if any) a run below it under its ref.
func clk(text string, opts ...opt) *ax.Node {
	n := &ax.Node{Role: "generic"}
	n.States.Interactive, n.States.Clickable = true, true
	n.States.Color = "rgb(255, 255, 255)"
	if text != "" {
		n.Children = []*ax.Node{txt(text)}
	}
	for _, o := range opts {
		o(n)
	}
	return n
}

func looks(l string) opt { return func(n *ax.Node) { n.States.Looks = l } }

// TestClickableFitsControlWords: a clickable div is a button, link, tab,
// filter, menu item, option or column header by its text; a checkbox or a
// switch only when drawn as one; its text is no name, so a real control
// named so wins, and a text run never beats it.
func TestClickableFitsControlWords(t *testing.T) {
	save := clk("Save")
	completed := clk("Completed")
	del := clk("Delete")
	header := clk("Name")
	box := clk("", looks("checkbox"), hint("Weekly digest · box"))
	pill := clk("", looks("switch"), hint("Dark mode · toggle"))
	row := clk("", kids(box, txt("Weekly digest")))
	closeX := clk("×")
	s := snap(banner(), el("main", "", kids(
		el("heading", "Settings", level(1)),
		row, el("generic", "", inert(), kids(pill, txt("Dark mode"))),
		save, txt("Not saved yet"), completed, del, header, closeX,
	)))
	runHintCases(t, "clickables", s, []hintCase{
		{desc: "the Save button", want: save},
		{desc: "the Save link", want: save},
		{desc: "click Save", want: save},
		{desc: "the Completed filter", want: completed},
		{desc: "the Completed tab", want: completed},
		{desc: "the Delete menu item", want: del},
		{desc: "Delete", want: del},
		{desc: "the Name column header", want: header},
		{desc: "the Weekly digest checkbox", want: box},
		{desc: "the Dark mode switch", want: pill},
		{desc: "the Dark mode checkbox", want: pill},
		{desc: "the Close button", want: closeX},
		{desc: "the Save checkbox", reason: ReasonNoMatch},        // not drawn as one
		{desc: "the Weekly digest button", want: row},             // the row reads so; the box is no button
		{desc: "the Not saved yet button", reason: ReasonNoMatch}, // text is no control
		{desc: "the Save heading", reason: ReasonNoMatch},
	})
	// a word that took a clickable generic before still does
	pick := clk("Choose file")
	runHintCases(t, "upload", snap(el("main", "", kids(txt("Avatar"), pick))), []hintCase{
		{desc: "the Choose file upload", want: pick},
	})
}

// TestClickableBelowRealControls: a real control named as the description
// says wins over a clickable that reads the same; two clickables that read
// alike are ambiguous, and a named container tells them apart.
func TestClickableBelowRealControls(t *testing.T) {
	real := el("button", "Save")
	fake := clk("Save")
	link := el("link", "Save")
	saveSettings := clk("Save settings")
	s := snap(banner(), el("main", "", kids(real, fake, saveSettings)))
	runHintCases(t, "real vs clickable", s, []hintCase{
		{desc: "the Save button", want: real},
		{desc: "click Save", want: real},
		{desc: "the Save settings button", want: saveSettings},
	})
	s = snap(banner(), el("main", "", kids(fake, link)))
	runHintCases(t, "link vs clickable", s, []hintCase{
		{desc: "the Save button", want: link}, // a link named Save fits loosely, but by its name
	})
	a, b := clk("Delete"), clk("Delete")
	s = snap(banner(), el("main", "", kids(
		el("generic", "", inert(), kids(a)), el("generic", "", inert(), kids(b)))))
	runHintCases(t, "two clickables", s, []hintCase{{desc: "the Delete button", reason: ReasonAmbiguous}})
	a, b = clk("Delete"), clk("Delete")
	s = snap(banner(), el("main", "", kids(
		el("article", "Alpha", kids(a)), el("article", "Beta", kids(b)))))
	runHintCases(t, "two named cards", s, []hintCase{
		{desc: "the Delete button in the Beta card", want: b},
		{desc: "the Delete button", reason: ReasonAmbiguous},
	})
}

// TestClickableIntentChecks: a clickable found by its text replays while
// it still says so and is still a clickable; one found as a checkbox by
// its drawing must still be drawn so.
func TestClickableIntentChecks(t *testing.T) {
	save := clk("Save")
	s := snap(banner(), el("main", "", kids(save)))
	r := Locate(s, "the Save button")
	if r.Target == nil || r.Target.Node != save {
		t.Fatalf("no target: %s", r.Detail)
	}
	if r.Intent.Attributes["role"] != "generic" || r.Intent.Attributes["text~"] != "Save" {
		t.Fatalf("intent %v, want role generic, text~ Save", r.Intent.Attributes)
	}
	if ok, why := Check(s, save, nil, r.Intent); !ok {
		t.Errorf("the same node fails its intent: %s", why)
	}
	for _, c := range []struct {
		node *ax.Node
		ok   bool
	}{
		{clk("Save"), true},
		{clk("Save now"), true},
		{clk("Cancel"), false},
		{txt("Save"), false}, // no longer clickable: text on screen
	} {
		if ok, why := Check(snap(c.node), c.node, nil, r.Intent); ok != c.ok {
			t.Errorf("Check(%s) = %v (%s), want %v", c.node.Line(), ok, why, c.ok)
		}
	}

	box := clk("", looks("checkbox"), hint("Weekly digest · box"))
	s = snap(banner(), el("main", "", kids(clk("", kids(box, txt("Weekly digest"))))))
	r = Locate(s, "the Weekly digest checkbox")
	if r.Target == nil || r.Target.Node != box {
		t.Fatalf("no target: %s", r.Detail)
	}
	if r.Intent.Attributes["looks"] != "checkbox" {
		t.Fatalf("intent %v, want looks checkbox", r.Intent.Attributes)
	}
	flat := clk("", hint("Weekly digest · box"))
	if ok, _ := Check(snap(flat), flat, nil, r.Intent); ok {
		t.Errorf("a clickable no longer drawn as a checkbox passes its intent")
	}
}
