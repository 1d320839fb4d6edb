package locate

import (
	"slices"
	"strings"

	"github.com/e2e-dev/e2e/session/ax"
)

// Class words and file inputs: evidence for elements whose role the page
// does not say.
//
// A run of text carries the class and id words of its role-less owner as
// its hint (and "status" or "alert" for an aria-live region), and the
// snapshot gives a role-less overlay whose class words say modal, dialog,
// overlay, popup, popover or lightbox (or menu, dropdown: a menu rendered
// in a portal) a line of its own: role generic,
// not interactable, with those words as its hint (a box). A description's
// role word that names a UI part such words say (the status message, the
// counter, the dialog, the menu) fits such a node by them (classFit), at wRoleClass,
// and never over a node whose role says it: a node known by its class
// words is dropped while a node whose role fits the role word is named as
// well (preferRoles). A live region (role alert or log) is a status
// message too, as such.
//
// A file input (ax.States.File: an <input type=file>, or the label or
// wrapper standing for one that is not rendered) fits the words people use
// for it: a field, an input, an upload, a button.

// wRoleClass is the role score of a node that fits a role word by its class
// words or as a live region: as much as a role, so that an unnamed status
// line classed "msg" reaches the threshold alone, but preferRoles drops it
// for a node whose role fits.
const wRoleClass = wRoleStrong

// wClassBonus is what class words add to a text run that fits a text role
// word already ("the counter" as the run classed "todo-count"), when the
// description gives no name.
const wClassBonus = 0.3

// classConcepts maps a class or id word to the UI parts it says.
var classConcepts = map[string][]string{}

func init() {
	for concept, ws := range map[string][]string{
		"message": {"status", "msg", "message", "messages", "notice", "notification", "notifications", "notify",
			"toast", "snackbar", "flash", "feedback", "alert", "result", "output", "outcome"},
		"alert":  {"alert", "error", "errors", "err", "danger", "warning", "warn"},
		"count":  {"count", "counter", "tally"},
		"dialog": {"modal", "dialog", "overlay", "popup", "popover", "lightbox"},
		"menu":   {"menu", "dropdown"},
	} {
		for _, w := range ws {
			classConcepts[w] = append(classConcepts[w], concept)
		}
	}
}

// roleConcept is the UI part a role word names that class words may say,
// or "".
func roleConcept(r *roleDef) string {
	if r == nil {
		return ""
	}
	switch r.word {
	case "status", "status message", "message", "notification", "toast", "notice", "snackbar", "result", "output", "outcome":
		return "message"
	case "alert", "error", "error message", "warning":
		return "alert"
	case "counter", "count":
		return "count"
	}
	if slices.Contains(r.strong, "dialog") {
		return "dialog"
	}
	if slices.Contains(r.strong, "menu") {
		return "menu"
	}
	return ""
}

// isBox says n is a line the snapshot gave a role-less element for its
// class words (an overlay classed "modal"): generic, not interactable, not
// a file input.
func isBox(n *ax.Node) bool {
	return n.Role == "generic" && !n.States.Interactive && !n.States.File
}

// classHint says n's hint is class words (a text run's, a box's), not
// secondary evidence that may stand for a name.
func classHint(n *ax.Node) bool {
	return n.Role == "text" || isBox(n)
}

// saysConcept says a class-word hint has a word for concept.
func saysConcept(hint, concept string) bool {
	for w := range strings.FieldsSeq(hint) {
		if slices.Contains(classConcepts[w], concept) {
			return true
		}
	}
	return false
}

// classFit says whether node n fits role word r by its class words (a text
// run for a message, an alert or a count; a box for a dialog), or, for a
// status message, as a live region; and why.
func classFit(n *ax.Node, r *roleDef) (bool, string) {
	concept := roleConcept(r)
	switch {
	case concept == "":
		return false, ""
	case concept == "message" && (n.Role == "alert" || n.Role == "log"):
		return true, "live region"
	case (concept == "dialog" || concept == "menu") && isBox(n) && saysConcept(n.States.Hint, concept):
		return true, "class words " + quote(n.States.Hint)
	case concept != "dialog" && concept != "menu" && n.Role == "text" && saysConcept(n.States.Hint, concept):
		return true, "class words " + quote(n.States.Hint)
	}
	return false, ""
}

// fileFit says a file input fits role word r: a field, an input, an
// upload or a button.
func fileFit(n *ax.Node, r *roleDef) bool {
	if !n.States.File || r == nil {
		return false
	}
	return slices.Contains(r.strong, "textbox") || slices.Contains(r.strong, "button")
}

// roleOrClassFit is roleFit, then fileFit, then classFit where the role
// does not fit (or only loosely): the score, whether it fits, and when by
// class words or as a live region, why.
func roleOrClassFit(n *ax.Node, r *roleDef) (float64, bool, string) {
	rs, fit := roleFit(n, r)
	if fit && rs == wRoleStrong {
		return rs, true, ""
	}
	if fileFit(n, r) {
		return wRoleStrong, true, ""
	}
	if ok, why := classFit(n, r); ok {
		return wRoleClass, true, why
	}
	return rs, fit, ""
}

// preferRoles drops the candidates that fit the role word only by class
// words (or as a live region) while a candidate whose role fits it is
// named at least as well: "the status message" is the role=status line,
// not a div classed "msg"; "the Edit dialog" the role=dialog one. The
// dropped ones become misses.
func preferRoles(ix *index, q *query, cands []cand, misses []miss) ([]cand, []miss) {
	if q.role == nil {
		return cands, misses
	}
	real, have := 0.0, false
	for _, c := range cands {
		if c.byClass == "" {
			if rs, fit := roleFit(ix.e[c.i].n, q.role); fit && rs == wRoleStrong {
				if !have || c.nameQ > real {
					real, have = c.nameQ, true
				}
			}
		}
	}
	if !have {
		return cands, misses
	}
	kept := cands[:0]
	for _, c := range cands {
		if c.byClass != "" && c.nameQ <= real+1e-9 {
			misses = append(misses, miss{c.i, c.score, "is known by its " + c.byClass + " only, and an element's role says " + q.role.word})
			continue
		}
		kept = append(kept, c)
	}
	return kept, misses
}

// checkClass is what no longer holds of a "class~" intent attribute (the
// role word a node was found by, by its class words or as a live region),
// or "".
func checkClass(n *ax.Node, word string) string {
	r, ok := roleWords[word]
	if !ok {
		return ""
	}
	if _, fit := roleFit(n, &r); fit {
		return ""
	}
	if ok, _ := classFit(n, &r); ok {
		return ""
	}
	return "its class words " + quote(n.States.Hint) + " no longer say " + word
}
