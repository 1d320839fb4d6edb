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
	c, err := p.Capture(ctx, ref, banned)
	if err != nil {
		return nil, session.NodeSnapshot{}, err
	}
	return c.Selectors, c.Node, nil
}

// Captured is what CaptureElement records, with where the node stands
// (neighbour text, containers) for re-identification.
type Captured struct {
	Selectors []session.Selector
	Node      session.NodeSnapshot
	Context   session.NodeContext
}

// Capture is CaptureElement with the node's context.
func (p *Page) Capture(ctx context.Context, ref string, banned []string) (*Captured, error) {
	var res struct {
		Error     string               `json:"error"`
		Selectors []session.Selector   `json:"selectors"`
		Node      session.NodeSnapshot `json:"node"`
		Context   session.NodeContext  `json:"context"`
	}
	if banned == nil {
		banned = []string{}
	}
	if err := p.call(ctx, &res, "captureElement", ref, banned); err != nil {
		return nil, fmt.Errorf("capture %s: %w", ref, err)
	}
	if res.Error != "" {
		return nil, &ActionError{Action: "capture", Ref: ref, Reason: ReasonDetached}
	}
	return &Captured{Selectors: res.Selectors, Node: res.Node, Context: res.Context}, nil
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
	// a single element), "selector-conflict" (a tie between elements) or
	// "place-only" (only the structural path found one, while a selector
	// that named the element, its id, test id, label, attributes or text,
	// finds another element or several: the element's place may have been
	// taken by another; Ref and Node then describe that element, for the
	// reason the check would give it).
	Reason string
	// Place is set when only the structural path found the winner (the
	// selectors that name it found nothing): the winner's tag and the class
	// names a person wrote, for the runner to compare with the recorded
	// node's.
	Place *Place
}

// Place is an element found by its place alone: its tag and own classes.
type Place struct {
	Tag   string `json:"tag"`
	Class string `json:"class"`
}

// ResolveCached evaluates all selectors in one round trip and returns the
// element most of them agree on, with what is needed to check the intent.
func (p *Page) ResolveCached(ctx context.Context, selectors []session.Selector) (*Resolved, error) {
	var res struct {
		wireResolved
		Votes   int    `json:"votes"`
		Matched int    `json:"matched"`
		Total   int    `json:"total"`
		Reason  string `json:"reason"`
		Place   *Place `json:"place"`
	}
	if selectors == nil {
		selectors = []session.Selector{}
	}
	if err := p.call(ctx, &res, "resolveCached", selectors); err != nil {
		return nil, fmt.Errorf("resolve cached element: %w", err)
	}
	out := res.resolved()
	out.Votes, out.Matched, out.Total, out.Reason, out.Place = res.Votes, res.Matched, res.Total, res.Reason, res.Place
	return out, nil
}

// Reidentified is what re-identification found: the two candidates most
// like the recorded node, best first, each described as ResolveCached
// describes its winner (Votes, Matched and Total unset).
type Reidentified struct {
	Best, Second *Resolved // Second is nil when there was one candidate
	Score        float64   // Best's similarity to the recorded node, 0..1
	SecondScore  float64
	Candidates   int // elements scored
	// Anchored says something other than Best's text says it is the
	// recorded element: an id, test id, name, for or href kept, or the
	// same place on the page.
	Anchored bool
}

// Reidentify scores the page's elements against the node recorded with a
// cache row and its context, in one round trip. It answers nil, nil when
// the page has no element of a kind the node could be.
func (p *Page) Reidentify(ctx context.Context, node session.NodeSnapshot, where session.NodeContext) (*Reidentified, error) {
	type scored struct {
		wireResolved
		Score    float64 `json:"score"`
		Anchored bool    `json:"anchored"`
	}
	var res struct {
		Best       *scored `json:"best"`
		Second     *scored `json:"second"`
		Candidates int     `json:"candidates"`
		Reason     string  `json:"reason"`
	}
	if err := p.call(ctx, &res, "reidentify", node, where); err != nil {
		return nil, fmt.Errorf("re-identify cached element: %w", err)
	}
	if res.Best == nil {
		return nil, nil
	}
	out := &Reidentified{Best: res.Best.resolved(), Score: res.Best.Score, Candidates: res.Candidates, Anchored: res.Best.Anchored}
	if res.Second != nil {
		out.Second, out.SecondScore = res.Second.resolved(), res.Second.Score
	}
	return out, nil
}

// wireResolved is a described element as page.js sends it.
type wireResolved struct {
	Ref       string     `json:"ref"`
	Node      *wireNode  `json:"node"`
	Ancestors []wireNode `json:"ancestors"`
	Visible   bool       `json:"visible"`
	Hover     bool       `json:"hover"`
}

func (w wireResolved) resolved() *Resolved {
	out := &Resolved{Ref: w.Ref, Visible: w.Visible, HoverOnly: w.Hover}
	if w.Node != nil {
		out.Node = w.Node.node()
	}
	for _, a := range w.Ancestors {
		out.Ancestors = append(out.Ancestors, a.node())
	}
	return out
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
