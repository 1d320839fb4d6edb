package agent

import (
	"context"
	_ "embed"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/locate"
)

//go:embed prompts/locate.md
var locatePrompt string

// DefaultMaxOutline is how many characters of snapshot outline the locator
// sends at most.
const DefaultMaxOutline = 60_000

// Locator is a locate.Locator that asks a model. It sits behind the local
// locator (locate.Chain{locate.Local{}, llm}), so the model is asked only
// when the local one is not sure.
//
// It sends the description as given, placeholders such as
// {{ secret.PASSWORD }} unresolved, and the snapshot's outline, and forces
// one call of the choose_element tool: reasoning, ref, then the attributes
// and related elements the description relied on (seed 001).
type Locator struct {
	Client *Client
	// MaxOutline caps the outline sent, in characters; zero means
	// DefaultMaxOutline. A longer page is sent as its interactive outline,
	// and cut if that is still too long, with a note saying so.
	MaxOutline int
}

// Locate implements locate.Locator.
//
// With a target, the result's Intent holds the attributes and relations the
// model said it relied on, always with the target's role and (when it has
// one) its name, and only those that hold for the target in this snapshot:
// a condition that fails where it was made would miss on every replay. When
// the model says nothing fits, the result has Reason locate.ReasonNoMatch
// and its reasoning as Detail. The reasoning, which is printed and stored,
// is kept up to MaxReasoning bytes, cut with a marker.
//
// A malformed answer (no tool call, an unknown tool, arguments that are not
// JSON, a ref not in the snapshot) is asked again once with a message naming
// the problem; a second one fails with an error matching ErrBadResponse.
// Failures of the model call itself are the client's errors (see
// Client.Complete), wrapped.
func (l *Locator) Locate(ctx context.Context, s *ax.Snapshot, description string) (locate.Result, error) {
	if l.Client == nil {
		return locate.Result{}, fmt.Errorf("locate with the model: %w: no client", ErrConfig)
	}
	tool, err := chooseElementTool()
	if err != nil {
		return locate.Result{}, fmt.Errorf("locate with the model: %w", err)
	}
	var got answer
	req := Request{
		Purpose: "locate",
		Messages: []Message{
			{Role: RoleSystem, Content: strings.TrimSpace(locatePrompt)},
			{Role: RoleUser, Content: l.question(s, description)},
		},
		Tools:      []Tool{tool},
		ToolChoice: ChooseElement,
		Check: func(r *Response) error {
			a, err := readChoice(r, s)
			got = a
			return err
		},
	}
	calls, err := l.Client.completeForced(ctx, req, "Call "+ChooseElement+" once, with valid JSON arguments and a ref copied from the snapshot, or an empty ref if nothing fits.")
	if err != nil {
		return locate.Result{ModelCalls: calls}, fmt.Errorf("locate with the model: %w", err)
	}
	res := result(s, got)
	res.ModelCalls = calls
	return res, nil
}

// question is the user message: the description, the page and its outline.
func (l *Locator) question(s *ax.Snapshot, description string) string {
	outline, note := l.outline(s)
	var b strings.Builder
	b.WriteString("Description: " + description + "\n\n")
	b.WriteString("Page: " + strconv.Quote(s.Title) + " at " + s.URL + "\n")
	if note != "" {
		b.WriteString("Note: " + note + "\n")
	}
	b.WriteString("\n<snapshot>\n" + outline + "</snapshot>\n")
	return b.String()
}

// outline is the snapshot's outline within MaxOutline characters, and a note
// when it had to be shortened.
func (l *Locator) outline(s *ax.Snapshot) (string, string) {
	max := l.MaxOutline
	if max <= 0 {
		max = DefaultMaxOutline
	}
	full := s.Text(ax.TextOptions{})
	if len(full) <= max {
		return full, ""
	}
	inter := s.Text(ax.TextOptions{InteractiveOnly: true})
	if len(inter) <= max {
		return inter, fmt.Sprintf("the page's outline has %d characters; only interactable elements and their containers are shown", len(full))
	}
	cut := strings.LastIndexByte(inter[:max], '\n') + 1
	if cut <= 0 {
		cut = max
	}
	return inter[:cut], fmt.Sprintf("the page's outline has %d characters; only interactable elements and their containers are shown, cut after %d of %d characters", len(full), cut, len(inter))
}

// result maps a validated answer to a locate.Result.
func result(s *ax.Snapshot, a answer) locate.Result {
	raw, dropped := a.rawIntent()
	if a.node == nil {
		detail := clip(a.args.Reasoning, MaxReasoning)
		if detail == "" {
			detail = "the model found no element that fits"
		}
		return locate.Result{Reason: locate.ReasonNoMatch, Detail: detail, Intent: raw}
	}
	n := a.node
	var anc []*ax.Node
	s.Walk(func(x *ax.Node, ancestors []*ax.Node) bool {
		if x == n {
			anc = append([]*ax.Node(nil), ancestors...)
			return false
		}
		return anc == nil
	})
	in, more := heldIntent(s, n, anc, raw)
	dropped = append(dropped, more...)
	why := []string{"model: " + clip(a.args.Reasoning, MaxReasoning)}
	if len(dropped) > 0 {
		why = append(why, clip("dropped, not true of the target: "+strings.Join(dropped, ", "), MaxReasoning))
	}
	c := locate.Candidate{Node: n, Ancestors: anc, Score: 1, Why: why}
	return locate.Result{Target: &c, Candidates: []locate.Candidate{c}, Intent: in}
}

// heldIntent keeps the conditions of raw that hold for n in s, adding the
// node's role and name, and lists those it dropped.
func heldIntent(s *ax.Snapshot, n *ax.Node, anc []*ax.Node, raw session.Intent) (session.Intent, []string) {
	var dropped []string
	in := session.Intent{Attributes: map[string]string{"role": n.Role}}
	holds := func(t session.Intent) bool {
		ok, _ := locate.Check(s, n, anc, t)
		return ok
	}
	for _, k := range slices.Sorted(maps.Keys(raw.Attributes)) {
		v := raw.Attributes[k]
		if k == "role" {
			if v != n.Role {
				dropped = append(dropped, fmt.Sprintf("role=%q", v))
			}
			continue
		}
		if holds(session.Intent{Attributes: map[string]string{k: v}}) {
			in.Attributes[k] = v
		} else {
			dropped = append(dropped, fmt.Sprintf("%s=%q", k, v))
		}
	}
	if _, ok := in.Attributes["name"]; !ok && n.Name != "" {
		in.Attributes["name"] = n.Name
	}
	// Relations one at a time, ordinals last: an ordinal counts among the
	// elements that meet every other condition.
	try := func(r session.Relation) {
		t := session.Intent{Attributes: in.Attributes, Related: append(append([]session.Relation(nil), in.Related...), r)}
		if holds(t) {
			in.Related = t.Related
		} else {
			dropped = append(dropped, fmt.Sprintf("%s %s %q", r.Relation, r.Role, r.Name))
		}
	}
	for _, r := range raw.Related {
		if r.Relation != "nth" {
			try(r)
		}
	}
	for _, r := range raw.Related {
		if r.Relation == "nth" {
			try(r)
		}
	}
	return in, dropped
}
