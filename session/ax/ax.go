// Package ax is the accessibility snapshot model shared by the browser, the
// locators, the agent and the studio: a tree of nodes with a role, an
// accessible name, states and, on interactable elements, a stable ref.
//
// The outline form (Snapshot.Text) is what a model reads, one node a line:
//
//	$ e2e snapshot http://localhost:8080/users
//	- navigation "Primary":
//	  - link "Home" [url=/] [ref=e5]
//	  - button "Menu" [expanded=false] [ref=e7]
//	- heading "Users" [level=1]
//
// Refs are printed on interactable elements only. Container nodes (rows,
// dialogs, menus, …) carry refs too, visible in JSON, so that a caller can
// scope a snapshot or check an element that cannot be clicked. A run of
// text carries the ref (and box) of its owner, the deepest element that
// holds all of it: the owner's own ref when it has a line of its own, so
// that a text and its paragraph are one element.
package ax

import (
	"strconv"
	"strings"
)

// Node is one element (or a run of text) in a snapshot.
type Node struct {
	Role     string  `json:"role"`
	Name     string  `json:"name,omitempty"`
	Ref      string  `json:"ref,omitempty"`
	Text     string  `json:"text,omitempty"` // for Role == "text": the text itself
	States   States  `json:"states,omitempty"`
	Box      *Box    `json:"box,omitempty"`
	Children []*Node `json:"children,omitempty"`
	// More, when positive, says that this many further nodes under this one
	// were left out by the snapshot's size cap.
	More int `json:"more,omitempty"`
	// Cut says that the snapshot's text caps cut the node's name, text or a
	// value (placeholder, URL) short: each cut string ends in the marker
	// "… N more characters" (see CutPrefix). A cut name is not the node's
	// whole name and must never be taken as equal to a phrase.
	Cut bool `json:"cut,omitempty"`
}

// CutPrefix splits a string the snapshot's text caps cut into the part kept
// (whole words of the original, except perhaps the last) and the number of
// characters left out. ok is false when s does not end in the cut marker.
// Only a node marked Cut has cut strings; a page's own text may end in
// something that reads like the marker.
func CutPrefix(s string) (kept string, more int, ok bool) {
	const tail = " more characters"
	if !strings.HasSuffix(s, tail) {
		return s, 0, false
	}
	rest := s[:len(s)-len(tail)]
	i := len(rest)
	for i > 0 && rest[i-1] >= '0' && rest[i-1] <= '9' {
		i--
	}
	if i == len(rest) || !strings.HasSuffix(rest[:i], "… ") {
		return s, 0, false
	}
	n, err := strconv.Atoi(rest[i:])
	if err != nil {
		return s, 0, false
	}
	return rest[:i-len("… ")], n, true
}

// Box is an element's border box in CSS pixels relative to the top page's viewport.
type Box struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// States are the ARIA states and properties the snapshot reports. Pointers and
// empty strings mean "not applicable"; they are omitted from the outline.
type States struct {
	Checked     string `json:"checked,omitempty"` // "true", "false" or "mixed"
	Disabled    bool   `json:"disabled,omitempty"`
	Expanded    string `json:"expanded,omitempty"` // "true" or "false"
	Selected    bool   `json:"selected,omitempty"`
	Pressed     string `json:"pressed,omitempty"` // "true", "false" or "mixed"
	Level       int    `json:"level,omitempty"`
	Value       string `json:"value,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	URL         string `json:"url,omitempty"`
	Focused     bool   `json:"focused,omitempty"`
	Interactive bool   `json:"interactive,omitempty"` // the element can be acted on; its ref is printed
	Color       string `json:"color,omitempty"`       // computed background (or text) colour as rgb(), interactable elements only
	// Hint is secondary evidence for an interactable element whose name is
	// empty or has no word ("×"): what a person would know it by that is not
	// its accessible name. Parts, most telling first, are joined by " · ":
	// the text next to an unlabelled field, a wrapper's aria-label or title,
	// its title, icon text, then the words of icons, test ids, class and id.
	// It is never part of Name; the text caps cut it as they cut a value.
	// A file input (and what stands for one) has a hint whatever its name;
	// a run of text has its role-less owner's class and id words (and
	// "status" or "alert" for an aria-live region), and a box the snapshot
	// gives a line of its own (role generic: an overlay classed "modal")
	// its class words.
	Hint string `json:"hint,omitempty"`
	// HoverOnly says the element is not shown (display: none or visibility:
	// hidden) until a container of it is hovered, by a CSS :hover rule. It
	// is not in the browser's accessibility tree; an action on it hovers
	// the container first, and it does not count as visible.
	HoverOnly bool `json:"hoverOnly,omitempty"`
	// File says the element is a file input, or stands for one that is not
	// rendered (its label, or the element around it alone): an upload
	// chooses files in it.
	File bool `json:"file,omitempty"`
	// Clickable says a role-less element (role generic, no name) looks
	// clickable to a person: a pointer cursor its parent does not have, an
	// onclick handler, tabindex >= 0, or, inside such an element, the
	// drawing of a control (see Looks). Chrome's tree has it as an
	// unnamed generic or not at all; its text is not its name.
	Clickable bool `json:"clickable,omitempty"`
	// Looks is the control a clickable is drawn as, by its shape alone:
	// "checkbox" (a small bordered near-square with no text) or "switch" (a
	// pill holding a knob); "" for other clickables.
	Looks string `json:"looks,omitempty"`
}

// Snapshot is the tree of one page (iframes and shadow roots included).
type Snapshot struct {
	URL   string  `json:"url"`
	Title string  `json:"title"`
	Root  []*Node `json:"nodes"`
	// Total is the number of nodes the page had; Shown how many are in Root.
	Total int `json:"total"`
	Shown int `json:"shown"`
	// TextMore is how many characters the snapshot's text budget (TextCap
	// characters in all) left out; zero when it held. Fields it cut carry
	// their own marker (see Node.Cut).
	TextMore int `json:"textMore,omitempty"`
	TextCap  int `json:"textCap,omitempty"`
}

// Walk calls fn for every node depth first, with the chain of its ancestors
// (nearest last). Returning false from fn skips the node's children.
func (s *Snapshot) Walk(fn func(n *Node, ancestors []*Node) bool) {
	var walk func(ns []*Node, anc []*Node)
	walk = func(ns []*Node, anc []*Node) {
		for _, n := range ns {
			if fn(n, anc) {
				walk(n.Children, append(anc, n))
			}
		}
	}
	walk(s.Root, nil)
}

// Find returns the node with the given ref, or nil.
func (s *Snapshot) Find(ref string) *Node {
	var found *Node
	s.Walk(func(n *Node, _ []*Node) bool {
		if found != nil {
			return false
		}
		if n.Ref == ref {
			found = n
			return false
		}
		return true
	})
	return found
}

// Interactable returns the interactable nodes in document order.
func (s *Snapshot) Interactable() []*Node {
	var out []*Node
	s.Walk(func(n *Node, _ []*Node) bool {
		if n.States.Interactive {
			out = append(out, n)
		}
		return true
	})
	return out
}

// TextOptions shape the outline.
type TextOptions struct {
	// InteractiveOnly keeps interactable elements and the named containers
	// on their path, dropping text and unnamed structure.
	InteractiveOnly bool
}

// Text renders the outline form. It is deterministic for a given snapshot.
func (s *Snapshot) Text(opts TextOptions) string {
	var b strings.Builder
	var write func(ns []*Node, depth int)
	write = func(ns []*Node, depth int) {
		for _, n := range ns {
			if opts.InteractiveOnly && !keep(n) {
				continue
			}
			indent := strings.Repeat("  ", depth)
			if n.Role == "text" {
				b.WriteString(indent + "- text: " + quoteIfNeeded(n.Text) + "\n")
				continue
			}
			b.WriteString(indent + "- " + n.Line())
			if !opts.InteractiveOnly && n.More == 0 && len(n.Children) == 1 && n.Children[0].Role == "text" && n.Name == "" {
				// A node whose only content is text reads best on one line.
				b.WriteString(": " + quoteIfNeeded(n.Children[0].Text) + "\n")
				continue
			}
			kids := n.Children
			if opts.InteractiveOnly {
				kids = filter(kids)
			}
			if len(kids) > 0 || n.More > 0 {
				b.WriteString(":\n")
				write(kids, depth+1)
				if n.More > 0 {
					b.WriteString(indent + "  - … " + strconv.Itoa(n.More) + " more\n")
				}
			} else {
				b.WriteString("\n")
			}
		}
	}
	write(s.Root, 0)
	if s.Total > s.Shown {
		b.WriteString("- … " + strconv.Itoa(s.Total-s.Shown) + " more (snapshot capped at " + strconv.Itoa(s.Shown) + " nodes; scope to a ref to see them)\n")
	}
	if s.TextMore > 0 {
		b.WriteString("- … " + strconv.Itoa(s.TextMore) + " more characters (snapshot text capped at " + strconv.Itoa(s.TextCap) + " characters; scope to a ref to see them)\n")
	}
	return b.String()
}

func filter(ns []*Node) []*Node {
	var out []*Node
	for _, n := range ns {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}

// keep says whether an interactive-only outline shows n: it is interactable
// or has an interactable descendant.
func keep(n *Node) bool {
	if n.States.Interactive {
		return true
	}
	for _, c := range n.Children {
		if keep(c) {
			return true
		}
	}
	return n.More > 0
}

// Line is the node's own outline line without indentation, children or the
// leading dash: `button "Menu" [expanded=false] [ref=e7]`.
func (n *Node) Line() string {
	var b strings.Builder
	b.WriteString(n.Role)
	if n.Name != "" {
		b.WriteString(" " + strconv.Quote(n.Name))
	} else if n.Role == "text" && n.Text != "" {
		b.WriteString(" " + strconv.Quote(n.Text)) // a run of text is known by what it says
	}
	st := n.States
	attr := func(k, v string) { b.WriteString(" [" + k + "=" + v + "]") }
	if st.Checked != "" {
		attr("checked", st.Checked)
	}
	if st.Disabled {
		b.WriteString(" [disabled]")
	}
	if st.Expanded != "" {
		attr("expanded", st.Expanded)
	}
	if st.Selected {
		b.WriteString(" [selected]")
	}
	if st.Pressed != "" {
		attr("pressed", st.Pressed)
	}
	if st.Level > 0 {
		attr("level", strconv.Itoa(st.Level))
	}
	if st.Value != "" {
		attr("value", strconv.Quote(st.Value))
	}
	if st.Placeholder != "" {
		attr("placeholder", strconv.Quote(st.Placeholder))
	}
	if st.URL != "" {
		attr("url", st.URL)
	}
	if st.Hint != "" {
		attr("hint", strconv.Quote(st.Hint))
	}
	if st.File {
		b.WriteString(" [file]")
	}
	if st.Focused {
		b.WriteString(" [focused]")
	}
	if st.HoverOnly {
		b.WriteString(" [hover-only]")
	}
	if st.Clickable {
		b.WriteString(" [clickable]")
	}
	if st.Looks != "" {
		attr("looks", st.Looks)
	}
	if n.Ref != "" && st.Interactive {
		attr("ref", n.Ref)
	}
	return b.String()
}

func quoteIfNeeded(s string) string {
	if strings.ContainsAny(s, "\n\"") || strings.TrimSpace(s) != s {
		return strconv.Quote(s)
	}
	return s
}
