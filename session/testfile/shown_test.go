package testfile

import (
	"path/filepath"
	"testing"
)

func TestShownPath(t *testing.T) {
	dir := t.TempDir()
	abs := func(p string) string { return filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(p))) }
	for _, c := range []struct{ dir, path, want string }{
		{dir, filepath.Join(dir, "tests", "a.e2e.yaml"), "tests/a.e2e.yaml"},
		{dir, filepath.Join(dir, ".e2e", "screenshots", "s.png"), ".e2e/screenshots/s.png"},
		{filepath.Join(dir, "p"), filepath.Join(dir, "p..x", "a.e2e.yaml"), abs("p..x/a.e2e.yaml")},      // a sibling whose name starts alike
		{filepath.Join(dir, "p"), filepath.Join(dir, "q", "a.e2e.yaml"), abs("q/a.e2e.yaml")},            // outside: absolute
		{filepath.Join(dir, "p"), filepath.Join(dir, "p", "..", "q", "a.e2e.yaml"), abs("q/a.e2e.yaml")}, // cleaned first
	} {
		if got := ShownPath(c.dir, c.path); got != c.want {
			t.Errorf("ShownPath(%s, %s) = %s, want %s", c.dir, c.path, got, c.want)
		}
	}
	tt := &Test{File: "/x/a.e2e.yaml"}
	if tt.ShownFile() != "/x/a.e2e.yaml" {
		t.Errorf("no Shown: %s", tt.ShownFile())
	}
	tt.Shown = "a.e2e.yaml"
	if tt.ShownFile() != "a.e2e.yaml" {
		t.Errorf("Shown: %s", tt.ShownFile())
	}
}
