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
