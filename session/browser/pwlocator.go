package browser

import (
	"context"
	"fmt"
)

// PWLocator is a Playwright locator for one element, as
// [Page.PlaywrightLocator] chose it: one of Playwright's own ways to find an
// element (Kind), optionally chained under a container (Scope) and narrowed
// to one of several matches (Nth).
type PWLocator struct {
	// Kind is role (getByRole), label (getByLabel), placeholder
	// (getByPlaceholder), testid (getByTestId, or a CSS attribute selector
	// when Attr is not data-testid), text (getByText) or css (page.locator).
	Kind string `json:"kind"`
	// Role and Name are getByRole's; Name is "" for an element with no
	// name; Exact says the name is matched whole and case-sensitively.
	Role  string `json:"role,omitempty"`
	Name  string `json:"name,omitempty"`
	Exact bool   `json:"exact,omitempty"`
	// HasText, for Kind role, filters the matches by their text
	// (.filter({ hasText })): how a row or list item is known.
	HasText string `json:"hasText,omitempty"`
	// Value is the label, placeholder, test id, text or CSS selector.
	Value string `json:"value,omitempty"`
	// Attr is the test-id attribute, for Kind testid.
	Attr string `json:"attr,omitempty"`
	// Scope is the container the locator is chained under, nil for none.
	Scope *PWScope `json:"scope,omitempty"`
	// Hover says the element shows only while its container (Scope) is
	// hovered: hover the scope first.
	Hover bool `json:"hover,omitempty"`
	// Nth, when not nil, picks the match at that index (0-based).
	Nth *int `json:"nth,omitempty"`
	// Count is how many elements the locator (without Nth) matched on the
	// page when it was chosen: 1 unless Nth is set.
	Count int `json:"count"`
	// Color is the element's colour as a person sees it: its background,
	// or its text colour when the background is transparent.
	Color *PWColor `json:"color,omitempty"`
	// Reason says why a CSS selector or an ordinal was the best left.
	Reason string `json:"reason,omitempty"`
	// Frames, for an element inside frames, are CSS selectors of the
	// frame elements from the top document down, each finding its frame
	// alone in its parent document; the locator is counted in the
	// innermost frame's document.
	Frames []string `json:"frames,omitempty"`
}

// PWColor is a computed CSS colour: Property is background-color or color,
// Value as getComputedStyle spells it (rgb(37, 99, 235)).
type PWColor struct {
	Property string `json:"property"`
	Value    string `json:"value"`
}

// PWScope is a container a locator is chained under:
// getByRole(Role, { name: Name }) or getByRole(Role).filter({ hasText: HasText }).
type PWScope struct {
	Role    string `json:"role"`
	Name    string `json:"name,omitempty"`
	HasText string `json:"hasText,omitempty"`
}

// PWHint is what the step's description says about where its element is:
// the container it named ("in the Alice row": row, Alice) and an ordinal
// ("the second Delete button": 1).
type PWHint struct {
	ScopeRole string `json:"scopeRole,omitempty"`
	ScopeText string `json:"scopeText,omitempty"`
	Nth       *int   `json:"nth,omitempty"`
	// NoText leaves out getByText: the step checks the element's text,
	// which must not be how it is found.
	NoText bool `json:"noText,omitempty"`
	// Avoid is the text the step expects in the element: a row is not
	// told apart by it.
	Avoid string `json:"avoid,omitempty"`
}

// PlaywrightLocator chooses the Playwright locator for the element behind
// ref that finds it alone on the page as it is now, in Playwright's order of
// preference: by role and accessible name, label, placeholder, test id,
// text, then CSS. Each candidate is counted in the page as Playwright would
// resolve it; one that matches several elements is chained under a
// container (the one hint names first) or, last, narrowed with an ordinal.
// Random-looking ids, classes and test ids and the banned attributes are
// never used. It fails with an *ActionError when ref is gone.
func (p *Page) PlaywrightLocator(ctx context.Context, ref string, hint PWHint, banned []string) (PWLocator, error) {
	var res struct {
		PWLocator
		Error string `json:"error"`
	}
	if banned == nil {
		banned = []string{}
	}
	if err := p.call(ctx, &res, "playwrightLocator", ref, hint, banned); err != nil {
		return PWLocator{}, fmt.Errorf("playwright locator for %s: %w", ref, err)
	}
	switch res.Error {
	case "":
	case "detached":
		return PWLocator{}, &ActionError{Action: "playwright locator", Ref: ref, Reason: ReasonDetached}
	default:
		return PWLocator{}, fmt.Errorf("playwright locator for %s: %s", ref, res.Error)
	}
	return res.PWLocator, nil
}
