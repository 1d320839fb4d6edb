package run

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/redact"
)

// A secret the snapshot's text cap cut through must not leave its start in
// what the model reads: "pw hunt… 3 more characters" gives away four
// characters of "hunter2".
func TestRedactSnapshotHidesASecretCutShort(t *testing.T) {
	red := redact.New("hunter2")
	cut := &ax.Node{Role: "paragraph", Name: "pw hunt… 3 more characters", Cut: true}
	whole := &ax.Node{Role: "paragraph", Name: "hunt for hunter2"}
	s := &ax.Snapshot{Title: "login hun… 4 more characters", URL: "/x?pw=hunter2", Root: []*ax.Node{{Role: "main", Children: []*ax.Node{cut, whole}}}}
	redactSnapshot(s, red)
	if cut.Name != "pw ***… 3 more characters" {
		t.Errorf("cut name = %q", cut.Name)
	}
	if whole.Name != "hunt for ***" { // text not cut keeps its innocent "hunt"
		t.Errorf("whole name = %q", whole.Name)
	}
	if s.Title != "login ***… 4 more characters" || strings.Contains(s.URL, "hunter2") {
		t.Errorf("title %q, url %q", s.Title, s.URL)
	}
}

// A hint (the text next to an unnamed field, a title) is page text like a
// name: a secret in it never reaches the model.
func TestRedactSnapshotHidesASecretInAHint(t *testing.T) {
	red := redact.New("hunter2")
	n := &ax.Node{Role: "textbox", States: ax.States{Interactive: true, Hint: "Password (hunter2) · pw field"}}
	cut := &ax.Node{Role: "checkbox", Cut: true, States: ax.States{Interactive: true, Hint: "show hunt… 3 more characters"}}
	s := &ax.Snapshot{Root: []*ax.Node{{Role: "main", Children: []*ax.Node{n, cut}}}}
	redactSnapshot(s, red)
	if n.States.Hint != "Password (***) · pw field" {
		t.Errorf("hint = %q", n.States.Hint)
	}
	if cut.States.Hint != "show ***… 3 more characters" {
		t.Errorf("cut hint = %q", cut.States.Hint)
	}
}

// TestRedactSnapshotHidesAQuotedSecretInHintAndText: a secret with a quote,
// a backslash and a space, as a hint and as a text run (the two snapshot
// fields issue 13 added to what a model reads), is redacted in both.
func TestRedactSnapshotHidesAQuotedSecretInHintAndText(t *testing.T) {
	const secret = `hun"ter 2\x`
	red := redact.New(secret)
	n := &ax.Node{Role: "button", States: ax.States{Interactive: true, Hint: "token " + secret + " · copy"}}
	txt := &ax.Node{Role: "text", Ref: "t1", Text: "your key: " + secret}
	s := &ax.Snapshot{Root: []*ax.Node{{Role: "main", Children: []*ax.Node{n, txt}}}}
	redactSnapshot(s, red)
	if n.States.Hint != "token *** · copy" {
		t.Errorf("hint = %q", n.States.Hint)
	}
	if txt.Text != "your key: ***" {
		t.Errorf("text = %q", txt.Text)
	}
	if out := s.Text(ax.TextOptions{}); strings.Contains(out, "ter 2") {
		t.Errorf("outline keeps the secret:\n%s", out)
	}
}
