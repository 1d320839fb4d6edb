package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/plural"
)

// TestCommandLineMistakesReadWell: issue 15 item 10's small ones.
func TestCommandLineMistakesReadWell(t *testing.T) {
	empty := t.TempDir()
	t.Chdir(empty)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"rnu"}, "e2e: unknown command \"rnu\" for \"e2e\"; did you mean \"run\" or \"runs\"?\n"},
		{[]string{"run", "--worker", "3"}, "did you mean --workers?"},
		{[]string{"run", "--config", "/nope"}, "--config /nope: no such file or directory"},
		{[]string{"cache", "stats"}, "there is no store yet"},
	}
	for _, c := range cases {
		code, _, errOut := e2e(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("e2e %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if code, out, _ := e2e(t, "heals", "list", "--all"); code != 0 || !strings.HasPrefix(out, "no heals") {
		t.Errorf("heals list --all: exit %d, %q; want \"no heals\"", code, out)
	}
	if _, err := os.Stat(filepath.Join(empty, ".e2e")); err == nil {
		t.Error("cache stats or heals list created .e2e/ in a directory with no store")
	}
	// model misconfigured, said once
	dir := project(t, "http://127.0.0.1:1", map[string]string{"a.e2e.yaml": "name: a\nsteps:\n  - click: the button\n"})
	code, _, errOut := e2e(t, "run", "--config", dir, "--model", "m", "--model-url", "ftp://x/v1")
	if code != 2 || !strings.Contains(errOut, "model misconfigured") || strings.Contains(errOut, "model: model") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if plural.Count(1, "step") != "1 step" || plural.Count(2, "run") != "2 runs" || plural.Count(0, "test") != "0 tests" {
		t.Error("plural")
	}
}
