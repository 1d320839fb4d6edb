package browser

import (
	"reflect"
	"strings"
	"testing"
)

// TestDialogsAreAnswered: alerts, confirms and prompts do not block the
// page; each is accepted as a person clicking OK would, and listed once.
func TestDialogsAreAnswered(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/dialogs")
	ctx := ctxT(t)
	for _, c := range []struct {
		button, status string
		dialog         Dialog
	}{
		{"Show an alert", "Alert closed", Dialog{Type: "alert", Message: "Draft saved", Accepted: true}},
		{"Delete the draft", "Draft deleted", Dialog{Type: "confirm", Message: "Delete the draft?", Accepted: true}},
		{"Rename the draft", "Renamed to Untitled draft", Dialog{Type: "prompt", Message: "New name?", Accepted: true}},
	} {
		must(t, p.Click(ctx, ref(t, p, "button", c.button), ActOptions{}))
		settle(t, p)
		if text := textOf(t, p); !strings.Contains(text, c.status) {
			t.Errorf("after %s the page lacks %q:\n%s", c.button, c.status, text)
		}
		if got := p.Dialogs(); !reflect.DeepEqual(got, []Dialog{c.dialog}) {
			t.Errorf("after %s: dialogs %+v, want %+v", c.button, got, c.dialog)
		}
	}
	if got := p.Dialogs(); len(got) != 0 {
		t.Errorf("dialogs listed twice: %+v", got)
	}
}

// TestDialogAnswersGiven: answers given before a dialog opens are taken in
// order, one a dialog: a confirm answered Cancel, a prompt given a text;
// then the default OK again. An answer no dialog takes stays waiting.
func TestDialogAnswersGiven(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/dialogs")
	ctx := ctxT(t)
	p.AnswerNextDialog(DialogAnswer{Accept: false})
	p.AnswerNextDialog(DialogAnswer{Accept: true, Text: "Ann", HasText: true})
	for _, c := range []struct {
		button, status string
		dialog         Dialog
	}{
		{"Delete the draft", "Draft kept", Dialog{Type: "confirm", Message: "Delete the draft?", Answered: true}},
		{"Rename the draft", "Renamed to Ann", Dialog{Type: "prompt", Message: "New name?", Accepted: true, Answered: true, Text: "Ann", HasText: true}},
		{"Delete the draft", "Draft deleted", Dialog{Type: "confirm", Message: "Delete the draft?", Accepted: true}},
	} {
		must(t, p.Click(ctx, ref(t, p, "button", c.button), ActOptions{}))
		settle(t, p)
		if text := textOf(t, p); !strings.Contains(text, c.status) {
			t.Errorf("after %s the page lacks %q:\n%s", c.button, c.status, text)
		}
		if got := p.Dialogs(); !reflect.DeepEqual(got, []Dialog{c.dialog}) {
			t.Errorf("after %s: dialogs %+v, want %+v", c.button, got, c.dialog)
		}
	}
	if n := p.WaitingAnswers(); n != 0 {
		t.Errorf("%d answers waiting, want 0", n)
	}
	p.AnswerNextDialog(DialogAnswer{Accept: true})
	if n := p.WaitingAnswers(); n != 1 {
		t.Errorf("%d answers waiting, want 1", n)
	}
}
