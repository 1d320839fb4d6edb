package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
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

// TestRunDialogs answers the page's dialogs as the test says: a confirm
// with Cancel, a prompt with a text (a secret, which no note shows), then
// the default OK again; expect dialog checks each message once.
func TestRunDialogs(t *testing.T) {
	e := newEnv(t)
	const name = `Ann's "plan" \ v2` // a quote, a backslash and spaces
	e.vars["E2E_DRAFT_NAME"] = name
	rep := e.run("", `name: dialogs
url: /dialogs
steps:
  - dialog: dismiss
  - click: the Delete the draft button
  - expect: { dialog: Delete the draft? }
  - expect: { text: { in: the status, is: Draft kept } }
  - dialog: { accept: true, text: "{{ secret.E2E_DRAFT_NAME }}" }
  - click: the Rename the draft button
  - expect: { dialog: { contains: name } }
  - expect: { text: { in: the status, is: "Renamed to {{ secret.E2E_DRAFT_NAME }}" } }
  - click: the Delete the draft button
  - expect: { text: { in: the status, is: Draft deleted } }
`)
	mustPass(t, rep)
	ss := steps(rep)
	for i, want := range map[int]string{
		1: `the page's confirm "Delete the draft?" was answered Cancel`,
		5: `the page's prompt "New name?" was answered OK with "***"`,
		8: `the page's confirm "Delete the draft?" was answered OK`,
	} {
		if ss[i].Note != want {
			t.Errorf("step %d note %q, want %q", i+1, ss[i].Note, want)
		}
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	jb, _ := json.Marshal(name)
	db, _ := os.ReadFile(filepath.Join(e.dbDir, "e2e.db"))
	wal, _ := os.ReadFile(filepath.Join(e.dbDir, "e2e.db-wal"))
	for what, text := range map[string]string{"output": e.out.String(), "report": string(b), "store": string(db) + string(wal)} {
		for _, f := range []string{name, string(jb[1 : len(jb)-1]), strconv.Quote(name), "plan"} {
			if strings.Contains(text, f) {
				i := strings.Index(text, f)
				t.Errorf("the %s shows the secret as %q: …%q…", what, f, text[max(0, i-300):min(len(text), i+len(f)+60)])
			}
		}
	}
}

// TestRunDialogsBadInput: an answer no dialog takes fails the test at the
// dialog step's file:line:col; a text given to an alert fails the step
// that opened it; an expected dialog that never opened, or said something
// else, fails the expect step saying so.
func TestRunDialogsBadInput(t *testing.T) {
	e := newEnv(t)
	e.findsNothing()
	rep := e.run("", `name: unused answer
url: /dialogs
steps:
  - expect: { text: { in: the status, is: No dialog yet } }
  - dialog: dismiss
  - expect: { text: { in: the status, is: No dialog yet } }
`)
	ss := steps(rep)
	const unused = "t0.e2e.yaml:5:5: dialog: dismiss was never used: no dialog opened after it by the end of the test"
	if rep.Passed() || !strings.HasPrefix(rep.Tests[0].Error, unused) {
		t.Errorf("unused answer: passed=%v, error %q, want %q", rep.Passed(), rep.Tests[0].Error, unused)
	}
	if len(ss) != 3 || ss[1].Status != "failed" || !strings.HasPrefix(ss[1].Error, unused) {
		t.Errorf("the dialog step is not the one failed: %+v", ss)
	}
	if !strings.Contains(e.out.String(), unused) {
		t.Errorf("the output does not say so:\n%s", e.out.String())
	}
	for _, c := range []struct{ steps, err string }{
		{"  - dialog: { accept: true, text: Ann }\n  - click: the Show an alert button\n",
			`the page's alert "Draft saved" took the dialog step's text, but only a prompt takes text`},
		{"  - expect: { dialog: Delete the draft? }\n",
			`expected a dialog saying exactly "Delete the draft?", but the page opened none since the test started`},
		{"  - click: the Show an alert button\n  - expect: { dialog: Delete the draft? }\n",
			`expected the dialog's message to be "Delete the draft?", got "Draft saved"`},
		{"  - click: the Show an alert button\n  - expect: { dialog: Draft saved }\n  - expect: { dialog: Draft saved }\n",
			`expected a dialog saying exactly "Draft saved", but the page opened none since the last expect dialog step`},
	} {
		rep := e.run("", "name: bad\nurl: /dialogs\nsteps:\n"+c.steps)
		ss := steps(rep)
		if rep.Passed() || len(ss) == 0 || !strings.HasPrefix(ss[len(ss)-1].Error, c.err) {
			var got string
			if len(ss) > 0 {
				got = ss[len(ss)-1].Error
			}
			t.Errorf("%s: passed=%v, error %q, want %q", c.steps, rep.Passed(), got, c.err)
		}
	}
}

// TestRunMultiSelect adds options to and removes them from a select that
// takes several, by label in any case: the others stay chosen.
func TestRunMultiSelect(t *testing.T) {
	e := newEnv(t)
	rep := e.run("", `name: toppings
url: /fields
steps:
  - select: { from: the Toppings list, add: Olives }
  - expect: { text: { in: the Chosen toppings status, is: "Cheese, Olives, Ham" } }
  - select: { from: the Toppings list, remove: cheese }
  - expect: { text: { in: the Chosen toppings status, is: "Olives, Ham" } }
  - select: { from: the Toppings list, add: basil }
  - expect: { text: { in: the Chosen toppings status, is: "Olives, Ham, Basil" } }
  - select: { from: the Toppings list, add: Olives }
  - expect: { text: { in: the Chosen toppings status, is: "Olives, Ham, Basil" } }
`)
	mustPass(t, rep)
}

// TestRunMultiSelectRefuses: removing an option not chosen, adding a
// disabled or missing one, or adding to a select that takes one option
// fails naming why.
func TestRunMultiSelectRefuses(t *testing.T) {
	e := newEnv(t)
	e.findsNothing()
	for _, c := range []struct{ step, err string }{
		{"select: { from: the Toppings list, remove: Basil }", `option "Basil" is not chosen (chosen: Cheese, Ham)`},
		{"select: { from: the Toppings list, add: Anchovies }", `option "Anchovies" is disabled`},
		{"select: { from: the Toppings list, add: Pepperoni }", `no option "Pepperoni" (options: Cheese, Olives, Ham, Basil, Anchovies)`},
		{"select: { from: the Size combobox, add: Small }", "it takes one option only; choose it with select"},
		{"select: { from: the Save button, remove: Small }", "it is not a <select>"},
	} {
		rep := e.run("", "name: refuse\nurl: /fields\nsteps:\n  - "+c.step+"\n")
		ss := steps(rep)
		if rep.Passed() || len(ss) != 1 || !strings.Contains(ss[0].Error, c.err) {
			var got string
			if len(ss) > 0 {
				got = ss[0].Error
			}
			t.Errorf("%s: passed=%v, error %q, want it to fail saying %q", c.step, rep.Passed(), got, c.err)
		}
	}
}
