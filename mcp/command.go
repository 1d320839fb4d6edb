package mcp

import (
	"errors"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// fromCommand reads a step command (--step-type CLICK --description "…",
// the form e2e's agent and heals use) and returns the same step in the
// test-file form, which is what write_test writes. Only the forms that
// read back as exactly the same step are taken; for the rest the caller is
// asked for the test-file form.
func fromCommand(line string) (string, testfile.Step, error) {
	cmd, err := step.Parse(line)
	if err != nil {
		return "", testfile.Step{}, err
	}
	q := strconv.Quote
	var yaml string
	switch cmd.Type {
	case step.Scroll:
		yaml = "scroll: " + q(cmd.Description)
		if cmd.Value != "" {
			yaml = "scroll: { in: " + q(cmd.Value) + ", to: " + q(cmd.Description) + " }"
		}
	case step.Click, step.DblClick, step.RightClick, step.Hover, step.Check, step.Uncheck, step.Clear, step.Act, step.Assert:
		yaml = strings.ToLower(string(cmd.Type)) + ": " + q(cmd.Description)
	case step.Navigate:
		yaml = "navigate: " + q(cmd.Value)
	case step.TypeText:
		yaml = "type: { into: " + q(cmd.Description) + ", text: " + q(cmd.Value) + " }"
	case step.Select:
		yaml = "select: { from: " + q(cmd.Description) + ", option: " + q(cmd.Value) + " }"
	case step.AddOption:
		yaml = "select: { from: " + q(cmd.Description) + ", add: " + q(cmd.Value) + " }"
	case step.RemoveOption:
		yaml = "select: { from: " + q(cmd.Description) + ", remove: " + q(cmd.Value) + " }"
	case step.Accept:
		yaml = "dialog: accept"
		if cmd.Value != "" {
			yaml = "dialog: { accept: true, text: " + q(cmd.Value) + " }"
		}
	case step.Dismiss:
		yaml = "dialog: dismiss"
	}
	if yaml != "" && cmd.Timeout == 0 {
		if st, err := parseStep(yaml); err == nil && same(st.Step, cmd) {
			return yaml, st, nil
		}
	}
	return "", testfile.Step{}, errors.New("give this step in the test-file form (such as 'expect: { visible: the Welcome heading }'): it is written to the test file as given")
}

// same says whether two steps do the same thing (their cache ids aside).
func same(a, b step.Step) bool {
	a.CacheID, b.CacheID = "", ""
	return a == b
}
