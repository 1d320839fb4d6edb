package locate

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// TestPartialNameIsNoMatch: a description whose name has a word no element
// has ("the Bob Stone (copy) row" with no copy, "the Cara Ortiz row" with
// only Cara Diaz) matches nothing; sharing some words with a row is not
// being that row, for a target or for an expectation.
func TestPartialNameIsNoMatch(t *testing.T) {
	row := func(name string) *ax.Node {
		return el("row", name, inert(), kids(el("cell", name, inert()), el("cell", "Editor", inert()), el("button", "More actions")))
	}
	s := snap(el("table", "Members", inert(), kids(row("Bob Stone"), row("Cara Diaz"), row("Ann Lee"))))
	for _, desc := range []string{"the Bob Stone (copy) row", "the Cara Ortiz row", "the Bob Stone copy row", "the More actions button in the Cara Ortiz row", "the Ann Leeds row"} {
		if r := Locate(s, desc); r.Target != nil {
			t.Errorf("%q matched %s %q (%v), want no match", desc, r.Target.Node.Role, r.Target.Node.Name, r.Target.Why)
		}
	}
	for desc, want := range map[string]string{"the Bob Stone row": "Bob Stone", "the Cara Diaz row": "Cara Diaz", "the row for Ann Lee": "Ann Lee"} {
		if r := Locate(s, desc); r.Target == nil || r.Target.Node.Name != want {
			t.Errorf("%q: got %+v (%s), want the %s row", desc, r.Target, r.Detail, want)
		}
	}
}

// TestLooseTextMustReadTheName: text loosely fits a control word ("the All
// filter" as a clickable span), so it must read the name: a run that only
// contains the word ("Mark all as complete") is not the All filter.
func TestLooseTextMustReadTheName(t *testing.T) {
	s := snap(el("main", "", inert(), kids(
		el("checkbox", "", kids()), txt("Mark all as complete"),
		el("generic", "", inert(), kids(txt("All"), txt("Active"), txt("Completed"))))))
	for _, n := range s.Root[0].Children {
		if n.Role == "text" {
			n.Ref = "t" + n.Text
		}
	}
	for _, n := range s.Root[0].Children[2].Children {
		n.Ref = "t" + n.Text
	}
	if r := Locate(s, "the All filter"); r.Target == nil || r.Target.Node.Text != "All" {
		t.Errorf("the All filter: %+v (%s), want the text All", r.Target, r.Detail)
	}
	s.Root[0].Children[2].Children = s.Root[0].Children[2].Children[1:] // no "All" text any more
	if r := Locate(s, "the All filter"); r.Target != nil {
		t.Errorf("the All filter with no All: picked %s %q, want no match", r.Target.Node.Role, r.Target.Node.Text)
	}
}
