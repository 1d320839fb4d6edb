package testfile

import (
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/step"
)

// TestLineRoundTrip: every kind of step prints in the one-line YAML form
// of a test file and reads back to the same step; secrets stay variables.
func TestLineRoundTrip(t *testing.T) {
	for _, line := range []string{
		"navigate: /users",
		"click: the Buy now button",
		"dblclick: the oat milk label",
		"rightclick: the Alice row",
		"type: { into: the From field, text: Paris }",
		`type: { into: the password field, text: "{{ secret.PASSWORD }}" }`,
		`type: { into: the email field, text: "{{ env.E2E_USER }}" }`,
		"select: { from: the country list, option: France }",
		"clear: the Email field",
		"select: { from: the Toppings list, add: Olives }",
		"select: { from: the Toppings list, remove: Ham }",
		"dialog: accept",
		"dialog: dismiss",
		"dialog: { accept: true, text: Ann }",
		`dialog: { accept: true, text: "{{ secret.PIN }}" }`,
		"expect: { dialog: Delete the draft? }",
		"expect: { dialog: { contains: draft } }",
		"press: Enter",
		"press: { key: Enter, in: the search field }",
		"drag: { from: the Write report card, to: the Done list }",
		"hover: the avatar in the top bar",
		"check: the Remember me checkbox",
		"uncheck: the Remember me checkbox",
		"scroll: the page footer",
		"scroll: { in: the Messages panel, to: the Archive button }",
		"wait: 2s",
		"wait: { for: the results table }",
		"{ click: the Save button, timeout: 5s }",
		"expect: { visible: the Users heading }",
		"expect: { hidden: the Alice row }",
		"expect: { text: { in: the banner, contains: Saved } }",
		"expect: { text: { in: the banner, is: Saved } }",
		`expect: { text: { in: the cart status, is: "Cart: 3 items" } }`,
		"expect: { value: { of: the email field, is: alice@example.com } }",
		"expect: { url: /users/* }",
		"expect: { url: { contains: /users } }",
		"expect: { title: { contains: Users } }",
		"expect: { title: Users }",
		"act: archive the user Alice",
		"act: open the first user's menu",
		`click: the "Save" button`,
		"assert: the table lists three users",
		`click: "the \"Save, then close\" button"`,
		`type: { into: the amount field, text: "42" }`,
		`type: { into: the answer field, text: "yes" }`,
	} {
		st, err := ParseLine(line)
		if err != nil {
			t.Errorf("ParseLine(%q): %v", line, err)
			continue
		}
		if got := Line(st); got != line {
			t.Errorf("Line(ParseLine(%q)) = %q", line, got)
		}
		back, err := ParseLine(Line(st))
		if err != nil || back != st {
			t.Errorf("ParseLine(Line(%+v)) = %+v, %v", st, back, err)
		}
	}
}

// TestLineOfCommands: a step met in the command form (as events carry it)
// prints as YAML, its cache id left out, and reads back the same.
func TestLineOfCommands(t *testing.T) {
	for _, s := range []step.Step{
		{Type: step.TypeText, Description: "the From field", Value: "a value with, a comma: and a colon", CacheID: "k1"},
		{Type: step.Click, Description: "- a dash first"},
		{Type: step.Expect, Expect: step.ExpectText, Description: "the price", Value: "$129.00", Match: step.MatchContains},
		{Type: step.Click, Description: "the Save button", Timeout: 1500 * time.Millisecond},
	} {
		line := Line(s)
		if strings.Contains(line, "--") && !strings.Contains(s.Description, "--") {
			t.Errorf("Line(%+v) = %q: the command form", s, line)
		}
		back, err := ParseLine(line)
		s.CacheID = ""
		if err != nil || back != s {
			t.Errorf("ParseLine(%q) = %+v, %v; want %+v", line, back, err, s)
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	for line, want := range map[string]string{
		"clik: the Buy now button": "click",
		"":                         "empty step",
		"click the Buy now button": "write click: the Buy now button",
	} {
		_, err := ParseLine(line)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLine(%q) = %v; want an error with %q", line, err, want)
		}
	}
}
