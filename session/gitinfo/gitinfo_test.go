package gitinfo

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// commit adds a file named msg, so branches never conflict.
func commit(t *testing.T, dir, msg string) string {
	t.Helper()
	f := filepath.Join(dir, msg)
	old, _ := os.ReadFile(f)
	if err := os.WriteFile(f, append(old, msg+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", msg)
	return git(t, dir, "rev-parse", "HEAD")
}

func noEnv(string) (string, bool) { return "", false }

func TestResolve(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Resolve(ctx, dir, "", noEnv); !errors.Is(err, ErrNotRepository) {
		t.Fatalf("outside git: %v", err)
	}
	git(t, dir, "init", "-q", "-b", "trunk")
	git(t, dir, "config", "user.name", "Test")
	git(t, dir, "config", "user.email", "test@example.com")
	if _, err := Resolve(ctx, dir, "", noEnv); !errors.Is(err, ErrNoCommits) {
		t.Fatalf("no commits yet: %v", err)
	}
	commit(t, dir, "one")
	base := commit(t, dir, "two")
	git(t, dir, "checkout", "-q", "-b", "feature")
	f1 := commit(t, dir, "f1")
	f2 := commit(t, dir, "f2")
	l, err := Resolve(ctx, dir, "trunk", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if l.Branch != "feature" || l.Commit != f2 || l.Depth != 4 || l.BaseDepth != 2 || l.Main != "trunk" || l.OnMain() {
		t.Errorf("on the branch: %+v (merge base %s)", l, base)
	}
	// A detached CI checkout names its branch and commit in the environment.
	git(t, dir, "checkout", "-q", "--detach", f1)
	env := map[string]string{"GITHUB_HEAD_REF": "feature", "GITHUB_SHA": "cafe"}
	l, err = Resolve(ctx, dir, "trunk", func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if l.Branch != "feature" || l.Commit != "cafe" || l.Depth != 3 || l.BaseDepth != 2 {
		t.Errorf("detached: %+v", l)
	}
	git(t, dir, "checkout", "-q", "trunk")
	commit(t, dir, "three")
	git(t, dir, "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	l, err = Resolve(ctx, dir, "trunk", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if !l.OnMain() || l.Depth != 4 || l.BaseDepth != 4 || !slices.Contains(l.Merged, f1) || !slices.Contains(l.Merged, f2) || len(l.Merged) != 2 {
		t.Errorf("on main after the merge: %+v (want merged %s %s)", l, f1, f2)
	}
	// A branch whose commits reached main by a merge still inherits from
	// where it left main's first-parent chain, not from main's later commits.
	git(t, dir, "checkout", "-q", "feature")
	l, err = Resolve(ctx, dir, "trunk", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if l.BaseDepth != 2 {
		t.Errorf("the merged branch: base depth %d, want 2", l.BaseDepth)
	}
}

// TestGitThatCannotRunIsAnError: a git that does not answer (here, its
// context ended) is an error, never "not a repository" or "no main
// branch", which would quietly leave a branch without main's rows.
func TestGitThatCannotRunIsAnError(t *testing.T) {
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	git(t, dir, "config", "user.name", "Test")
	git(t, dir, "config", "user.email", "test@example.com")
	commit(t, dir, "one")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Resolve(ctx, dir, "", noEnv)
	if err == nil || errors.Is(err, ErrNotRepository) || errors.Is(err, ErrNoCommits) {
		t.Fatalf("a git that could not run: %v, want an error of its own", err)
	}
}
