package testfile

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/e2e-dev/e2e/session/step"
)

var update = flag.Bool("update", false, "rewrite golden files")

// oneStep returns a test file whose only step is the YAML s, at line 3 column 5.
func oneStep(s string) string {
	return "name: t\nsteps:\n  - " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}

func TestParseKinds(t *testing.T) {
	tests := []struct {
		yaml string
		kind Kind
		want step.Step
	}{
		{"navigate: /users", "navigate", step.Step{Type: step.Navigate, Value: "/users"}},
		{"navigate: https://example.com/a?b=c#d", "navigate", step.Step{Type: step.Navigate, Value: "https://example.com/a?b=c#d"}},
		{"click: the Sign in button", "click", step.Step{Type: step.Click, Description: "the Sign in button"}},
		{`click: 'the "Save" button'`, "click", step.Step{Type: step.Click, Description: `the "Save" button`}},
		{`type: { into: the email field, text: "{{ env.E2E_USER }}" }`, "type",
			step.Step{Type: step.TypeText, Description: "the email field", Value: "{{ env.E2E_USER }}"}},
		{"type:\n  into: the notes\n  text: |\n    line one\n    line two", "type",
			step.Step{Type: step.TypeText, Description: "the notes", Value: "line one\nline two\n"}},
		{"type: { into: the age field, text: 42 }", "type", step.Step{Type: step.TypeText, Description: "the age field", Value: "42"}},
		{"select: { from: the country list, option: France }", "select",
			step.Step{Type: step.Select, Description: "the country list", Value: "France"}},
		{"press: Enter", "press", step.Step{Type: step.Press, Value: "Enter"}},
		{"select: { from: the Toppings list, add: Olives }", "select",
			step.Step{Type: step.AddOption, Description: "the Toppings list", Value: "Olives"}},
		{"select: { from: the Toppings list, remove: Ham }", "select",
			step.Step{Type: step.RemoveOption, Description: "the Toppings list", Value: "Ham"}},
		{"dialog: accept", "dialog", step.Step{Type: step.Accept}},
		{"dialog: dismiss", "dialog", step.Step{Type: step.Dismiss}},
		{`dialog: { accept: true, text: "Ann" }`, "dialog", step.Step{Type: step.Accept, Value: "Ann"}},
		{"dialog: { accept: true }", "dialog", step.Step{Type: step.Accept}},
		{"dialog:\n  dismiss: true", "dialog", step.Step{Type: step.Dismiss}},
		{`expect: { dialog: "Delete the draft?" }`, "expect", step.Step{Type: step.Expect, Expect: step.ExpectDialog, Value: "Delete the draft?"}},
		{`expect: { dialog: { contains: draft } }`, "expect", step.Step{Type: step.Expect, Expect: step.ExpectDialog, Value: "draft", Match: step.MatchContains}},
		{"press: 1", "press", step.Step{Type: step.Press, Value: "1"}},
		{"press: { key: Control+A, in: the notes }", "press", step.Step{Type: step.Press, Value: "Control+A", Description: "the notes"}},
		{"press: { key: Escape }", "press", step.Step{Type: step.Press, Value: "Escape"}},
		{"click: the Upload button", "click", step.Step{Type: step.Click, Description: "the Upload button"}},
		{"click: the Double click me button", "click", step.Step{Type: step.Click, Description: "the Double click me button"}},
		{"click: Select all", "click", step.Step{Type: step.Click, Description: "Select all"}},
		{"dblclick: the oat milk label", "dblclick", step.Step{Type: step.DblClick, Description: "the oat milk label"}},
		{"clear: the Email field", "clear", step.Step{Type: step.Clear, Description: "the Email field"}},
		{"rightclick: the Context area", "rightclick", step.Step{Type: step.RightClick, Description: "the Context area"}},
		{"upload: { into: the Attachment field, files: testdata/files/report.txt }", "upload",
			step.Step{Type: step.Upload, Description: "the Attachment field", Value: "testdata/files/report.txt"}},
		{"upload: { into: the Attachment field, files: [testdata/files/report.txt, testdata/files/notes.txt] }", "upload",
			step.Step{Type: step.Upload, Description: "the Attachment field", Value: "testdata/files/report.txt\ntestdata/files/notes.txt"}},
		{"drag: { from: the Charlie option, to: the Alpha option }", "drag",
			step.Step{Type: step.Drag, Description: "the Charlie option", Value: "the Alpha option"}},
		{"hover: the avatar", "hover", step.Step{Type: step.Hover, Description: "the avatar"}},
		{"check: Remember me", "check", step.Step{Type: step.Check, Description: "Remember me"}},
		{"uncheck: Remember me", "uncheck", step.Step{Type: step.Uncheck, Description: "Remember me"}},
		{"scroll: the footer", "scroll", step.Step{Type: step.Scroll, Description: "the footer"}},
		{"scroll: { in: the Messages panel, to: the Archive button }", "scroll",
			step.Step{Type: step.Scroll, Description: "the Archive button", Value: "the Messages panel"}},
		{"scroll: { to: the Archive button }", "scroll", step.Step{Type: step.Scroll, Description: "the Archive button"}},
		{"wait: 2s", "wait", step.Step{Type: step.Wait, Timeout: 2 * time.Second}},
		{"wait: { for: the results table }", "wait", step.Step{Type: step.Wait, Description: "the results table"}},
		{"wait: { for: the results table }\ntimeout: 30s", "wait",
			step.Step{Type: step.Wait, Description: "the results table", Timeout: 30 * time.Second}},
		{"expect: { visible: the Users heading }", "expect",
			step.Step{Type: step.Expect, Expect: step.ExpectVisible, Description: "the Users heading"}},
		{"expect:\n  hidden: the Alice row", "expect",
			step.Step{Type: step.Expect, Expect: step.ExpectHidden, Description: "the Alice row"}},
		{"expect: { text: { in: the banner, is: Saved } }", "expect",
			step.Step{Type: step.Expect, Expect: step.ExpectText, Description: "the banner", Value: "Saved"}},
		{"expect: { text: { in: the banner, contains: Sav } }", "expect",
			step.Step{Type: step.Expect, Expect: step.ExpectText, Match: step.MatchContains, Description: "the banner", Value: "Sav"}},
		{"expect: { value: { of: the email field, is: a@b.c } }", "expect",
			step.Step{Type: step.Expect, Expect: step.ExpectValue, Description: "the email field", Value: "a@b.c"}},
		{"expect: { value: { of: the email field, contains: '@' } }", "expect",
			step.Step{Type: step.Expect, Expect: step.ExpectValue, Match: step.MatchContains, Description: "the email field", Value: "@"}},
		{`expect: { url: "/users/*" }`, "expect", step.Step{Type: step.Expect, Expect: step.ExpectURL, Value: "/users/*"}},
		{"expect: { url: { contains: /users } }", "expect",
			step.Step{Type: step.Expect, Expect: step.ExpectURL, Match: step.MatchContains, Value: "/users"}},
		{"expect: { title: Users · Admin }", "expect", step.Step{Type: step.Expect, Expect: step.ExpectTitle, Value: "Users · Admin"}},
		{"expect: { title: { is: Users } }", "expect", step.Step{Type: step.Expect, Expect: step.ExpectTitle, Value: "Users"}},
		{"act: archive the user Alice\ntimeout: 2m", "act",
			step.Step{Type: step.Act, Description: "archive the user Alice", Timeout: 2 * time.Minute}},
		{"assert: the table lists three users", "assert", step.Step{Type: step.Assert, Description: "the table lists three users"}},
		{"timeout: 5s\nclick: Save", "click", step.Step{Type: step.Click, Description: "Save", Timeout: 5 * time.Second}},
		{"click: !!str 123", "click", step.Step{Type: step.Click, Description: "123"}},
		{"click: &save Save", "click", step.Step{Type: step.Click, Description: "Save"}},
	}
	seen := map[Kind]bool{}
	for _, tt := range tests {
		src := oneStep(tt.yaml)
		test, err := Parse("t.e2e.yaml", []byte(src))
		if err != nil {
			t.Errorf("%s:\n%v", tt.yaml, err)
			continue
		}
		if len(test.Steps) != 1 {
			t.Errorf("%s: %d steps", tt.yaml, len(test.Steps))
			continue
		}
		got := test.Steps[0]
		if got.Step != tt.want || got.Kind != tt.kind {
			t.Errorf("%s:\n got %s %s\nwant %s %s", tt.yaml, got.Kind, got.Step, tt.kind, tt.want)
		}
		seen[got.Kind] = true
	}
	for _, k := range Kinds() {
		if !seen[k] {
			t.Errorf("no test for kind %s", k)
		}
	}
}

func TestParseTest(t *testing.T) {
	test, err := ParseFile("testdata/archive_user.e2e.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if test.Name != "archive a user" || test.URL != "/users" || test.Context == "" {
		t.Errorf("got name %q url %q context %q", test.Name, test.URL, test.Context)
	}
	want := []struct {
		pos  Pos
		kind Kind
		cmd  string
	}{
		{Pos{5, 5}, "type", `--step-type TYPE --description "the email field" --value "{{ env.E2E_USER }}"`},
		{Pos{6, 5}, "type", `--step-type TYPE --description "the password field" --value "{{ secret.PASSWORD }}"`},
		{Pos{7, 5}, "click", `--step-type CLICK --description "the Sign in button"`},
		{Pos{8, 5}, "expect", `--step-type EXPECT --expect visible --description "the Users heading"`},
		{Pos{9, 5}, "click", `--step-type CLICK --description "the Menu button in the Alice row"`},
		{Pos{10, 5}, "click", `--step-type CLICK --description "Archive in the row menu"`},
		{Pos{11, 5}, "expect", `--step-type EXPECT --expect hidden --description "the Alice row"`},
	}
	if len(test.Steps) != len(want) {
		t.Fatalf("got %d steps, want %d", len(test.Steps), len(want))
	}
	for i, w := range want {
		s := test.Steps[i]
		if s.Pos != w.pos || s.Kind != w.kind || s.String() != w.cmd {
			t.Errorf("step %d: got %s %s %s, want %s %s %s", i, s.Pos, s.Kind, s, w.pos, w.kind, w.cmd)
		}
	}
}

// TestSamples checks that every sample test file parses, and that every
// step's string form reads back as the same step.
func TestSamples(t *testing.T) {
	files, err := filepath.Glob("testdata/*" + Suffix)
	if err != nil || len(files) < 3 {
		t.Fatalf("samples: %v %v", files, err)
	}
	for _, f := range files {
		test, err := ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		for _, s := range test.Steps {
			back, err := step.Parse(s.String())
			if err != nil || back != s.Step {
				t.Errorf("%s:%s: %s does not read back: %v", f, s.Pos, s, err)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "line:col: message"
	}{
		{"empty file", "", []string{"1:1: empty test file; it needs a name and steps"}},
		{"comment only", "# nothing\n", []string{"1:1: empty test file; it needs a name and steps"}},
		{"not a mapping", "- click: x\n", []string{"1:1: expected a test file, found a list"}},
		{"missing name", "steps:\n  - click: x\n", []string{"1:1: missing name; a test file needs a name and steps"}},
		{"missing steps", "name: t\n", []string{"1:1: missing steps; a test file needs a name and steps"}},
		{"empty name", "name: ''\nsteps:\n  - click: x\n", []string{"1:1: empty name; give the test a name"}},
		{"null steps", "name: t\nsteps:\n", []string{"2:1: no steps; add at least one, such as - click: the Sign in button"}},
		{"empty steps", "name: t\nsteps: []\n", []string{"2:8: no steps; add at least one, such as - click: the Sign in button"}},
		{"steps not a list", "name: t\nsteps: click\n", []string{"2:8: expected a list of steps, found text"}},
		{"name is a list", "name: [a, b]\nsteps:\n  - click: x\n", []string{"1:7: expected the test's name, found a list"}},
		{"unknown top key", "name: t\nurll: /x\nsteps:\n  - click: x\n", []string{`2:1: unknown key "urll" in a test file; did you mean url?`}},
		{"unknown top key far", "name: t\nfrobnicate: 1\nsteps:\n  - click: x\n", []string{`2:1: unknown key "frobnicate" in a test file; expected one of name, url, session, context, steps`}},
		{"duplicate key", "name: t\nsteps:\n  - click: x\nname: u\n", []string{`4:1: duplicate key "name" (first at line 1)`}},
		{"unknown kind", oneStep("clik: the Sign in button"), []string{`3:5: unknown key "clik" in a step; did you mean click?`}},
		{"two kinds", oneStep("click: a\ntype: { into: b, text: c }"), []string{"4:5: a step does one thing, but this one has both click and type; split it into two steps"}},
		{"empty step", "name: t\nsteps:\n  -\n  - click: x\n", []string{"3:3: empty step; write one such as - click: the Sign in button"}},
		{"empty mapping step", oneStep("{}"), []string{"3:5: a step needs one of act, assert, check, clear, click, dblclick, dialog, drag, expect, hover, navigate, press, rightclick, scroll, select, type, uncheck, upload, use, wait"}},
		{"timeout only", oneStep("timeout: 2s"), []string{"3:5: a step needs one of act, assert, check, clear, click, dblclick, dialog, drag, expect, hover, navigate, press, rightclick, scroll, select, type, uncheck, upload, use, wait"}},
		{"text step", oneStep("click the Save button"), []string{"3:5: a step is a mapping; write click: the Save button"}},
		{"text step unknown", oneStep("do something"), []string{"3:5: expected a step such as click: the Sign in button, found text"}},
		{"list where text expected", oneStep("click: [a, b]"), []string{"3:12: expected the element to click, found a list; for example click: the Sign in button"}},
		{"mapping where text expected", oneStep("click: { on: x }"), []string{"3:12: expected the element to click, found a mapping; for example click: the Sign in button"}},
		{"clear with a mapping", oneStep("clear: { field: the Email field }"), []string{"3:12: expected the text box, text area or editable region to empty, found a mapping; for example clear: the Email field"}},
		{"select add and remove", oneStep("select: { from: the Toppings list, add: Olives, remove: Ham }"), []string{"3:53: give add or remove, not both"}},
		{"select no option", oneStep("select: { from: the Toppings list }"), []string{"3:13: select needs option or add or remove (the option to choose)"}},
		{"dialog both answers", oneStep("dialog: { accept: true, dismiss: true }"), []string{"3:29: give accept or dismiss, not both"}},
		{"dialog text with dismiss", oneStep(`dialog: { dismiss: true, text: "Ann" }`), []string{"3:30: dialog takes no text with dismiss; text goes with accept"}},
		{"dialog no answer", oneStep(`dialog: { text: "Ann" }`), []string{`3:13: dialog needs accept or dismiss; for example dialog: dismiss, or dialog: { accept: true, text: "Ann" }`}},
		{"dialog accept false", oneStep("dialog: { accept: false }"), []string{`3:23: dialog: accept takes true, found "false"; leave accept out, or give dismiss`}},
		{"dialog other word", oneStep("dialog: ok"), []string{`3:13: dialog takes accept or dismiss; for example dialog: dismiss, or dialog: { accept: true, text: "Ann" }`}},
		{"dialog unknown key", oneStep("dialog: { accept: true, txt: Ann }"), []string{`3:29: unknown key "txt" in dialog; did you mean text?`}},
		{"expect dialog empty", oneStep("expect: { dialog: }"), []string{`3:15: expect dialog needs the expected message; for example expect: { dialog: "Delete the draft?" }`}},
		{"empty clear", oneStep("clear:"), []string{"3:5: clear needs the text box, text area or editable region to empty; for example clear: the Email field"}},
		{"empty click", oneStep("click:"), []string{"3:5: click needs the element to click; for example click: the Sign in button"}},
		{"blank click", oneStep("click: '  '"), []string{"3:5: click needs the element to click; for example click: the Sign in button"}},
		{"type as text", oneStep("type: hello"), []string{"3:11: type takes a mapping; for example type: { into: the email field, text: \"{{ env.E2E_USER }}\" }"}},
		{"type missing text", oneStep("type: { into: the email }"), []string{"3:11: type needs text (the text to type)"}},
		{"type unknown key", oneStep("type: { into: the email, txt: x }"), []string{
			`3:30: unknown key "txt" in type; did you mean text?`}},
		{"type empty text", oneStep("type: { into: the email, text: '' }"), []string{"3:30: type needs text (the text to type)"}},
		{"type text list", oneStep("type: { into: the email, text: [a] }"), []string{"3:36: expected the text to type, found a list"}},
		{"select missing both", oneStep("select: {}"), []string{
			"3:13: select needs from (the select or list box)",
			"3:13: select needs option or add or remove (the option to choose)"}},
		{"press unknown key", oneStep("press: { key: Enter, on: x }"), []string{`3:26: unknown key "on" in press; did you mean in?`}},
		{"wait bad duration", oneStep("wait: 2x"), []string{`3:11: invalid duration "2x"; use a duration such as 500ms, 2s or 1m`}},
		{"wait number", oneStep("wait: 2"), []string{`3:11: invalid duration "2"; give a unit, such as 2s`}},
		{"wait negative", oneStep("wait: -1s"), []string{`3:11: duration "-1s" is not positive`}},
		{"wait empty", oneStep("wait:"), []string{"3:5: wait needs the time to wait, such as 2s; for example wait: 2s, or wait: { for: the results table }"}},
		{"wait with timeout", oneStep("wait: 2s\ntimeout: 5s"), []string{"4:5: a wait for a fixed time takes no timeout"}},
		{"bad step timeout", oneStep("click: x\ntimeout: soon"), []string{`4:14: invalid duration "soon"; use a duration such as 500ms, 2s or 1m`}},
		{"expect text", oneStep("expect: the heading"), []string{"3:13: expect takes a mapping with one of dialog, hidden, text, title, url, value, visible; for example expect: { visible: the Users heading }"}},
		{"expect empty", oneStep("expect:"), []string{"3:5: expect needs one of dialog, hidden, text, title, url, value, visible; for example expect: { visible: the Users heading }"}},
		{"expect unknown", oneStep("expect: { visibel: x }"), []string{`3:15: unknown key "visibel" in expect; did you mean visible?`}},
		{"expect two", oneStep("expect: { visible: x, hidden: y }"), []string{"3:27: expect checks one thing, but this one has both visible and hidden; split it into two steps"}},
		{"expect text no operand", oneStep("expect: { text: { in: the banner } }"), []string{"3:21: expect text needs is or contains (the expected text)"}},
		{"expect text both", oneStep("expect: { text: { in: b, is: x, contains: y } }"), []string{"3:37: give is or contains, not both"}},
		{"expect text scalar", oneStep("expect: { text: Saved }"), []string{"3:21: expect text takes a mapping; for example expect: { text: { in: the banner, contains: Saved } }"}},
		{"expect visible mapping", oneStep("expect: { visible: { in: x } }"), []string{"3:24: expected the element that must be visible, found a mapping; for example expect: { visible: the Users heading }"}},
		{"expect url unknown", oneStep("expect: { url: { matches: x } }"), []string{
			"3:20: expect url needs is or contains (the expected URL or path; * matches any characters)",
			`3:22: unknown key "matches" in expect url; expected one of is, contains`}},
		{"bad variable", oneStep(`type: { into: "the {{ envv.X }} field", text: "{{ secret.A-B }}" }`), []string{
			`3:24: unknown variable kind "envv"; did you mean env?`,
			`3:52: invalid variable name "A-B"; a name is letters, digits and _ and does not start with a digit`}},
		{"unclosed variable", oneStep(`click: the {{ env.X button`), []string{`3:16: unclosed "{{"; a variable ends with "}}"`}},
		{"variable in url", "name: t\nurl: /u/{{ secrt.ORG }}\nsteps:\n  - click: x\n", []string{`2:9: unknown variable kind "secrt"; did you mean secret?`}},
		{"unquoted variable", oneStep(`type: { into: x, text: {{ env.X }} }`), []string{
			`3:29: invalid YAML: could not find flow map content; put a value that holds {{ in quotes, such as "{{ env.USER }}"`}},
		{"yaml syntax", "name: t\nsteps:\n  - click: [a\n", []string{"3:12: invalid YAML: sequence end token ']' not found"}},
		{"two documents", "name: t\nsteps:\n  - click: x\n---\nname: u\n", []string{"4:1: a test file holds one YAML document; remove the second one"}},
		{"alias", "name: &n t\nsteps:\n  - click: *n\n", []string{"3:12: YAML aliases are not supported; write the value out"}},
		{"crlf line breaks", "name: t\r\nsteps:\r\n  - clik: x\r\n", []string{`3:5: unknown key "clik" in a step; did you mean click?`}},
		{"cr line breaks", "name: t\rsteps:\r  - click: x\r  - wait: 1\r", []string{`4:11: invalid duration "1"; give a unit, such as 1s`}},
		{"click asks to double click", oneStep("click: double click on the oat milk label"), []string{
			`3:12: the step is a click but its description asks to "double click"; use dblclick:, or, if the words are the element's name, write them as one, such as: the "double click on" button`}},
		{"click asks to hover", oneStep("click: hover over the avatar"), []string{
			`3:12: the step is a click but its description asks to "hover"; use hover:, or, if the words are the element's name, write them as one, such as: the "hover over the" button`}},
		{"press in asks to select", oneStep("press: { key: Enter, in: select France from the country list }"), []string{
			`3:30: the step is a press but its description asks to "select"; use select:, or, if the words are the element's name, write them as one, such as: the "select France from" button`}},
		{"upload missing file", oneStep("upload: { into: the Attachment field, files: [testdata/files/report.txt, testdata/nope.pdf] }"), []string{
			`3:78: no file "testdata/nope.pdf" (looked for testdata/nope.pdf, relative to the test file)`}},
		{"upload a directory", oneStep("upload: { into: the Attachment field, files: testdata }"), []string{
			`3:50: "testdata" is a directory; give a file`}},
		{"upload no files", oneStep("upload: { into: the Attachment field, files: [] }"), []string{
			`3:50: no files; give a path such as fixtures/report.pdf`}},
		{"upload no into", oneStep("upload: { files: testdata/files/report.txt }"), []string{
			`3:13: upload needs into (the file input, or the label or button for it)`}},
		{"upload as text", oneStep("upload: testdata/files/report.txt"), []string{
			`3:13: upload takes a mapping; for example upload: { into: the Attachment field, files: [fixtures/report.pdf] }`}},
		{"click asks to upload", oneStep("click: upload the photo"), []string{
			`3:12: the step is a click but its description asks to "upload"; use upload:, or, if the words are the element's name, write them as one, such as: the "upload the photo" button`}},
		{"drag no to", oneStep("drag: { from: the card }"), []string{
			`3:11: drag needs to (the element to drop it on, described like any element)`}},
		{"scroll in no to", oneStep("scroll: { in: the Messages panel }"), []string{
			`3:13: scroll needs to (the element to scroll into view)`}},
		{"click asks to drag", oneStep("click: drag the card to Done"), []string{
			`3:12: the step is a click but its description asks to "drag"; use drag:, or, if the words are the element's name, write them as one, such as: the "drag the card" button`}},
		{"many problems", "nam: t\nsteps:\n  - clik: x\n  - type: { into: a }\n  - wait: 3\n", []string{
			`1:1: unknown key "nam" in a test file; did you mean name?`,
			`3:5: unknown key "clik" in a step; did you mean click?`,
			"4:11: type needs text (the text to type)",
			`5:11: invalid duration "3"; give a unit, such as 3s`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.e2e.yaml", []byte(tt.src))
			var list List
			if !errors.As(err, &list) {
				t.Fatalf("got %v, want a List", err)
			}
			var got []string
			for _, e := range list {
				if e.File != "t.e2e.yaml" {
					t.Errorf("file %q", e.File)
				}
				got = append(got, strings.TrimPrefix(e.Error(), "t.e2e.yaml:"))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("source:\n%s\ngot:\n%s\nwant:\n%s", tt.src, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestErrorFormat checks the full error text of a file with many problems
// against a golden file; go test -update rewrites it.
func TestErrorFormat(t *testing.T) {
	_, err := ParseFile("testdata/bad/many_problems.e2e.yaml")
	if err == nil {
		t.Fatal("no error")
	}
	golden := "testdata/bad/many_problems.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(err.Error()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, rerr := os.ReadFile(golden)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if err.Error()+"\n" != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s", err, want)
	}
}

func TestExcerpt(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{Line: 3, Col: 5, Width: 4, Source: "  - clik: x"}, "  3 |   - clik: x\n    |     ^^^^"},
		{Error{Line: 12, Col: 3, Width: 1, Source: "\t\tx"}, "  12 | \t\tx\n     | \t\t^"},
		{Error{Line: 1, Col: 4, Width: 2, Source: "é: ü"}, "  1 | é: ü\n    |    ^^"},
		{Error{Line: 2, Col: 9, Width: 0, Source: "  - x:"}, "  2 |   - x:\n    |         ^"},
		{Error{Line: 0, Col: 0}, ""},
	}
	for _, tt := range tests {
		if got := tt.e.Excerpt(); got != tt.want {
			t.Errorf("Excerpt() =\n%s\nwant\n%s", got, tt.want)
		}
	}
}

// FuzzParse checks that Parse never panics, that every problem it reports
// has a position inside the file, and that every step it returns is valid
// and reads back from its string form.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*" + Suffix)
	bad, _ := filepath.Glob("testdata/bad/*" + Suffix)
	for _, p := range append(files, bad...) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(oneStep("expect: { text: { in: b, is: x, contains: y } }")))
	f.Add([]byte("name: &n t\nsteps:\n  - click: *n\n  - !!map {click: x}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		test, err := Parse("f.e2e.yaml", src)
		if err != nil {
			var list List
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v, want a non-empty List", err, err)
			}
			lines := strings.Count(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(src)), "\n") + 1
			for _, e := range list {
				if e.Line < 1 || e.Line > lines || e.Col < 1 || e.Width < 1 || e.Msg == "" {
					t.Fatalf("bad position or message: %+v in\n%s", e, src)
				}
				shown, _, _ := strings.Cut(e.Excerpt(), "\n")
				if n := utf8.RuneCountInString(shown); n > MaxExcerpt+20 {
					t.Fatalf("excerpt line of %d characters: %q", n, shown)
				}
			}
			// at most MaxShown problems of bounded length, then a count
			perProblem := len("f.e2e.yaml:") + 30 + 4*maxMsg + 2*(4*MaxExcerpt+30)
			if n := len(list.Error()); n > MaxShown*perProblem+50 {
				t.Fatalf("%d bytes printed for %d problems", n, len(list))
			}
			return
		}
		if test.Name == "" || len(test.Steps) == 0 {
			t.Fatalf("valid test without name or steps: %+v", test)
		}
		for _, s := range test.Steps {
			if err := s.Validate(); err != nil {
				t.Fatalf("invalid step %s: %v", s, err)
			}
			back, err := step.Parse(s.String())
			if err != nil || back != s.Step {
				t.Fatalf("step %s reads back as %s, %v", s, back, err)
			}
			if _, err := StepVars(s.Step); err != nil {
				t.Fatalf("step %s has malformed variables: %v", s, err)
			}
		}
	})
}
