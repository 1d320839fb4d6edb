package locate

import (
	"slices"

	"github.com/e2e-dev/e2e/session/ax"
)

// Role-less clickables. Pages build controls of <div>s and <span>s with a
// click listener and no role; the snapshot gives such an element a generic
// line with the state clickable (ax.States.Clickable), and marks a box or a
// pill drawn inside one as looking like a checkbox or a switch
// (ax.States.Looks). A person calls them by what they do: "the Save
// button", "the Completed filter", "Delete in the menu", "the Weekly digest
// checkbox". The locator lets a clickable fit such a control role word at
// wRoleWeak, and reads its text at wHint, as secondary evidence (it is not
// an accessible name): a real control named as the description says always
// wins (preferNamed), and two clickables that read alike are ambiguous.

// isClickable says n is a role-less clickable.
func isClickable(n *ax.Node) bool {
	return n.Role == "generic" && n.States.Clickable
}

// clickableFit scores a clickable against a role word. ok is false when the
// word does not name what the clickable can be: a control word (button,
// link, tab, filter, menu item, option, column header, chip, and the words
// that take a generic loosely, such as upload) for a clickable not drawn as
// a control, a checkbox or switch word for one drawn so. A clickable drawn
// as a checkbox is never a button.
func clickableFit(n *ax.Node, r *roleDef) (float64, bool) {
	if n.States.Looks != "" {
		if slices.Contains(r.looks, n.States.Looks) {
			return wRoleWeak, true
		}
		return 0, false
	}
	if r.clickable || slices.Contains(r.weak, "generic") {
		return wRoleWeak, true
	}
	if slices.Contains(r.strong, "text") {
		// a clickable span that reads "buy milk" is text on screen to a
		// person: "the buy milk label"
		return wRoleWeak, true
	}
	return 0, false
}

// clickableText is how a clickable's text counts toward its name: at wHint,
// as secondary evidence.
const clickableText = wHint

// symbolTextHint compares a description's name with an unnamed clickable's
// text when that is all symbols ("×" reads as close, "⋯" as more), as a
// symbol name is compared (see hintQuality). The result is before wHint.
func symbolTextHint(spec nameSpec, n *ax.Node, text string) (float64, string) {
	if n.Name != "" || !symbolName(text) {
		return 0, ""
	}
	tmp := *n
	tmp.Name = text
	return hintQuality(spec, &tmp)
}
