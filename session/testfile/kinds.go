package testfile

import (
	"maps"
	"slices"

	"github.com/e2e-dev/e2e/session/step"
)

// Kind is the key that says what a step of a test file does, such as click
// or expect.
type Kind string

// target is the step field that a YAML value fills.
type target uint8

const (
	toDescription target = iota + 1 // step.Step.Description
	toValue                         // step.Step.Value
	toContains                      // step.Step.Value, with Match set to contains
	toDuration                      // step.Step.Timeout, the time a wait lasts
	toFiles                         // step.Step.Value, file paths one a line, from a path or a list of them
	toYes                           // nothing but true: the key says which of the kind's types the step is (see kindSpec.picks)
	toPick                          // a key of kindSpec.picks, as plain text: it says which type the step is
)

// key is one key of a kind's mapping form.
type key struct {
	name     string
	to       target
	required bool
}

// kindSpec says which YAML shapes a kind of step accepts and which step
// fields they fill.
type kindSpec struct {
	typ    step.Type
	expect step.ExpectKind
	// scalar is where a plain value goes; 0 when the kind takes none.
	scalar target
	// keys are the keys of the mapping form; nil when the kind takes none.
	keys []key
	// oneOf lists keys of which exactly one must be given.
	oneOf []string
	// sub, for expect, holds the kinds of check: the value is a mapping
	// with exactly one of them.
	sub map[Kind]kindSpec
	// example is a step of this kind, shown when its shape is wrong.
	example string
	// picks, for a kind that makes steps of several types, maps the keys
	// (or, for a toPick scalar, the words) that choose a type to it; typ is
	// the type when none is given.
	picks map[string]step.Type
}

// types returns the step types that steps of this kind have.
func (k kindSpec) types() []step.Type {
	out := []step.Type{k.typ}
	for _, name := range slices.Sorted(maps.Keys(k.picks)) {
		if t := k.picks[name]; !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// pickFor returns the key or word of picks that chooses typ, or "".
func (k kindSpec) pickFor(typ step.Type) string {
	for _, name := range slices.Sorted(maps.Keys(k.picks)) {
		if k.picks[name] == typ {
			return name
		}
	}
	return ""
}

// fields returns what the step type, or the kind of check, needs.
func (k kindSpec) fields() step.Fields {
	if k.expect != "" {
		return step.Expectations[k.expect].Fields
	}
	return step.Types[k.typ].Fields
}

// kinds is every kind of step in a test file. It is the one list that the
// parser, the JSON schema test and the docs follow.
var kinds = map[Kind]kindSpec{
	"navigate":   {typ: step.Navigate, scalar: toValue, example: "navigate: /users"},
	"click":      {typ: step.Click, scalar: toDescription, example: "click: the Sign in button"},
	"dblclick":   {typ: step.DblClick, scalar: toDescription, example: "dblclick: the oat milk label"},
	"rightclick": {typ: step.RightClick, scalar: toDescription, example: "rightclick: the Alice row"},
	"type": {typ: step.TypeText, example: `type: { into: the email field, text: "{{ env.E2E_USER }}" }`,
		keys: []key{{"into", toDescription, true}, {"text", toValue, true}}},
	"clear": {typ: step.Clear, scalar: toDescription, example: "clear: the Email field"},
	"select": {typ: step.Select, example: "select: { from: the country list, option: France }, or select: { from: the Toppings list, add: Olives }",
		keys:  []key{{"from", toDescription, true}, {"option", toValue, false}, {"add", toValue, false}, {"remove", toValue, false}},
		oneOf: []string{"option", "add", "remove"},
		picks: map[string]step.Type{"option": step.Select, "add": step.AddOption, "remove": step.RemoveOption}},
	"press": {typ: step.Press, scalar: toValue, example: "press: Enter, or press: { key: Enter, in: the search field }",
		keys: []key{{"key", toValue, true}, {"in", toDescription, false}}},
	"drag": {typ: step.Drag, example: "drag: { from: the Write report card, to: the Done list }",
		keys: []key{{"from", toDescription, true}, {"to", toValue, true}}},
	"upload": {typ: step.Upload, example: "upload: { into: the Attachment field, files: [fixtures/report.pdf] }",
		keys: []key{{"into", toDescription, true}, {"files", toFiles, true}}},
	"hover":   {typ: step.Hover, scalar: toDescription, example: "hover: the avatar in the top bar"},
	"check":   {typ: step.Check, scalar: toDescription, example: "check: the Remember me checkbox"},
	"uncheck": {typ: step.Uncheck, scalar: toDescription, example: "uncheck: the Remember me checkbox"},
	"scroll": {typ: step.Scroll, scalar: toDescription, example: "scroll: the page footer, or scroll: { in: the Messages panel, to: the Archive button }",
		keys: []key{{"in", toValue, false}, {"to", toDescription, true}}},
	"dialog": {typ: step.Accept, scalar: toPick, example: `dialog: dismiss, or dialog: { accept: true, text: "Ann" }`,
		keys:  []key{{"accept", toYes, false}, {"dismiss", toYes, false}, {"text", toValue, false}},
		oneOf: []string{"accept", "dismiss"}, picks: map[string]step.Type{"accept": step.Accept, "dismiss": step.Dismiss}},
	"wait": {typ: step.Wait, scalar: toDuration, example: "wait: 2s, or wait: { for: the results table }",
		keys: []key{{"for", toDescription, true}}},
	"expect": {typ: step.Expect, sub: expectKinds, example: "expect: { visible: the Users heading }"},
	"act":    {typ: step.Act, scalar: toDescription, example: "act: archive the user Alice"},
	"assert": {typ: step.Assert, scalar: toDescription, example: "assert: the table lists three users"},
}

// matchKeys are the keys that give the expected text of a check.
var matchKeys = []key{{"is", toValue, false}, {"contains", toContains, false}}

// expectKinds is every kind of check in an expect step.
var expectKinds = map[Kind]kindSpec{
	"visible": {typ: step.Expect, expect: step.ExpectVisible, scalar: toDescription,
		example: "expect: { visible: the Users heading }"},
	"hidden": {typ: step.Expect, expect: step.ExpectHidden, scalar: toDescription,
		example: "expect: { hidden: the Alice row }"},
	"text": {typ: step.Expect, expect: step.ExpectText, example: "expect: { text: { in: the banner, contains: Saved } }",
		keys: append([]key{{"in", toDescription, true}}, matchKeys...), oneOf: []string{"is", "contains"}},
	"value": {typ: step.Expect, expect: step.ExpectValue, example: "expect: { value: { of: the email field, is: alice@example.com } }",
		keys: append([]key{{"of", toDescription, true}}, matchKeys...), oneOf: []string{"is", "contains"}},
	"url": {typ: step.Expect, expect: step.ExpectURL, scalar: toValue, example: `expect: { url: "/users/*" }`,
		keys: matchKeys, oneOf: []string{"is", "contains"}},
	"dialog": {typ: step.Expect, expect: step.ExpectDialog, scalar: toValue, example: `expect: { dialog: "Delete the draft?" }`,
		keys: matchKeys, oneOf: []string{"is", "contains"}},
	"title": {typ: step.Expect, expect: step.ExpectTitle, scalar: toValue, example: "expect: { title: { contains: Users } }",
		keys: matchKeys, oneOf: []string{"is", "contains"}},
}

// timeoutKey is the key for a step's own timeout, beside its kind.
const timeoutKey = "timeout"

// testKeys are the keys of a test file.
var testKeys = []string{"name", "url", "session", "context", "steps"}

// Kinds returns the kinds of step a test file accepts, in alphabetical order.
func Kinds() []Kind { return sortedKinds(kinds) }

func sortedKinds(m map[Kind]kindSpec) []Kind {
	out := make([]Kind, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func kindNames(m map[Kind]kindSpec) []string {
	out := make([]string, 0, len(m))
	for _, k := range sortedKinds(m) {
		out = append(out, string(k))
	}
	return out
}

func keyNames(keys []key) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.name
	}
	return out
}
