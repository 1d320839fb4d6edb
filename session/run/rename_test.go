package run

import (
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// TestRenamedFieldStillFitsIsAHit: the redesign renames the login form's
// "Email" field to "Work email". "the email field" still names it, no
// other field names it better, so the cached element is a hit (before the
// check read the description's words, it missed with "attribute-changed:
// name is …"); "Sign in" became "Log in" in the redesign's second step
// and is not replayed here.
func TestRenamedFieldStillFitsIsAHit(t *testing.T) {
	e := newEnv(t)
	src := `name: email
url: /login
steps:
  - type: { into: the email field, text: a@example.com }
`
	if rep := e.run("", src); !rep.Passed() {
		t.Fatalf("cold:\n%s", e.out.String())
	}
	rep := e.run("redesign", src)
	if !rep.Passed() {
		t.Fatalf("redesign:\n%s", e.out.String())
	}
	if s := rep.Tests[0].Steps[0]; s.Status != session.StatusHit {
		t.Errorf("the email field on the redesign: %s %q\n%s", s.Status, s.MissReason, e.out.String())
	}
}
