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
