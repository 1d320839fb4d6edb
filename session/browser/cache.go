package browser

import (
	"context"
	"fmt"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// CaptureElement records how to find the element behind ref again: unique
// selectors of several kinds (id, test id, aria and other attributes, text,
// label, structural path) and a snapshot of the node. Random-looking ids and
// class names and the banned attributes are never used.
func (p *Page) CaptureElement(ctx context.Context, ref string, banned []string) ([]session.Selector, session.NodeSnapshot, error) {
	var res struct {
		Error     string               `json:"error"`
		Selectors []session.Selector   `json:"selectors"`
		Node      session.NodeSnapshot `json:"node"`
	}
	if banned == nil {
		banned = []string{}
	}
	if err := p.call(ctx, &res, "captureElement", ref, banned); err != nil {
		return nil, session.NodeSnapshot{}, fmt.Errorf("capture %s: %w", ref, err)
	}
	if res.Error != "" {
		return nil, session.NodeSnapshot{}, &ActionError{Action: "capture", Ref: ref, Reason: ReasonDetached}
	}
	return res.Selectors, res.Node, nil
}

// Resolved is the element cached selectors voted for.
type Resolved struct {
	Ref       string
	Node      *ax.Node   // role, name, states (colour included), box
	Ancestors []*ax.Node // named containers from the outside in
	Visible   bool
	// HoverOnly says the element is not visible only because a container
	// of it is not hovered (a CSS :hover rule shows it); an action on it
	// hovers the container first. Visible is false then.
	HoverOnly bool
	Votes     int // selectors that found the winner
	Matched   int // selectors that found exactly one element
	Total     int
	// Reason is set when there is no winner: "no-match" (no selector found
	// a single element) or "selector-conflict" (a tie between elements).
	Reason string
}

// ResolveCached evaluates all selectors in one round trip and returns the
// element most of them agree on, with what is needed to check the intent.
func (p *Page) ResolveCached(ctx context.Context, selectors []session.Selector) (*Resolved, error) {
	var res struct {
		Ref       string     `json:"ref"`
		Node      *wireNode  `json:"node"`
		Ancestors []wireNode `json:"ancestors"`
		Visible   bool       `json:"visible"`
		Hover     bool       `json:"hover"`
		Votes     int        `json:"votes"`
		Matched   int        `json:"matched"`
		Total     int        `json:"total"`
		Reason    string     `json:"reason"`
	}
	if selectors == nil {
		selectors = []session.Selector{}
	}
	if err := p.call(ctx, &res, "resolveCached", selectors); err != nil {
		return nil, fmt.Errorf("resolve cached element: %w", err)
	}
	out := &Resolved{Ref: res.Ref, Visible: res.Visible, HoverOnly: res.Hover, Votes: res.Votes, Matched: res.Matched, Total: res.Total, Reason: res.Reason}
	if res.Node != nil {
		out.Node = res.Node.node()
	}
	for _, a := range res.Ancestors {
		out.Ancestors = append(out.Ancestors, a.node())
	}
	return out, nil
}

type wireNode struct {
	Role   string    `json:"role"`
	Name   string    `json:"name"`
	Ref    string    `json:"ref"`
	States ax.States `json:"states"`
	Box    *ax.Box   `json:"box"`
	Text   string    `json:"text"` // the element's text when it differs from its name
	Cut    bool      `json:"cut"`  // the name or a value was cut by the text cap
	Cell   string    `json:"cell"` // a row ancestor's first cell's name
}

func (w wireNode) node() *ax.Node {
	n := &ax.Node{Role: w.Role, Name: w.Name, Ref: w.Ref, States: w.States, Box: w.Box, Cut: w.Cut}
	if w.Text != "" {
		n.Children = []*ax.Node{{Role: "text", Text: w.Text}}
	}
	if w.Cell != "" {
		n.Children = append(n.Children, &ax.Node{Role: "cell", Name: w.Cell})
	}
	return n
}
