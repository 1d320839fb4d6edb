package step

import (
	"fmt"
	"slices"
	"strings"
)

// Need says whether a step type takes a field.
type Need uint8

const (
	Forbidden Need = iota // the field must be empty
	Optional              // the field may be set
	Required              // the field must be set to more than white space
)

// Fields says which of Description and Value a step takes and what they mean.
type Fields struct {
	Description    Need
	DescriptionDoc string // what the description names, for messages and prompts
	Value          Need
	ValueDoc       string // what the value holds, for messages and prompts
	// Element is set when Description names an element on the page that the
	// step acts on or checks, so that it is located and cached.
	Element bool
}

// Spec describes a step type.
type Spec struct {
	Summary string // one line for people and agent prompts
	Fields
	// Expect is set for EXPECT: the step takes an ExpectKind, and its
	// Fields come from Expectations instead of from this Spec.
	Expect bool
	// Rule, if set, checks what Fields cannot express.
	Rule func(Step) error
}

// ExpectSpec describes a kind of EXPECT step.
type ExpectSpec struct {
	Summary string
	Fields
	Match bool // the step may set Match
}

// Types describes every step type. It is read-only.
var Types = map[Type]Spec{
	Navigate: {
		Summary: "open a URL",
		Fields:  Fields{Value: Required, ValueDoc: "the URL to open, absolute or relative to the base URL"},
	},
	Click: {
		Summary: "click an element",
		Fields:  Fields{Description: Required, DescriptionDoc: "the element to click", Element: true},
	},
	DblClick: {
		Summary: "double-click an element, as to edit it in place",
		Fields:  Fields{Description: Required, DescriptionDoc: "the element to double-click", Element: true},
	},
	RightClick: {
		Summary: "right-click an element, as to open its context menu",
		Fields:  Fields{Description: Required, DescriptionDoc: "the element to right-click", Element: true},
	},
	TypeText: {
		Summary: "type text into a field",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the field to type into",
			Value: Required, ValueDoc: "the text to type",
			Element: true,
		},
	},
	Clear: {
		Summary: "empty a text field, as a person does by selecting all its text and deleting it",
		Fields:  Fields{Description: Required, DescriptionDoc: "the text box, text area or editable region to empty", Element: true},
	},
	Select: {
		Summary: "choose an option in a select or list box",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the select or list box",
			Value: Required, ValueDoc: "the option to choose",
			Element: true,
		},
	},
	AddOption: {
		Summary: "choose one more option in a select that takes several, keeping the ones chosen",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the select that takes several options",
			Value: Required, ValueDoc: "the option to add",
			Element: true,
		},
	},
	RemoveOption: {
		Summary: "unchoose one option in a select that takes several, keeping the others chosen",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the select that takes several options",
			Value: Required, ValueDoc: "the chosen option to remove",
			Element: true,
		},
	},
	Press: {
		Summary: "press a key, in an element if one is named",
		Fields: Fields{
			Description: Optional, DescriptionDoc: "the element to focus first",
			Value: Required, ValueDoc: "the key or chord, such as Enter or Control+A",
			Element: true,
		},
	},
	Hover: {
		Summary: "move the pointer over an element",
		Fields:  Fields{Description: Required, DescriptionDoc: "the element to hover over", Element: true},
	},
	Drag: {
		Summary: "drag an element and drop it on another",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the element to drag",
			Value: Required, ValueDoc: "the element to drop it on, described like any element",
			Element: true,
		},
	},
	Upload: {
		Summary: "choose files in a file input, as from the file chooser",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the file input, or the label or button for it",
			Value: Required, ValueDoc: "the files, one path a line, relative to the test file",
			Element: true,
		},
		Rule: uploadRule,
	},
	Check: {
		Summary: "turn on a checkbox, radio button or switch",
		Fields:  Fields{Description: Required, DescriptionDoc: "the checkbox, radio button or switch", Element: true},
	},
	Uncheck: {
		Summary: "turn off a checkbox or switch",
		Fields:  Fields{Description: Required, DescriptionDoc: "the checkbox or switch", Element: true},
	},
	Scroll: {
		Summary: "scroll an element into view, in every scroll box around it",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the element to scroll into view",
			Value: Optional, ValueDoc: "the scroll box that holds it (a panel, a list), described like any element",
			Element: true,
		},
	},
	Wait: {
		Summary: "wait for an element to appear, or for a fixed time",
		Fields:  Fields{Description: Optional, DescriptionDoc: "the element to wait for", Element: true},
		Rule:    waitRule,
	},
	Accept: {
		Summary: "answer the next dialog the page opens (alert, confirm, prompt) with OK; give it before the step that opens the dialog",
		Fields:  Fields{Value: Optional, ValueDoc: "the text a prompt gets; without it a prompt keeps its default text"},
	},
	Dismiss: {
		Summary: "answer the next dialog the page opens (confirm, prompt) with Cancel; give it before the step that opens the dialog",
	},
	Expect: {
		Summary: "check the page deterministically",
		Expect:  true,
	},
	Assert: {
		Summary: "check the page as described in plain words",
		Fields:  Fields{Description: Required, DescriptionDoc: "the check, in plain words"},
	},
	Act: {
		Summary: "reach a goal described in plain words",
		Fields:  Fields{Description: Required, DescriptionDoc: "the goal, in plain words"},
	},
}

// Expectations describes every kind of EXPECT step. It is read-only.
var Expectations = map[ExpectKind]ExpectSpec{
	ExpectVisible: {
		Summary: "an element is visible",
		Fields:  Fields{Description: Required, DescriptionDoc: "the element that must be visible", Element: true},
	},
	ExpectHidden: {
		Summary: "an element is hidden or absent",
		Fields:  Fields{Description: Required, DescriptionDoc: "the element that must be hidden", Element: true},
	},
	ExpectText: {
		Summary: "an element's text",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the element whose text is checked",
			Value: Required, ValueDoc: "the expected text",
			Element: true,
		},
		Match: true,
	},
	ExpectValue: {
		Summary: "a form field's value",
		Fields: Fields{
			Description: Required, DescriptionDoc: "the field whose value is checked",
			Value: Required, ValueDoc: "the expected value",
			Element: true,
		},
		Match: true,
	},
	ExpectURL: {
		Summary: "the page URL",
		Fields:  Fields{Value: Required, ValueDoc: "the expected URL or path; * matches any characters"},
		Match:   true,
	},
	ExpectTitle: {
		Summary: "the page title",
		Fields:  Fields{Value: Required, ValueDoc: "the expected title"},
		Match:   true,
	},
	ExpectDialog: {
		Summary: "the message of a dialog the page opened since the last such check",
		Fields:  Fields{Value: Required, ValueDoc: "the expected message"},
		Match:   true,
	},
}

// matches lists the spellings of --match and the Match each one means.
var matches = map[string]Match{
	"is":       MatchExact,
	"exact":    MatchExact,
	"contains": MatchContains,
}

// TypeNames returns the step types in alphabetical order.
func TypeNames() []string { return sortedKeys(Types) }

// ExpectNames returns the kinds of EXPECT step in alphabetical order.
func ExpectNames() []string { return sortedKeys(Expectations) }

func sortedKeys[K ~string, V any](m map[K]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, string(k))
	}
	slices.Sort(names)
	return names
}

// UploadFiles returns the paths in an UPLOAD step's Value, one a line.
func UploadFiles(value string) []string {
	var out []string
	for _, l := range strings.Split(value, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func uploadRule(s Step) error {
	for _, l := range strings.Split(s.Value, "\n") {
		if strings.TrimSpace(l) == "" {
			return &Error{Flag: flagValue, Msg: "UPLOAD has an empty line in --value", Hint: "give one file path a line"}
		}
	}
	return nil
}

func waitRule(s Step) error {
	if strings.TrimSpace(s.Description) == "" && s.Timeout == 0 {
		return &Error{Msg: "WAIT needs --description (the element to wait for) or --timeout (the time to wait)"}
	}
	return nil
}

// Validate reports whether s is a complete step of a known type: the fields
// its type requires are set, the ones it does not take are empty, and
// Timeout and CacheID are well formed. The error is an *[Error]; its Flag
// names the offending flag when there is one.
func (s Step) Validate() error {
	spec, ok := Types[s.Type]
	if !ok {
		if s.Type == "" {
			return &Error{Msg: "missing --step-type"}
		}
		return &Error{Flag: flagType, Msg: fmt.Sprintf("unknown step type %s", printable(string(s.Type))),
			Hint: didYouMean(string(s.Type), TypeNames())}
	}
	f := spec.Fields
	matchOK := false
	switch {
	case spec.Expect && s.Expect == "":
		return &Error{Msg: fmt.Sprintf("%s needs --expect (one of %s)", s.Type, strings.Join(ExpectNames(), ", "))}
	case spec.Expect:
		es, ok := Expectations[s.Expect]
		if !ok {
			return &Error{Flag: flagExpect, Msg: fmt.Sprintf("unknown --expect %s", printable(string(s.Expect))),
				Hint: didYouMean(string(s.Expect), ExpectNames())}
		}
		f, matchOK = es.Fields, es.Match
	case s.Expect != "":
		return &Error{Flag: flagExpect, Msg: fmt.Sprintf("%s takes no --expect", s.Type)}
	}
	what := string(s.Type)
	if spec.Expect {
		what = fmt.Sprintf("EXPECT %s", s.Expect)
	}
	var missing []string
	if f.Description == Required && strings.TrimSpace(s.Description) == "" {
		missing = append(missing, fmt.Sprintf("--description (%s)", f.DescriptionDoc))
	}
	if f.Value == Required && strings.TrimSpace(s.Value) == "" {
		missing = append(missing, fmt.Sprintf("--value (%s)", f.ValueDoc))
	}
	if len(missing) > 0 {
		return &Error{Msg: fmt.Sprintf("%s needs %s", what, strings.Join(missing, " and "))}
	}
	if f.Description == Forbidden && s.Description != "" {
		return &Error{Flag: flagDescription, Msg: fmt.Sprintf("%s takes no --description", what)}
	}
	if f.Value == Forbidden && s.Value != "" {
		return &Error{Flag: flagValue, Msg: fmt.Sprintf("%s takes no --value", what)}
	}
	if s.Match != MatchExact {
		if s.Match != MatchContains {
			return &Error{Flag: flagMatch, Msg: fmt.Sprintf("unknown --match %s", printable(string(s.Match))),
				Hint: "use --match contains, or leave it out for an exact match"}
		}
		if !matchOK {
			return &Error{Flag: flagMatch, Msg: fmt.Sprintf("%s takes no --match", what)}
		}
	}
	if s.Timeout < 0 {
		return &Error{Flag: flagTimeout, Msg: fmt.Sprintf("negative --timeout %s", s.Timeout)}
	}
	if s.CacheID != "" && !validCacheID(s.CacheID) {
		return &Error{Flag: flagCacheID, Msg: fmt.Sprintf("invalid --cache-id %s", printable(s.CacheID)),
			Hint: "a cache id is letters, digits and . _ : - and starts with a letter or digit"}
	}
	if err := misnamedRule(s); err != nil {
		return err
	}
	if spec.Rule != nil {
		return spec.Rule(s)
	}
	return nil
}

// maxCacheID bounds the length of a cache id.
const maxCacheID = 128

func validCacheID(id string) bool {
	if id == "" || len(id) > maxCacheID || !isAlnum(id[0]) {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !isAlnum(c) && c != '.' && c != '_' && c != ':' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
