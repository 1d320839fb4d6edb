package testfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// project makes a tree of files under a temporary directory and returns it.
func project(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range []string{
		"login.e2e.yaml",
		"README.md",
		"tests/users/archive.e2e.yaml",
		"tests/users/create.e2e.yaml",
		"tests/users/notes.yaml",
		"tests/billing/deep/pay.e2e.yaml",
		"smoke/home.e2e.yaml",
		"node_modules/pkg/x.e2e.yaml",
		".e2e/cache.e2e.yaml",
		".hidden/y.e2e.yaml",
	} {
		write(t, filepath.Join(root, f), "name: x\n")
	}
	return root
}

func TestDiscoverConfig(t *testing.T) {
	root := project(t)
	abs := func(rel ...string) []string {
		out := make([]string, len(rel))
		for i, r := range rel {
			out[i] = filepath.Join(root, r)
		}
		return out
	}
	tests := []struct {
		patterns []string
		want     []string
	}{
		{[]string{"**/*.e2e.yaml"}, abs("login.e2e.yaml", "smoke/home.e2e.yaml", "tests/billing/deep/pay.e2e.yaml",
			"tests/users/archive.e2e.yaml", "tests/users/create.e2e.yaml")},
		{[]string{"tests/**/*.e2e.yaml"}, abs("tests/billing/deep/pay.e2e.yaml", "tests/users/archive.e2e.yaml", "tests/users/create.e2e.yaml")},
		{[]string{"tests/*/*.e2e.yaml"}, abs("tests/users/archive.e2e.yaml", "tests/users/create.e2e.yaml")},
		{[]string{"tests/**/deep/*.yaml", "smoke/*.e2e.yaml", "smoke/home.e2e.yaml"}, abs("smoke/home.e2e.yaml", "tests/billing/deep/pay.e2e.yaml")},
		{[]string{"tests/users/c*.e2e.yaml"}, abs("tests/users/create.e2e.yaml")},
		{[]string{"*.e2e.yaml"}, abs("login.e2e.yaml")},
		{[]string{".hidden/*.e2e.yaml"}, abs(".hidden/y.e2e.yaml")},
		{[]string{"missing/**/*.e2e.yaml"}, nil},
		{[]string{filepath.Join(root, "smoke", "*.e2e.yaml")}, abs("smoke/home.e2e.yaml")},
	}
	for _, tt := range tests {
		cfg := DefaultConfig(root)
		cfg.Tests = tt.patterns
		got, err := Discover(cfg, nil)
		if err != nil {
			t.Errorf("%v: %v", tt.patterns, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%v:\n got %v\nwant %v", tt.patterns, got, tt.want)
		}
	}
}

func TestDiscoverPaths(t *testing.T) {
	root := project(t)
	t.Chdir(root)
	cfg := DefaultConfig(root)
	tests := []struct {
		paths []string
		want  []string
	}{
		{[]string{"tests"}, []string{"tests/billing/deep/pay.e2e.yaml", "tests/users/archive.e2e.yaml", "tests/users/create.e2e.yaml"}},
		{[]string{"./tests/users/", "tests/users/archive.e2e.yaml"}, []string{"tests/users/archive.e2e.yaml", "tests/users/create.e2e.yaml"}},
		{[]string{"tests/users/notes.yaml"}, []string{"tests/users/notes.yaml"}},
		{[]string{"**/a*.e2e.yaml", "login.e2e.yaml"}, []string{"login.e2e.yaml", "tests/users/archive.e2e.yaml"}},
		{[]string{"node_modules"}, []string{"node_modules/pkg/x.e2e.yaml"}},
	}
	for _, tt := range tests {
		got, err := Discover(cfg, tt.paths)
		if err != nil {
			t.Errorf("%v: %v", tt.paths, err)
			continue
		}
		want := make([]string, len(tt.want))
		for i, w := range tt.want {
			want[i] = filepath.FromSlash(w)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v:\n got %v\nwant %v", tt.paths, got, want)
		}
	}
}

func TestDiscoverErrors(t *testing.T) {
	root := project(t)
	t.Chdir(root)
	cfg := DefaultConfig(root)
	got, err := Discover(cfg, []string{"nope.e2e.yaml", "smoke", "none/**/*.e2e.yaml", "README.md/../x"})
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrNoTests) {
		t.Errorf("err = %v, want both a missing file and no tests", err)
	}
	if !reflect.DeepEqual(got, []string{filepath.Join("smoke", "home.e2e.yaml")}) {
		t.Errorf("found %v", got)
	}
	if err := os.MkdirAll(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Discover(cfg, []string{"empty"}); !errors.Is(err, ErrNoTests) {
		t.Errorf("empty dir: %v", err)
	}
	cfg.Tests = []string{"[bad"}
	if _, err := Discover(cfg, nil); err == nil {
		t.Error("a bad pattern is not an error")
	}
}

func TestMatchSegs(t *testing.T) {
	tests := []struct {
		pat, name []string
		want      bool
	}{
		{[]string{"**"}, []string{}, true},
		{[]string{"**"}, []string{"a", "b"}, true},
		{[]string{"**", "**", "x"}, []string{"x"}, true},
		{[]string{"a", "**", "x"}, []string{"a", "b", "c", "x"}, true},
		{[]string{"a", "**", "x"}, []string{"b", "x"}, false},
		{[]string{"*"}, []string{"a", "b"}, false},
		{[]string{"a", "*"}, []string{"a"}, false},
	}
	for _, tt := range tests {
		if got := matchSegs(tt.pat, tt.name); got != tt.want {
			t.Errorf("matchSegs(%v, %v) = %v", tt.pat, tt.name, got)
		}
	}
}
