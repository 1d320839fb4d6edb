package step

import (
	"fmt"
	"strings"
)

// An action is what a description can ask for in its first words, such as
// "double click on the oat milk label". A step does what its type says, so
// a description that asks for another action is refused rather than
// silently performed as the step's own action.
type action struct {
	name string // the action, as messages spell it: "double click"
	typ  Type   // the step type that performs it; "" when there is none
	// match reports whether the normalized description d (lower case,
	// hyphens as spaces, single spaces) starts with a request for the action.
	match func(d string) bool
}

// determiners start the object of a verb: "upload the photo", "drag an item".
var determiners = []string{"the ", "a ", "an ", "my ", "this ", "that ", "these ", "those ", "some ", "it ", "it"}

// verbThenObject matches "verb <determiner>…", so that "upload the photo" is
// an action and "Upload file" (a control's name) is not.
func verbThenObject(verbs ...string) func(string) bool {
	return func(d string) bool {
		for _, v := range verbs {
			rest, ok := strings.CutPrefix(d, v+" ")
			if !ok {
				continue
			}
			for _, det := range determiners {
				if strings.HasPrefix(rest, det) && (det != "it" || rest == "it") {
					return true
				}
			}
		}
		return false
	}
}

// verbPhrase matches descriptions that start with one of phrases, as whole words.
func verbPhrase(phrases ...string) func(string) bool {
	return func(d string) bool {
		for _, p := range phrases {
			if d == p || strings.HasPrefix(d, p+" ") {
				return true
			}
		}
		return false
	}
}

// verbAnd matches "verb X <sep> Y": a verb at the start, then X, then one of
// seps. "select France from the country list" is an action; "Select all" is not.
func verbAnd(verbs []string, seps ...string) func(string) bool {
	return func(d string) bool {
		for _, v := range verbs {
			rest, ok := strings.CutPrefix(d, v+" ")
			if !ok {
				continue
			}
			for _, s := range seps {
				if i := strings.Index(rest, s); i > 0 {
					return true
				}
			}
		}
		return false
	}
}

// toggleNouns name what check and uncheck act on.
var toggleNouns = []string{"checkbox", "check box", "radio", "switch", "toggle", "box", "option"}

func verbOnToggle(verbs ...string) func(string) bool {
	return func(d string) bool {
		for _, v := range verbs {
			if rest, ok := strings.CutPrefix(d, v+" "); ok {
				for _, n := range toggleNouns {
					if strings.Contains(" "+rest+" ", " "+n+" ") {
						return true
					}
				}
			}
		}
		return false
	}
}

// actions are the actions a description can ask for. Plain "click" is not
// among them: clicking a checkbox to check it is fine.
var actions = []action{
	{"double click", DblClick, verbPhrase("double click", "doubleclick", "dblclick", "dbl click", "double tap")},
	{"right click", RightClick, verbPhrase("right click", "rightclick", "context click",
		"open the context menu", "open a context menu", "open context menu")},
	{"drag", Drag, func(d string) bool {
		return verbPhrase("drag and drop", "drag & drop", "drag n drop")(d) || verbThenObject("drag")(d)
	}},
	{"upload", Upload, verbThenObject("upload", "attach")},
	{"hover", Hover, verbPhrase("hover over", "hover on", "mouse over", "mouseover",
		"move the mouse over", "move the pointer over")},
	{"type", TypeText, func(d string) bool {
		return verbAnd([]string{"type", "enter"}, " into ")(d) ||
			verbAnd([]string{"fill", "fill in", "fill out"}, " with ")(d)
	}},
	{"select", Select, verbAnd([]string{"select", "choose", "pick"}, " from ")},
	{"uncheck", Uncheck, verbOnToggle("uncheck", "untick")},
	{"check", Check, verbOnToggle("check", "tick")},
}

// actingTypes are the step types whose description is checked against
// [actions]: those that do something to the element they name.
var actingTypes = map[Type]bool{
	Click: true, DblClick: true, RightClick: true, Hover: true, Check: true, Uncheck: true,
	TypeText: true, Clear: true, Select: true, AddOption: true, RemoveOption: true, Press: true, Upload: true, Drag: true,
}

// normalize lower-cases d, reads hyphens and underscores as spaces and
// collapses white space, for matching actions.
func normalize(d string) string {
	d = strings.ToLower(d)
	d = strings.NewReplacer("-", " ", "_", " ").Replace(d)
	d = strings.Join(strings.Fields(d), " ")
	d = strings.TrimPrefix(d, "please ")
	return d
}

// Misnamed reports the action that s's description asks for when it is not
// what s's type does, such as a CLICK step described as "double click on
// the label": the description's first words must be a request for the
// action ("double click …", "drag the … to …", "select X from …"), so that a
// description of the target ("the Double click me button", "Upload file",
// "Select all") never counts. want is the step type that performs the
// action, "" when there is none. ok is false when the description is fine.
func Misnamed(s Step) (phrase string, want Type, ok bool) {
	if !actingTypes[s.Type] {
		return "", "", false
	}
	d := normalize(s.Description)
	if d == "" || strings.ContainsAny(d[:1], `"'“‘`) {
		return "", "", false
	}
	for _, a := range actions {
		if a.typ == s.Type || !a.match(d) {
			continue
		}
		return a.name, a.typ, true
	}
	return "", "", false
}

func misnamedRule(s Step) error {
	phrase, want, ok := Misnamed(s)
	if !ok {
		return nil
	}
	use := fmt.Sprintf("use --step-type %s", want)
	if want == "" {
		use = "no step type does that; use ACT for it"
	}
	return &Error{Flag: flagDescription,
		Msg: fmt.Sprintf("the step is a %s but its description asks to %q", strings.ToLower(string(s.Type)), phrase),
		Hint: use + `, or, if the words are the element's name, write them as one, such as: the "` +
			firstWords(s.Description) + `" button`}
}

// firstWords returns the first three words of d, for hints.
func firstWords(d string) string {
	w := strings.Fields(d)
	if len(w) > 3 {
		w = w[:3]
	}
	return strings.Join(w, " ")
}
