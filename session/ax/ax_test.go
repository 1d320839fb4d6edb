package ax

import "testing"

func sample() *Snapshot {
	btn := &Node{Role: "button", Name: "Menu", Ref: "e7", States: States{Expanded: "false", Interactive: true}}
	return &Snapshot{Total: 9, Shown: 7, Root: []*Node{
		{Role: "navigation", Name: "Primary", Ref: "e3", Children: []*Node{
			{Role: "link", Name: "Home", Ref: "e5", States: States{URL: "/", Interactive: true}},
			btn,
		}},
		{Role: "heading", Name: "Users", Ref: "e8", States: States{Level: 1}},
		{Role: "paragraph", Ref: "e9", Children: []*Node{{Role: "text", Text: "Signed in as alice"}}},
		{Role: "list", Ref: "e10", More: 2, Children: []*Node{{Role: "listitem", Ref: "e11", Children: []*Node{{Role: "text", Text: " padded "}}}}},
	}}
}

func TestText(t *testing.T) {
	got := sample().Text(TextOptions{})
	want := `- navigation "Primary":
  - link "Home" [url=/] [ref=e5]
  - button "Menu" [expanded=false] [ref=e7]
- heading "Users" [level=1]
- paragraph: Signed in as alice
- list:
  - listitem: " padded "
  - … 2 more
- … 2 more (snapshot capped at 7 nodes; scope to a ref to see them)
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	got = sample().Text(TextOptions{InteractiveOnly: true})
	want = `- navigation "Primary":
  - link "Home" [url=/] [ref=e5]
  - button "Menu" [expanded=false] [ref=e7]
- list:
  - … 2 more
- … 2 more (snapshot capped at 7 nodes; scope to a ref to see them)
`
	if got != want {
		t.Errorf("interactive only, got:\n%s\nwant:\n%s", got, want)
	}
}

func TestFindWalkInteractable(t *testing.T) {
	s := sample()
	if n := s.Find("e7"); n == nil || n.Name != "Menu" {
		t.Errorf("Find(e7) = %+v", n)
	}
	if s.Find("e99") != nil {
		t.Error("Find of an unknown ref")
	}
	var names []string
	for _, n := range s.Interactable() {
		names = append(names, n.Name)
	}
	if len(names) != 2 || names[0] != "Home" || names[1] != "Menu" {
		t.Errorf("interactable %v", names)
	}
	var depth int
	s.Walk(func(n *Node, anc []*Node) bool {
		if n.Ref == "e7" {
			depth = len(anc)
		}
		return true
	})
	if depth != 1 {
		t.Errorf("ancestors of e7: %d", depth)
	}
}

func TestCutPrefix(t *testing.T) {
	for _, c := range []struct {
		in   string
		kept string
		more int
		ok   bool
	}{
		{"Save changes… 120 more characters", "Save changes", 120, true},
		{"… 7 more characters", "", 7, true},
		{"Show… more characters", "Show… more characters", 0, false},
		{"+ 5 more characters", "+ 5 more characters", 0, false},
		{"Save changes", "Save changes", 0, false},
		{"x… 99999999999999999999999 more characters", "x… 99999999999999999999999 more characters", 0, false},
	} {
		kept, more, ok := CutPrefix(c.in)
		if kept != c.kept || more != c.more || ok != c.ok {
			t.Errorf("CutPrefix(%q) = %q, %d, %v; want %q, %d, %v", c.in, kept, more, ok, c.kept, c.more, c.ok)
		}
	}
}

func TestTextSaysWhatTheTextBudgetLeftOut(t *testing.T) {
	s := &Snapshot{Root: []*Node{{Role: "paragraph", Children: []*Node{{Role: "text", Text: "Lorem… 12 more characters", Cut: true}}}},
		Total: 2, Shown: 2, TextMore: 12, TextCap: 5}
	want := "- paragraph: Lorem… 12 more characters\n- … 12 more characters (snapshot text capped at 5 characters; scope to a ref to see them)\n"
	if got := s.Text(TextOptions{}); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestLinePrintsTheHint(t *testing.T) {
	n := &Node{Role: "button", Ref: "e4", States: States{Interactive: true, Hint: `Delete · trash "can"`}}
	if got, want := n.Line(), `button [hint="Delete · trash \"can\""] [ref=e4]`; got != want {
		t.Errorf("Line() = %s, want %s", got, want)
	}
}

// TestLineSaysHoverOnly: a control shown only when its container is hovered
// says so in the outline, before its ref.
func TestLineSaysHoverOnly(t *testing.T) {
	n := &Node{Role: "button", Name: "Delete", Ref: "e27", States: States{Interactive: true, HoverOnly: true}}
	if got, want := n.Line(), `button "Delete" [hover-only] [ref=e27]`; got != want {
		t.Errorf("Line() = %s, want %s", got, want)
	}
}
