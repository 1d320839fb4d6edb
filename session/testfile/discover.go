package testfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Discover returns the test files that paths name, sorted and without
// repeats. Each path is one of:
//
//   - an existing file, taken whatever its name;
//   - a directory, standing for every *.e2e.yaml file beneath it;
//   - a pattern, matched against files: * ? and [ ] match within a path
//     segment, as in path.Match, and a ** segment matches any number of
//     segments. A relative pattern is relative to the current directory.
//
// With no paths, Discover returns the files under cfg.Dir that cfg.Tests
// match, joined to cfg.Dir. Searches skip directories named node_modules or
// starting with ".", unless a path or the fixed start of a pattern names
// them.
//
// The error joins one error for each path that names no test file, wrapping
// [ErrNoTests] or the file system's error, and one for each invalid
// pattern. With no paths, patterns that match nothing are not an error.
func Discover(cfg *Config, paths []string) ([]string, error) {
	var found []string
	var errs []error
	if len(paths) == 0 {
		for _, p := range cfg.Tests {
			m, err := glob(cfg.Dir, p)
			if err != nil {
				errs = append(errs, fmt.Errorf("discover tests: pattern %q: %w", p, err))
			}
			found = append(found, m...)
		}
		return sortUnique(found), errors.Join(errs...)
	}
	for _, p := range paths {
		m, err := expandPath(p)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("discover tests: %w", err))
		case len(m) == 0:
			errs = append(errs, fmt.Errorf("discover tests: %s: %w", p, ErrNoTests))
		}
		found = append(found, m...)
	}
	return sortUnique(found), errors.Join(errs...)
}

// expandPath returns the test files that one path argument names.
func expandPath(p string) ([]string, error) {
	info, err := os.Stat(p)
	switch {
	case err == nil && info.IsDir():
		return walk(filepath.Clean(p), []string{"**", "*" + Suffix})
	case err == nil:
		return []string{filepath.Clean(p)}, nil
	case hasMeta(p):
		return glob(".", p)
	}
	return nil, err
}

// glob returns the files that pattern matches, relative to root unless it
// is absolute.
func glob(root, pattern string) ([]string, error) {
	if err := checkPattern(pattern); err != nil {
		return nil, err
	}
	slash := filepath.ToSlash(pattern)
	if filepath.IsAbs(pattern) {
		root = string(filepath.Separator)
	}
	segs := strings.Split(strings.TrimPrefix(path.Clean(slash), "/"), "/")
	i := 0
	for i < len(segs)-1 && !hasMeta(segs[i]) {
		i++
	}
	base := filepath.Join(root, filepath.FromSlash(strings.Join(segs[:i], "/")))
	return walk(base, segs[i:])
}

// hasMeta reports whether s holds pattern syntax.
func hasMeta(s string) bool {
	return strings.ContainsAny(s, `*?[\`)
}

// walk returns the files under base whose slash-separated path relative to
// base matches the pattern segments pat. A missing base matches nothing.
func walk(base string, pat []string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(base, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if p == base && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll
			}
			return err
		}
		if p == base {
			return nil
		}
		rel, err := filepath.Rel(base, p)
		if err != nil {
			return err
		}
		segs := strings.Split(filepath.ToSlash(rel), "/")
		if de.IsDir() {
			name := de.Name()
			if strings.HasPrefix(name, ".") || name == "node_modules" || !matchPrefix(pat, segs) {
				return fs.SkipDir
			}
			return nil
		}
		if matchSegs(pat, segs) {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// matchSegs reports whether the path segments name match the pattern
// segments pat, where ** matches any number of segments.
func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			for i := 0; i <= len(name); i++ {
				if matchSegs(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// matchPrefix reports whether a file below the directory dir could match pat.
func matchPrefix(pat, dir []string) bool {
	for ; len(dir) > 0; pat, dir = pat[1:], dir[1:] {
		switch {
		case len(pat) > 0 && pat[0] == "**":
			return true
		case len(pat) <= 1: // the last segment names files
			return false
		}
		if ok, _ := path.Match(pat[0], dir[0]); !ok {
			return false
		}
	}
	return true
}

func sortUnique(paths []string) []string {
	slices.Sort(paths)
	return slices.Compact(paths)
}
