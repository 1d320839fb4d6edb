package run

import (
	"strings"
	"testing"
)

// mustPass fails t, listing every step, when rep did not pass.
func mustPass(t *testing.T, rep *Report) {
	t.Helper()
	if rep.Passed() {
		return
	}
	for _, s := range steps(rep) {
		t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
	}
	t.Fatal("the test failed")
}

// TestRunClear empties a text input, a text area and a contenteditable
// textbox as a person does: each then holds only the key pressed after it,
// and the page saw input then change for the input and the text area.
func TestRunClear(t *testing.T) {
	e := newEnv(t)
	rep := e.run("", `name: clear
url: /fields
steps:
  - clear: the Email field
  - press: { key: x, in: the Email field }
  - expect: { value: { of: the Email field, is: x } }
  - clear: the Notes field
  - press: { key: y, in: the Notes field }
  - expect: { value: { of: the Notes field, is: y } }
  - clear: the Bio textbox
  - press: { key: z, in: the Bio textbox }
  - expect: { text: { in: the Bio textbox, is: z } }
  - expect: { text: { in: the Event log, contains: "input email, change email, input email" } }
  - expect: { text: { in: the Event log, contains: "input notes, change notes, input notes" } }
`)
	mustPass(t, rep)
}

// TestRunClearRefuses: clearing what is not a text field, a read-only
// field, or a field the page fills again fails with the reason, and the
// page keeps the text.
func TestRunClearRefuses(t *testing.T) {
	e := newEnv(t)
	e.findsNothing()
	for _, c := range []struct{ target, err string }{
		{"the Save button", "not a text field"},
		{"the Toppings list", "not a text field"},
		{"the Member code field", "read-only"},
		{"the Nickname field", "still holds text"},
	} {
		rep := e.run("", "name: clear\nurl: /fields\nsteps:\n  - clear: "+c.target+"\n")
		ss := steps(rep)
		if testing.Verbose() && len(ss) > 0 {
			t.Logf("clear %s: %s", c.target, ss[len(ss)-1].Error)
		}
		if rep.Passed() || len(ss) == 0 || !strings.Contains(ss[len(ss)-1].Error, c.err) {
			var got string
			if len(ss) > 0 {
				got = ss[len(ss)-1].Error
			}
			t.Errorf("clear %s: passed=%v, error %q, want it to fail saying %q", c.target, rep.Passed(), got, c.err)
		}
	}
}
