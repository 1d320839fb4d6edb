// Package gitinfo reads where a checkout stands in git history, for cache
// lineage: the branch, HEAD, its first-parent depth, the merge base with
// the main branch, and the commits that recent merges on main brought in.
// It runs the git command line (os/exec); it has no other dependency.
package gitinfo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session"
)

// Limits on what Resolve reads of the history of main.
const (
	recentMerges    = 20  // merge commits on main's first-parent chain that bring rows in
	commitsPerMerge = 100 // commits of one merged branch considered, newest first
)

// Errors Resolve returns when there is no history to follow.
var (
	// ErrNotRepository: dir is not inside a git work tree (or git is not installed).
	ErrNotRepository = errors.New("not a git repository")
	// ErrNoCommits: the repository has no commit yet.
	ErrNoCommits = errors.New("the git repository has no commits yet")
)

// Resolve returns the lineage of the checkout at dir. main names the main
// branch ("" is "main"). When HEAD is detached, the branch comes from the CI
// variables GITHUB_HEAD_REF (a pull request) or GITHUB_REF_NAME, and the
// commit from GITHUB_SHA when set, read through env. Version is left for
// the caller. It returns an error wrapping ErrNotRepository outside git and
// ErrNoCommits in a repository without commits.
func Resolve(ctx context.Context, dir, main string, env func(string) (string, bool)) (session.Lineage, error) {
	if main == "" {
		main = "main"
	}
	l := session.Lineage{Main: main, BaseDepth: -1}
	g := gitRunner{dir: dir}
	// Only git's own answers mean "no history here" (128: not a
	// repository; 1: no such commit); a git that could not run is an
	// error, never a reason to drop the lineage.
	if _, err := g.run(ctx, "rev-parse", "--is-inside-work-tree"); err != nil {
		if !gitExited(err, 128) && !errors.Is(err, exec.ErrNotFound) {
			return l, err
		}
		return l, fmt.Errorf("%s: %w", dir, ErrNotRepository)
	}
	head, err := g.run(ctx, "rev-parse", "--verify", "--quiet", "HEAD")
	if err != nil {
		if !gitExited(err, 1) {
			return l, err
		}
		return l, fmt.Errorf("%s: %w", dir, ErrNoCommits)
	}
	l.Commit = head
	if b, err := g.run(ctx, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		l.Branch = b
	} else { // detached: CI checkouts
		for _, name := range []string{"GITHUB_HEAD_REF", "GITHUB_REF_NAME"} {
			if v, ok := env(name); ok && v != "" {
				l.Branch = v
				break
			}
		}
		if v, ok := env("GITHUB_SHA"); ok && v != "" {
			l.Commit = v
		}
	}
	if l.Depth, err = g.depth(ctx, "HEAD"); err != nil {
		return l, err
	}
	if l.OnMain() {
		l.BaseDepth = l.Depth
		l.Merged, err = g.merged(ctx)
		return l, err
	}
	ref, err := g.mainRef(ctx, main)
	if err != nil {
		return l, err
	}
	if ref == "" {
		return l, nil // no main branch here: nothing to inherit
	}
	// The merge base as a place on main's first-parent chain (where rows
	// on main were written): main's depth less the commits of that chain
	// that HEAD does not contain.
	mainDepth, err := g.depth(ctx, ref)
	if err != nil {
		return l, err
	}
	s, err := g.run(ctx, "rev-list", "--first-parent", "--count", ref, "^HEAD")
	if err != nil {
		return l, err
	}
	ahead, err := strconv.Atoi(s)
	if err != nil {
		return l, fmt.Errorf("git rev-list --count: %q: %w", s, err)
	}
	if ahead < mainDepth {
		l.BaseDepth = mainDepth - ahead
	}
	return l, nil
}

type gitRunner struct{ dir string }

// gitExited says whether err is git's exit with code.
func gitExited(err error, code int) bool {
	var exit *exec.ExitError
	return errors.As(err, &exit) && exit.ExitCode() == code
}

// run runs git with args in the directory and returns its trimmed output.
func (g gitRunner) run(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", g.dir}, args...)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// depth counts the commits on rev's first-parent chain, rev included.
func (g gitRunner) depth(ctx context.Context, rev string) (int, error) {
	s, err := g.run(ctx, "rev-list", "--first-parent", "--count", rev)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("git rev-list --count: %q: %w", s, err)
	}
	return n, nil
}

// mainRef is the ref of the main branch: local, else origin's; "" when
// neither exists.
func (g gitRunner) mainRef(ctx context.Context, main string) (string, error) {
	for _, ref := range []string{"refs/heads/" + main, "refs/remotes/origin/" + main} {
		_, err := g.run(ctx, "rev-parse", "--verify", "--quiet", ref)
		if err == nil {
			return ref, nil
		}
		// --verify --quiet exits 1, saying nothing, when there is no such
		// ref; any other failure (git could not start, the context ended)
		// is not an answer, and must not quietly leave main's rows out.
		if !gitExited(err, 1) {
			return "", err
		}
	}
	return "", nil
}

// merged lists the commits that the recent merge commits on HEAD's
// first-parent chain brought in from their second parents.
func (g gitRunner) merged(ctx context.Context) ([]string, error) {
	s, err := g.run(ctx, "rev-list", "--first-parent", "--merges", "--max-count="+strconv.Itoa(recentMerges), "--parents", "HEAD")
	if err != nil {
		return nil, err
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line) // merge, first parent, other parents…
		if len(f) < 3 {
			continue
		}
		for _, p := range f[2:] {
			cs, err := g.run(ctx, "rev-list", "--max-count="+strconv.Itoa(commitsPerMerge), p, "^"+f[1])
			if err != nil {
				return nil, err
			}
			out = append(out, strings.Fields(cs)...)
		}
	}
	return out, nil
}
