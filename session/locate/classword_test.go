package locate

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

func file() opt { return func(n *ax.Node) { n.States.File = true } }

// box is a line the snapshot gives a role-less overlay for its class words.
func box(words string, children ...*ax.Node) *ax.Node {
	return el("generic", "", hint(words), kids(children...))
}

// TestClassWordsFindStatusText: a status line with no role is known by its
// owner's class words; a live region is a status message; a role that says
// status always wins, and two texts the class words say alike are no pick.
func TestClassWordsFindStatusText(t *testing.T) {
	msg := txt("Saved: Ann Lee", hint("pf msg"))
	label := txt("Status", hint("lbl"))
	s := snap(el("main", "", kids(txt("Display name", hint("pf k")), label, msg, el("button", "Share"))))
	runHintCases(t, "divsoup", s, []hintCase{
		{desc: "the status message", want: msg},
		{desc: "the message", want: msg},
		{desc: "the status", want: msg},
		{desc: "the Saved message", want: msg},
		// class words are not a name: "the pf text" says nothing
		{desc: "the pf message", reason: ReasonNoMatch},
		// a class word for counters says nothing of status
		{desc: "the counter", reason: ReasonAmbiguous},
		// class words are never a name
		{desc: "the msg text", reason: ReasonNoMatch},
	})

	errText := txt("Name is required", hint("field error"))
	s7 := snap(el("main", "", kids(msg, errText)))
	runHintCases(t, "error", s7, []hintCase{{desc: "the error message", want: errText}})

	log := el("log", "", kids(txt("Connected")))
	s8 := snap(el("main", "", kids(txt("Chat"), log)))
	runHintCases(t, "log", s8, []hintCase{{desc: "the status message", want: log}})

	other := txt("Draft kept", hint("msg"))
	s2 := snap(el("main", "", kids(msg, other)))
	runHintCases(t, "two msg texts", s2, []hintCase{{desc: "the status message", reason: ReasonAmbiguous}})

	status := el("status", "", kids(txt("Saved")))
	s3 := snap(el("main", "", kids(msg, status)))
	runHintCases(t, "role beats class", s3, []hintCase{{desc: "the status message", want: status}})

	alert := el("alert", "", kids(txt("Not saved yet", hint("alert message"))))
	s4 := snap(el("main", "", kids(txt("Language"), alert, el("button", "Save"))))
	runHintCases(t, "live region", s4, []hintCase{{desc: "the status message", want: alert}})

	// a role=status line and an alert: the role says which is the status
	status5 := el("status", "", kids(txt("Saved")))
	s5 := snap(el("main", "", kids(el("alert", "", kids(txt("Offline"))), status5)))
	runHintCases(t, "status and alert", s5, []hintCase{{desc: "the status message", want: status5}})

	count := txt("3 left", hint("todo count"))
	s6 := snap(el("main", "", kids(txt("Tasks"), count, txt("All"))))
	runHintCases(t, "counter", s6, []hintCase{{desc: "the counter", want: count}})
}

// TestClassWordBoxIsDialog: an overlay box classed "overlay" is a dialog
// known by its title; a role=dialog always wins over a box that reads as
// well, and a text classed "overlay" is no dialog.
func TestClassWordBoxIsDialog(t *testing.T) {
	field := el("textbox", "", hint("Name"))
	save := el("button", "Save")
	b := box("overlay box", txt("Edit display name", hint("overlay title")), txt("Name"), field, save)
	s := snap(el("main", "", kids(el("button", "Edit name"))), b)
	runHintCases(t, "divsoup", s, []hintCase{
		{desc: "the Edit display name dialog", want: b},
		{desc: "the dialog", want: b},
		{desc: "the Save button in the Edit display name dialog", want: save},
		{desc: "the Save button in the dialog", want: save},
		{desc: "the Rename dialog", reason: ReasonNoMatch},
	})

	real := el("dialog", "Edit display name", kids(el("heading", "Edit display name"), el("button", "Save")))
	s2 := snap(el("main", ""), box("modal", txt("Edit display name")), real)
	runHintCases(t, "role beats class", s2, []hintCase{
		{desc: "the Edit display name dialog", want: real},
		{desc: "the dialog", want: real},
	})

	s3 := snap(el("main", "", kids(txt("Edit display name", hint("overlay title")))))
	runHintCases(t, "text is no dialog", s3, []hintCase{{desc: "the Edit display name dialog", reason: ReasonNoMatch}})
}

// TestFileInputFits: a file input (or what stands for a hidden one) is a
// field, an upload and a button; by its label it beats a text field whose
// name only starts so, and two uploads are told apart by their labels.
func TestFileInputFits(t *testing.T) {
	avatar := el("button", "Avatar", hint("Choose file"), file())
	url := el("textbox", "Avatar URL")
	s := snap(el("main", "", kids(url, txt("Avatar"), avatar)))
	runHintCases(t, "semantic", s, []hintCase{
		{desc: "the Avatar field", want: avatar},
		{desc: "the avatar upload", want: avatar},
		{desc: "the Avatar input", want: avatar},
		{desc: "the Choose file button", want: avatar},
		{desc: "the Avatar URL field", want: url},
	})

	// divsoup: a display:none input inside a "Choose file" div, which
	// stands for it (generic, not interactable)
	stand := el("generic", "", hint("Avatar · Choose file · av"), file(), kids(txt("Choose file")))
	cover := el("generic", "", hint("Cover · Choose file · av"), file(), kids(txt("Choose file")))
	s2 := snap(el("main", "", kids(txt("Avatar"), stand, txt("Cover"), cover)))
	runHintCases(t, "divsoup", s2, []hintCase{
		{desc: "the Avatar field", want: stand},
		{desc: "the Cover upload", want: cover},
		{desc: "the file input", reason: ReasonAmbiguous},
		{desc: "the Choose file button", reason: ReasonAmbiguous},
		// the text is not the upload
		{desc: `the "Avatar" text`, want: s2.Root[0].Children[0]},
	})

	// a text field is not a file input, nor a box
	s3 := snap(el("main", "", kids(el("textbox", "Avatar"), box("overlay", txt("Avatar")))))
	if r := Locate(s3, "the Avatar field"); r.Target == nil || r.Target.Node.Role != "textbox" {
		t.Errorf("the Avatar field with no file input: %+v", r)
	}
}

// TestClassWordIntent: a node found by its class words keeps that in its
// intent, and Check misses once its class words no longer say so.
func TestClassWordIntent(t *testing.T) {
	msg := txt("Saved", hint("s msg"))
	s := snap(el("main", "", kids(msg)))
	r := Locate(s, "the status message")
	if r.Target == nil || r.Intent.Attributes["class~"] != "status message" {
		t.Fatalf("intent: %+v (%s)", r.Intent, r.Detail)
	}
	if ok, why := Check(s, msg, nil, r.Intent); !ok {
		t.Errorf("same node misses: %s", why)
	}
	moved := txt("Saved", hint("s lbl"))
	s2 := snap(el("main", "", kids(moved)))
	if ok, _ := Check(s2, moved, nil, r.Intent); ok {
		t.Errorf("a text whose class words no longer say status still checks")
	}
}
