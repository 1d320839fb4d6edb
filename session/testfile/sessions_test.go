package testfile

import (
	"strings"
	"testing"
)

// TestSessionConfigProblems: every problem with sessions: in e2e.yaml is
// reported at its line and column, all in one pass.
func TestSessionConfigProblems(t *testing.T) {
	src := `sessions:
  signed in: { flow: sign in }
  admin: { check: { url: /admin } }
  typo: { flow: x, chek: { url: /a } }
  nothing:
  listed: [a]
  admin: { flow: a, check: { url: /b } }
  no url: { flow: a, check: {} }
  bad with: { flow: a, with: [a], check: { url: /c } }
  bad var: { flow: a, with: { user: "{{ env.lower-case }}" }, check: { url: "/x/{{ env.TOKEN" } }
`
	_, err := ParseConfig("e2e.yaml", []byte(src))
	if err == nil {
		t.Fatal("no problems")
	}
	got := err.Error()
	for _, want := range []string{
		`e2e.yaml:2:3: session "signed in" needs check: { url: PATH }`,
		`e2e.yaml:3:3: session "admin" needs flow: the name of the flow that signs in`,
		`e2e.yaml:4:20: unknown key "chek" in a session; did you mean check?`,
		`e2e.yaml:5:3: session "nothing" needs a flow and a check`,
		`e2e.yaml:6:11: expected a session, found a list`,
		`e2e.yaml:7:3: two sessions are named "admin" (the first at line 3); rename one`,
		`e2e.yaml:8:29: check needs url:`,
		`e2e.yaml:9:30: expected the flow's parameters as a mapping`,
		`e2e.yaml:10:38: invalid variable name "lower-case"`,
		`e2e.yaml:10:81: unclosed "{{"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"sessions: [a]\n", "sessions: signed in\n"} {
		if _, err := ParseConfig("e2e.yaml", []byte(bad)); err == nil || !strings.Contains(err.Error(), "sessions takes a mapping of session names") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestSessionLinking: a session's flow is linked as a use step is, with
// its problems at their places in e2e.yaml (a flow no file names, with a
// did-you-mean; a parameter the flow lacks; one it needs that is not
// given); a test's session: names a session of e2e.yaml, or is a problem
// at its place in the test's file, with a did-you-mean.
func TestSessionLinking(t *testing.T) {
	cfg, err := ParseConfig("e2e.yaml", []byte(`sessions:
  signed in: { flow: sign in, with: { user: a, password: b }, check: { url: /account } }
  admin: { flow: sign inn, check: { url: /admin } }
  guest: { flow: sign in, with: { usr: a }, check: { url: /x } }
`))
	if err != nil {
		t.Fatal(err)
	}
	signIn := mustFlow(t, "sign-in.flow.yaml", "name: sign in\nparams: [user, password]\nurl: /login\nsteps:\n  - type: { into: the email field, text: \"{{ user }}\" }\n")
	fs, _ := NewFlows([]*Flow{signIn})
	l := fs.LinkSessions(cfg)
	got := l.Error()
	for _, want := range []string{
		`e2e.yaml:3:18: no flow is named "sign inn"; did you mean "sign in"?`,
		`e2e.yaml:4:35: flow "sign in" has no parameter "usr"; did you mean user?`,
		`e2e.yaml:4:18: flow "sign in" needs user and password: give user, password under with:`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("problems lack %q:\n%s", want, got)
		}
	}
	if len(l) != 3 {
		t.Errorf("%d problems, want 3:\n%s", len(l), got)
	}
	s := cfg.Session("signed in")
	if s.Use.Def != signIn || len(s.Use.Steps) != 2 || s.Use.Steps[1].Value != "a" || s.CheckURL != "/account" {
		t.Errorf("signed in not linked: %+v", s.Use)
	}

	test, err := Parse("t.e2e.yaml", []byte("name: t\nsession: signed inn\nsteps:\n  - click: the Users link\n"))
	if err != nil {
		t.Fatal(err)
	}
	if test.Session != "signed inn" || test.SessionPos != (Pos{2, 10}) {
		t.Fatalf("session: %q at %v", test.Session, test.SessionPos)
	}
	if l := CheckSession(cfg, test); l == nil || !strings.Contains(l.Error(), `t.e2e.yaml:2:10: no session is named "signed inn"; did you mean "signed in"?`) {
		t.Errorf("unknown session: %v", l)
	}
	test.Session = "signed in"
	if l := CheckSession(cfg, test); l != nil {
		t.Errorf("known session: %v", l)
	}
	test.Session = "zzz"
	if l := CheckSession(DefaultConfig("."), test); l == nil || !strings.Contains(l.Error(), "e2e.yaml has no sessions:") {
		t.Errorf("no sessions at all: %v", l)
	}
	if _, err := Parse("t.e2e.yaml", []byte("name: t\nsession: [a]\nsteps:\n  - click: x\n")); err == nil {
		t.Error("a list as the session is accepted")
	}
}
