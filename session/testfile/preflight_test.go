package testfile

import (
	"errors"
	"strings"
	"testing"
)

func TestPreflightReportsEveryProblemWithItsPosition(t *testing.T) {
	src := "name: p\nurl: \"/a/{{ env.HOST_PATH }}\"\nsteps:\n  - type: { into: the Password field, text: \"{{ secret.PW }}\" }\n  - press: Entr\n  - press: Enter\n"
	test, err := Parse("p.e2e.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	env := func(string) (string, bool) { return "", false } // nothing set
	keys := func(k string) error {
		if k != "Enter" {
			return errors.New("unknown key " + k)
		}
		return nil
	}
	lists := Preflight([]*Test{test}, PreflightOptions{Env: env, CheckKeys: keys})
	if len(lists) != 1 {
		t.Fatalf("lists: %v", lists)
	}
	got := lists[0].Error()
	for _, want := range []string{
		"p.e2e.yaml:2:6: url \"/a/{{ env.HOST_PATH }}\" is relative but there is no base URL",
		"p.e2e.yaml:2:6: {{ env.HOST_PATH }} is not set: set the environment variable HOST_PATH",
		"p.e2e.yaml:4:5: {{ secret.PW }} is not set: set the environment variable (a secret) PW",
		"p.e2e.yaml:5:5: unknown key Entr",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	if len(lists[0]) != 4 {
		t.Errorf("%d problems, want 4:\n%s", len(lists[0]), got)
	}
	set := func(string) (string, bool) { return "v", true }
	if l := Preflight([]*Test{test}, PreflightOptions{BaseURL: "http://x", Env: set, CheckKeys: func(string) error { return nil }}); l != nil {
		t.Errorf("a test with nothing wrong: %v", l)
	}
}

// TestPreflightRelativeNavigate: a navigate step to a relative URL with no
// base URL is reported at its line; an absolute one, and one whose URL is a
// variable (it may hold a whole URL), are not.
func TestPreflightRelativeNavigate(t *testing.T) {
	src := "name: n\nurl: http://localhost:1/\nsteps:\n  - navigate: /users\n  - navigate: https://example.com/a\n  - navigate: \"{{ env.NEXT }}\"\n"
	test, err := Parse("n.e2e.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	set := func(string) (string, bool) { return "v", true }
	lists := Preflight([]*Test{test}, PreflightOptions{Env: set})
	if len(lists) != 1 || len(lists[0]) != 1 {
		t.Fatalf("want one problem: %v", lists)
	}
	if got, want := lists[0].Error(), `n.e2e.yaml:4:5: navigate to "/users" is relative but there is no base URL: add baseURL to e2e.yaml or pass --base-url`; !strings.Contains(got, want) {
		t.Errorf("got:\n%s\nwant %q", got, want)
	}
	if l := Preflight([]*Test{test}, PreflightOptions{BaseURL: "http://x", Env: set}); l != nil {
		t.Errorf("with a base URL: %v", l)
	}
}

// TestPreflightRefusesWhiteSpaceOnlySecrets: a secret made only of white
// space is reported before any browser starts, at its line, without its
// value.
func TestPreflightRefusesWhiteSpaceOnlySecrets(t *testing.T) {
	src := "name: w\nurl: http://localhost:1/\nsteps:\n  - type: { into: the Password field, text: \"{{ secret.PW }}\" }\n  - type: { into: the Name field, text: \"{{ env.NAME }}\" }\n"
	test, err := Parse("w.e2e.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	env := func(string) (string, bool) { return "\t \n", true }
	lists := Preflight([]*Test{test}, PreflightOptions{Env: env})
	if len(lists) != 1 || len(lists[0]) != 1 {
		t.Fatalf("want one problem: %v", lists)
	}
	want := "w.e2e.yaml:4:5: {{ secret.PW }} is only white space: a secret must hold more than spaces, tabs and line breaks"
	if got := lists[0].Error(); !strings.Contains(got, want) || strings.Contains(got, "\t \n") {
		t.Errorf("got:\n%s\nwant it to hold %q", got, want)
	}
}
