package locate

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// Entries of role-less lists, as the snapshot draws a div per task: role
// "item", no name, a checkbox, the text and an icon-only button in each.

// taskEntry is a role-less task at (x, y): its checkbox is named check (may be
// ""), its × button has the hint xHint.
func taskEntry(text string, x, y float64, check, xHint string) *ax.Node {
	box := el("checkbox", check, at(x+12, y+14, 20, 20))
	x1 := el("button", "×", at(x+200, y+8, 32, 32))
	x1.States.Hint = xHint
	return el("item", "", kids(box, txt(text, at(x+44, y+12, 140, 24)), x1))
}

// pickRef returns the ref Locate picked for desc, "" with none, and the
// reason.
func pickRef(s *ax.Snapshot, desc string) (string, string) {
	r := Locate(s, desc)
	if r.Target == nil {
		return "", r.Reason
	}
	return r.Target.Node.Ref, ""
}

// The item below or above an item is the next one in its own list and its
// own column: two role-less lists side by side are one run of items to the
// snapshot, and the navigation's list items above are another list.
func TestItemBelowStaysInItsList(t *testing.T) {
	bread, eggs := taskEntry("bread", 0, 100, "", "tl x"), taskEntry("eggs", 0, 148, "", "tl x")
	apples, pears, plums := taskEntry("apples", 400, 100, "", "tl x"), taskEntry("pears", 400, 148, "", "tl x"), taskEntry("plums", 400, 196, "", "tl x")
	s := snap(banner(), el("main", "", kids(bread, eggs, apples, pears, plums)))
	for _, c := range []struct {
		desc string
		want *ax.Node // nil: no pick
	}{
		{"the item below the bread item", eggs},
		{"the item above the eggs item", bread},
		{"the item below the apples item", pears},
		{"the item above the plums item", pears},
		// eggs ends its column: plums is lower, in the list beside it
		{"the item below the eggs item", nil},
		// bread starts its column: the navigation's list items are above it
		{"the item above the bread item", nil},
		{"the item above the apples item", nil},
		// an item beside another is in the other list, on its line
		{"the item right of the bread item", apples},
	} {
		got, why := pickRef(s, c.desc)
		want := ""
		if c.want != nil {
			want = c.want.Ref
		}
		if got != want {
			t.Errorf("%q: got %q (%s), want %q", c.desc, got, why, want)
		}
	}
}

// "the oat milk checkbox" is the checkbox of the item reading oat milk when
// the checkboxes are named "Complete"; never when two items read it, never
// the one in an item that only contains the words, and never over a
// checkbox really named oat milk.
func TestCheckboxOfTheItemReadingItsName(t *testing.T) {
	oat, honey := taskEntry("oat milk", 0, 100, "Complete", ""), taskEntry("oat milk and honey", 0, 148, "Complete", "")
	bread := taskEntry("bread", 0, 196, "Complete", "")
	s := snap(el("main", "", kids(oat, honey, bread)))
	oatBox, honeyBox := oat.Children[0], honey.Children[0]
	for desc, want := range map[string]string{
		"the oat milk checkbox":           oatBox.Ref,
		"check the oat milk checkbox":     oatBox.Ref,
		"the oat milk and honey checkbox": honeyBox.Ref,
		"the honey checkbox":              "", // a part of an item's text
		`the "oat milk" checkbox`:         "", // quoted: the checkbox's own name
		"the oat milk button":             "", // only toggles are named after their item
	} {
		if got, why := pickRef(s, desc); got != want {
			t.Errorf("%q: got %q (%s), want %q", desc, got, why, want)
		}
	}

	// two items read "oat milk": an ambiguity
	twice := snap(el("main", "", kids(taskEntry("oat milk", 0, 100, "Complete", ""), taskEntry("oat milk", 0, 148, "Complete", ""))))
	if r := Locate(twice, "the oat milk checkbox"); r.Target != nil || r.Reason != ReasonAmbiguous {
		t.Errorf("two oat milk items: target %v, reason %q, want an ambiguity", r.Target, r.Reason)
	}

	// a checkbox named oat milk elsewhere is the oat milk checkbox
	named := el("checkbox", "oat milk", at(600, 400, 20, 20))
	withNamed := snap(el("main", "", kids(taskEntry("oat milk", 0, 100, "Complete", ""), named)))
	if got, why := pickRef(withNamed, "the oat milk checkbox"); got != named.Ref {
		t.Errorf("with a checkbox named oat milk: got %q (%s), want %q", got, why, named.Ref)
	}

	// two checkboxes in the item: which one is not said
	two := taskEntry("oat milk", 0, 100, "Complete", "")
	two.Children = append(two.Children, el("checkbox", "Star", at(240, 114, 20, 20)))
	if r := Locate(snap(el("main", "", kids(two))), "the oat milk checkbox"); r.Target != nil {
		t.Errorf("two checkboxes in the item: picked %s", r.Target.Node.Line())
	}
}

// A × in an entry deletes it; a × in a dialog (or anything a × closes)
// is no Delete button, nor is a × whose class says close.
func TestCrossOfAnEntryDeletes(t *testing.T) {
	eggs := taskEntry("eggs", 0, 100, "", "tl x")
	closeX := el("button", "×", at(500, 110, 32, 32))
	closeX.States.Hint = "tl x"
	classed := taskEntry("bread", 0, 148, "", "close btn")
	dlg := el("dialog", "Edit", kids(taskEntry("in dialog", 400, 300, "", "x"))) // an item in a dialog: its × deletes the item
	s := snap(el("main", "", kids(eggs, classed)), el("dialog", "Notice", kids(txt("Saved"), closeX)), dlg)
	for desc, want := range map[string]string{
		"the Delete button in the eggs item":      eggs.Children[2].Ref,
		"the Remove button in the eggs item":      eggs.Children[2].Ref,
		"the Delete button in the bread item":     "", // its class says close
		"the Delete button in the Notice dialog":  "",
		"the Delete button in the in dialog item": dlg.Children[0].Children[2].Ref,
		"the Close button in the Notice dialog":   closeX.Ref,
	} {
		if got, why := pickRef(s, desc); got != want {
			t.Errorf("%q: got %q (%s), want %q", desc, got, why, want)
		}
	}
}

// The replay check holds what the new readings found while the page stays,
// and misses when the entry no longer reads the name (one that only starts
// with it still counts while no entry reads it exactly, as for any "in"
// container).
func TestEntryReadingsReplay(t *testing.T) {
	page := func(first string) *ax.Snapshot {
		return snap(banner(), el("main", "", kids(
			taskEntry(first, 0, 100, "Complete", "tl x"), taskEntry("bread", 0, 148, "Complete", "tl x"))))
	}
	for _, desc := range []string{"the oat milk checkbox", "the Delete button in the oat milk item", "the item above the bread item"} {
		s := page("oat milk")
		r := located(t, s, desc)
		n, anc := refNode(s, r.Target.Node.Ref)
		if ok, why := Check(s, n, anc, r.Intent); !ok {
			t.Errorf("%q: the check misses on the page it was found on: %s", desc, why)
		}
		if desc == "the item above the bread item" {
			continue
		}
		s2 := page("eggs")
		n2, anc2 := refNode(s2, r.Target.Node.Ref)
		if ok, _ := Check(s2, n2, anc2, r.Intent); ok {
			t.Errorf("%q: the check holds once the item reads %q", desc, "eggs")
		}
	}
}
