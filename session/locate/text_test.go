package locate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// Text runs as candidates: what a person reads on screen, in markup that
// gives it no role (issue 13 item 1).

var zooItems = []string{"oat milk", "oat milk and honey", "bread", "eggs"}

// tasksPage mirrors the markup zoo's task list (/zoo/tasks) in one of its
// four styles, with the geometry the browser reports: a row every 48px, its
// checkbox 12px left of its text, the counter and the filters below.
func tasksPage(style string) *ax.Snapshot {
	var rows []*ax.Node
	for k, item := range zooItems {
		y := 198.9 + 48*float64(k)
		name := item // the checkbox's accessible name
		switch style {
		case "divsoup", "library":
			name = ""
		case "webcomponents":
			name = "Complete"
		}
		box := el("checkbox", name, at(197, y+1.2, 20, 20))
		text := txt(item, at(229, y, 514, 22.4))
		switch style {
		case "semantic":
			rows = append(rows, el("listitem", "", kids(box, text)))
		case "library":
			text.Box.W = 60
			rows = append(rows, el("listitem", item, kids(box, text)))
		default:
			rows = append(rows, box, text)
		}
	}
	list := rows
	if style == "semantic" || style == "library" {
		list = []*ax.Node{el("list", "", kids(rows...))}
	}
	count := txt("4 tasks remaining", at(197, 390.8, 126.1, 19.6))
	var foot []*ax.Node
	switch style {
	case "library":
		foot = []*ax.Node{el("paragraph", "", kids(count))}
		for k, f := range []string{"All", "Active", "Completed"} {
			foot = append(foot, el("tab", f, at(524+float64(k)*60, 387.8, 50, 25.6), kids(el("button", f, at(524+float64(k)*60, 387.8, 50, 25.6)))))
		}
	case "divsoup":
		foot = []*ax.Node{count}
		for k, f := range []string{"All", "Active", "Completed"} {
			foot = append(foot, txt(f, at(524+float64(k)*60, 387.8, 50, 25.6)))
		}
	default:
		foot = []*ax.Node{count}
		for k, f := range []string{"All", "Active", "Completed"} {
			foot = append(foot, el("link", f, at(524+float64(k)*60, 388.8, 50, 22)))
		}
	}
	main := []*ax.Node{
		el("heading", "Tasks", level(1)),
		el("checkbox", map[bool]string{true: "Mark all as complete"}[style == "semantic" || style == "webcomponents"], at(197, 148.1, 20, 20)),
		el("textbox", "What needs to be done?", at(229, 140.1, 502, 36)),
	}
	main = append(main, list...)
	main = append(main, foot...)
	return snap(banner(), el("main", "", kids(main...)))
}

var zooStyles = []string{"semantic", "divsoup", "library", "webcomponents"}

// textLabel names a candidate for a test: `text "oat milk"`, `checkbox "bread"`.
func textLabel(c *Candidate) string {
	if c == nil {
		return "<none>"
	}
	if c.Node.Role == "text" {
		return "text " + fmt.Sprintf("%q", c.Node.Text)
	}
	return c.Node.Role + " " + fmt.Sprintf("%q", c.Node.Name)
}

// refOf is the ref of the first node of role whose name or text is s.
func refOf(t *testing.T, s *ax.Snapshot, role, text string) string {
	t.Helper()
	ref := ""
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if ref == "" && n.Role == role && (n.Name == text || n.Role == "text" && n.Text == text) {
			ref = n.Ref
		}
		return ref == ""
	})
	if ref == "" {
		t.Fatalf("no %s %q", role, text)
	}
	return ref
}

// checkboxBeside is the ref of the checkbox in the row of item k.
func checkboxBeside(t *testing.T, s *ax.Snapshot, k int) string {
	t.Helper()
	var boxes []string
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "checkbox" && n.Box != nil && n.Box.Y > 190 {
			boxes = append(boxes, n.Ref)
		}
		return true
	})
	return boxes[k]
}

func TestTextTargetsOnTheTaskList(t *testing.T) {
	for _, style := range zooStyles {
		t.Run(style, func(t *testing.T) {
			s := tasksPage(style)
			counter := refOf(t, s, "text", "4 tasks remaining")
			for _, desc := range []string{
				"the tasks remaining counter",
				`the "4 tasks remaining" text`,
				"the 4 tasks remaining text",
				"the remaining count",
				`"4 tasks remaining"`,
				"tasks remaining",
			} {
				r := Locate(s, desc)
				if r.Target == nil || r.Target.Node.Ref != counter {
					t.Errorf("%s: got %s (%s), want the counter %s", desc, textLabel(r.Target), r.Detail, counter)
				}
			}
			// The label of an item, for double-click to edit.
			for k, item := range zooItems {
				want := refOf(t, s, "text", item)
				for _, desc := range []string{"the " + item + " label", "double click the " + item + " label", `the "` + item + `" text`} {
					r := Locate(s, desc)
					if r.Target == nil || r.Target.Node.Ref != want {
						t.Errorf("%s: got %s (%s), want text %q", desc, textLabel(r.Target), r.Detail, item)
					}
				}
				// An anchor: the checkbox in the same row, whatever names it.
				desc := "the checkbox next to " + item
				if r := Locate(s, desc); r.Target == nil || r.Target.Node.Ref != checkboxBeside(t, s, k) {
					t.Errorf("%s: got %s (%s), want row %d's checkbox", desc, textLabel(r.Target), r.Detail, k)
				}
			}
		})
	}
}

func TestTextIsAnActionTargetOnlyWhenNothingElseFits(t *testing.T) {
	// divsoup: the checkbox has no name, the text is all there is.
	s := tasksPage("divsoup")
	r := Locate(s, "double click on oat milk")
	if r.Target == nil || r.Target.Node.Role != "text" || r.Target.Node.Text != "oat milk" {
		t.Errorf("divsoup: got %s (%s), want the oat milk text", textLabel(r.Target), r.Detail)
	}
	// semantic: the checkbox is named oat milk; an action goes to it, not
	// to the text beside it.
	s = tasksPage("semantic")
	r = Locate(s, "double click on oat milk")
	if r.Target == nil || r.Target.Node.Role != "checkbox" || r.Target.Node.Name != "oat milk" {
		t.Errorf("semantic: got %s (%s), want the oat milk checkbox", textLabel(r.Target), r.Detail)
	}
	// A button and a text of the same words: asked for a button, or with
	// no role word, the button; asked for the text, the text.
	s = snap(el("main", "", kids(
		el("paragraph", "", kids(txt("Delete"))),
		el("article", "", kids(txt("Delete"), el("button", "Delete", at(10, 10, 60, 30)))),
	)))
	for _, desc := range []string{"the Delete button", "click Delete", "Delete", "click the Delete button"} {
		if r := Locate(s, desc); r.Target == nil || r.Target.Node.Role != "button" {
			t.Errorf("%s: got %s (%s), want the button", desc, textLabel(r.Target), r.Detail)
		}
	}
	// Two texts say Delete: asked for the text, that is ambiguous.
	if r := Locate(s, "the Delete text"); r.Reason != ReasonAmbiguous {
		t.Errorf("the Delete text: got %s %s, want ambiguous", textLabel(r.Target), r.Reason)
	}
	// A text never stands in for a control of the role asked.
	s = snap(el("main", "", kids(txt("Save"), el("button", "Cancel", at(10, 10, 60, 30)))))
	for _, desc := range []string{"the Save button", "click the Save button", "the Save link", "the Save checkbox"} {
		if r := Locate(s, desc); r.Target != nil {
			t.Errorf("%s: got %s, want no target", desc, textLabel(r.Target))
		}
	}
}

func TestTextNearMisses(t *testing.T) {
	s := snap(el("main", "", kids(
		el("article", "", kids(txt("3 tasks remaining", at(10, 10, 200, 20)))),
		el("article", "", kids(txt("3 tasks remaining today", at(10, 100, 200, 20)))),
		el("article", "", kids(txt("Total: $12.00", at(10, 200, 200, 20)))),
		el("button", "Pay", at(10, 260, 80, 30)),
		el("button", "Back", at(10, 160, 80, 30)),
	)))
	for _, tt := range []struct{ desc, want string }{
		{`the "3 tasks remaining" text`, "3 tasks remaining"},
		{`the "3 tasks remaining today" text`, "3 tasks remaining today"},
		{`"3 tasks remaining"`, "3 tasks remaining"},
		{"the 3 tasks remaining text", "3 tasks remaining"},
		{"the total price", "Total: $12.00"},
		{"the total", "Total: $12.00"},
	} {
		r := Locate(s, tt.desc)
		if r.Target == nil || r.Target.Node.Text != tt.want {
			t.Errorf("%s: got %s (%s), want text %q", tt.desc, textLabel(r.Target), r.Detail, tt.want)
		}
	}
	// Not quoted and not exact: both runs say it.
	if r := Locate(s, "the tasks remaining counter"); r.Reason != ReasonAmbiguous {
		t.Errorf("the tasks remaining counter: got %s, want ambiguous", textLabel(r.Target))
	}
	if r := Locate(s, `the "tasks remaining" text`); r.Reason != ReasonAmbiguous {
		t.Errorf(`the "tasks remaining" text: got %s, want ambiguous`, textLabel(r.Target))
	}
	// Anchored on text.
	if r := Locate(s, "the button below the total"); r.Target == nil || r.Target.Node.Name != "Pay" {
		t.Errorf("the button below the total: got %s (%s), want Pay", textLabel(r.Target), r.Detail)
	}
	if r := Locate(s, "the button above the total"); r.Target == nil || r.Target.Node.Name != "Back" {
		t.Errorf("the button above the total: got %s (%s), want Back", textLabel(r.Target), r.Detail)
	}
}

func TestTextAnchorThatAppearsTwiceIsAmbiguous(t *testing.T) {
	// Two rows read "bread": which checkbox is "next to bread" no one can say.
	var main []*ax.Node
	for k, item := range []string{"oat milk", "bread", "eggs", "bread"} {
		y := 200 + 48*float64(k)
		main = append(main, el("checkbox", "", at(197, y, 20, 20)), txt(item, at(229, y-1, 514, 22)))
	}
	s := snap(el("main", "", kids(main...)))
	if r := Locate(s, "the checkbox next to bread"); r.Reason != ReasonAmbiguous {
		t.Errorf("the checkbox next to bread: got %s (%s), want ambiguous", textLabel(r.Target), r.Detail)
	}
	if r := Locate(s, "the checkbox next to eggs"); r.Target == nil || r.Target.Node.Box.Y != 296 {
		t.Errorf("the checkbox next to eggs: got %s (%s), want the third row's", textLabel(r.Target), r.Detail)
	}
}

func TestTextIntentHoldsWhileItsWordsDo(t *testing.T) {
	s := tasksPage("divsoup")
	r := Locate(s, "the tasks remaining counter")
	if r.Target == nil {
		t.Fatalf("no target: %s", r.Detail)
	}
	if r.Intent.Attributes["role"] != "text" || r.Intent.Attributes["text~"] != "tasks remaining" {
		t.Fatalf("intent %+v", r.Intent)
	}
	counter := r.Target.Node
	if ok, why := Check(s, counter, nil, r.Intent); !ok {
		t.Fatalf("Check on its own target: %s", why)
	}
	// The count changes, the words hold: still the counter.
	counter.Text = "3 tasks remaining"
	if ok, why := Check(s, counter, nil, r.Intent); !ok {
		t.Errorf("after the count changed: %s", why)
	}
	// The exact text was asked for: another count is another text.
	counter.Text = "4 tasks remaining"
	r = Locate(s, `the "4 tasks remaining" text`)
	if r.Target == nil || r.Intent.Attributes["text"] != "4 tasks remaining" {
		t.Fatalf("exact: target %s, intent %+v", textLabel(r.Target), r.Intent)
	}
	for _, changed := range []string{"3 tasks remaining", "14 tasks remaining", "4 tasks remaining today"} {
		counter.Text = changed
		if ok, why := Check(s, counter, nil, r.Intent); ok || !strings.HasPrefix(why, ReasonAttributeChanged) {
			t.Errorf("exact text, now %q: ok %v, %s", changed, ok, why)
		}
	}
	// A label named in full is that text, not one that contains it.
	s2 := tasksPage("divsoup")
	r2 := Locate(s2, "the oat milk label")
	if r2.Target == nil || r2.Intent.Attributes["text"] != "oat milk" {
		t.Fatalf("the oat milk label: target %s, intent %+v", textLabel(r2.Target), r2.Intent)
	}
	var honey *ax.Node
	s2.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "text" && n.Text == "oat milk and honey" {
			honey = n
		}
		return true
	})
	if ok, _ := Check(s2, honey, nil, r2.Intent); ok {
		t.Error("the oat milk and honey text passed for the oat milk label")
	}
	// An element that is not text is not the text it stood for.
	if ok, _ := Check(s, el("button", "4 tasks remaining"), nil, r.Intent); ok {
		t.Error("a button passed for a text")
	}

	// Anchored on text: the relation names the text, and breaks when the
	// checkbox is no longer beside it.
	s = tasksPage("webcomponents")
	r = Locate(s, "the checkbox next to bread")
	if r.Target == nil {
		t.Fatalf("no target: %s", r.Detail)
	}
	rel := r.Intent.Related
	if len(rel) != 1 || rel[0].Role != "text" || rel[0].Name != "bread" {
		t.Fatalf("relations %+v", rel)
	}
	if ok, why := Check(s, r.Target.Node, nil, r.Intent); !ok {
		t.Fatalf("Check on its own target: %s", why)
	}
	r.Target.Node.Box = &ax.Box{X: 197, Y: 600, W: 20, H: 20}
	if ok, why := Check(s, r.Target.Node, nil, r.Intent); ok || !strings.HasPrefix(why, ReasonRelationBroken) {
		t.Errorf("moved away from bread: ok %v, %s", ok, why)
	}
}
