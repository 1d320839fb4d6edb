package step

import (
	"strings"
	"testing"
)

// TestMisnamed checks that a description asking for another action than
// its step's type is refused, and that target descriptions which merely
// contain an action's words are not.
func TestMisnamed(t *testing.T) {
	bad := []struct {
		typ    Type
		desc   string
		phrase string
	}{
		{Click, "double click on the oat milk label", "double click"},
		{Click, "Double-click the oat milk label", "double click"},
		{Click, "dblclick the label", "double click"},
		{Click, "right click the box", "right click"},
		{Click, "right-click on the file", "right click"},
		{Click, "open the context menu of the row", "right click"},
		{Click, "drag the first item to the end", "drag"},
		{Click, "drag and drop the card onto Done", "drag"},
		{Click, "upload the photo into the avatar field", "upload"},
		{Click, "attach a file to the message", "upload"},
		{Click, "hover over the avatar", "hover"},
		{Click, "type hello into the search field", "type"},
		{Click, "enter your email into the email field", "type"},
		{Click, "select France from the country list", "select"},
		{Click, "check the Remember me checkbox", "check"},
		{Click, "uncheck the newsletter checkbox", "uncheck"},
		{Check, "uncheck the newsletter checkbox", "uncheck"},
		{Hover, "double click the label", "double click"},
		{Click, "please double click the label", "double click"},
	}
	for _, c := range bad {
		s := Step{Type: c.typ, Description: c.desc}
		phrase, _, ok := Misnamed(s)
		if !ok || phrase != c.phrase {
			t.Errorf("%s %q: got %q %v, want %q", c.typ, c.desc, phrase, ok, c.phrase)
		}
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), "asks to \""+c.phrase+"\"") {
			t.Errorf("%s %q: Validate = %v", c.typ, c.desc, err)
		}
	}
	good := []struct {
		typ  Type
		desc string
	}{
		{Click, "the Upload button"},
		{Click, "Upload"},
		{Click, "Upload file"},
		{Click, "the Double click me button"},
		{Click, `"Double click me"`},
		{Click, "Select all"},
		{Click, "the Select all checkbox"},
		{Click, "Check availability"},
		{Click, "check the availability"},
		{Click, "the drag handle of the first row"},
		{Click, "Pick from library"},
		{Click, "Enter"},
		{Click, "Hover card"},
		{Click, "the Attach button"},
		{Click, "press the Submit button"},
		{Check, "check the Remember me checkbox"},
		{Uncheck, "uncheck the newsletter checkbox"},
		{Hover, "hover over the avatar"},
		{Select, "select France from the country list"},
		{TypeText, "the search field"},
		{Expect, "double click the label"}, // not an action: checked elsewhere
		{Act, "double click the oat milk label and rename it"},
		{Assert, "drag the card to Done works"},
	}
	for _, c := range good {
		s := Step{Type: c.typ, Description: c.desc}
		if phrase, _, ok := Misnamed(s); ok {
			t.Errorf("%s %q: flagged as %q, want none", c.typ, c.desc, phrase)
		}
	}
}

// TestParseMisnamed checks the grammar points at --description.
func TestParseMisnamed(t *testing.T) {
	_, err := Parse(`--step-type CLICK --description "double click on the oat milk label"`)
	e, ok := err.(*Error)
	if !ok || e.Col != 19 || !strings.Contains(e.Msg, `the step is a click but its description asks to "double click"`) {
		t.Fatalf("got %#v", err)
	}
}
