package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session/testfile"
)

type writeTestIn struct {
	Session string   `json:"session" jsonschema:"the session the steps were previewed in"`
	Path    string   `json:"path" jsonschema:"the test file, relative to the project directory (the one with e2e.yaml); it must end in .e2e.yaml"`
	Steps   []string `json:"steps" jsonschema:"ids of steps that passed in preview_steps (p1, p2, …), in the order to write them"`
	Index   *int     `json:"index,omitempty" jsonschema:"where in an existing test to insert the steps (0: first); default: at the end"`
	Delete  int      `json:"delete,omitempty" jsonschema:"how many of the existing steps at index to remove"`
}

type writeTestOut struct {
	Path    string `json:"path"`
	Created bool   `json:"created"`
	Steps   int    `json:"steps"` // the test's steps after the write
	Written int    `json:"written"`
	Deleted int    `json:"deleted"`
}

func writeTest(s *Server, _ context.Context, _ *sdk.CallToolRequest, in writeTestIn) (any, error) {
	l, err := s.session(in.Session)
	if err != nil {
		return nil, err
	}
	path, rel, err := s.projectPath(in.Path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".e2e.yaml") {
		return nil, fmt.Errorf("path %q: a test file's name ends in .e2e.yaml", in.Path)
	}
	if in.Delete < 0 {
		return nil, errors.New("delete: want 0 or more")
	}
	l.mu.Lock()
	var lines []string
	for _, id := range in.Steps {
		p, ok := l.step(id)
		if !ok {
			l.mu.Unlock()
			return nil, fmt.Errorf("step %q was not previewed successfully in session %s; only the ids preview_steps gave steps that passed can be written", id, l.id)
		}
		lines = append(lines, p.Line)
	}
	name, start := l.name, l.start
	l.mu.Unlock()
	if len(lines) == 0 && in.Delete == 0 {
		return nil, errors.New("steps: give the ids of previewed steps to write")
	}
	src, err := os.ReadFile(path)
	created := errors.Is(err, os.ErrNotExist)
	if err != nil && !created {
		return nil, err
	}
	var text string
	out := writeTestOut{Path: rel, Created: created, Written: len(lines)}
	if created {
		if in.Delete > 0 || (in.Index != nil && *in.Index != 0) {
			return nil, fmt.Errorf("%s does not exist: a new test takes its steps at index 0 and deletes none", rel)
		}
		text = newTest(name, start, lines)
	} else {
		t, err := testfile.Parse(path, src)
		if err != nil {
			return nil, fmt.Errorf("%s does not parse; fix it first: %w", rel, err)
		}
		if t.Name != name {
			return nil, fmt.Errorf("%s is the test %q and the session records %q: cache rows are keyed by the test's name, so open a session with test: %q to splice into it",
				rel, t.Name, name, t.Name)
		}
		index := len(t.Steps)
		if in.Index != nil {
			index = *in.Index
		}
		if index < 0 || index > len(t.Steps) || index+in.Delete > len(t.Steps) {
			return nil, fmt.Errorf("index %d, delete %d: the test has %s", index, in.Delete, plural(len(t.Steps), "step"))
		}
		if text, err = splice(string(src), t, index, in.Delete, lines); err != nil {
			return nil, err
		}
		out.Deleted = in.Delete
	}
	t, err := testfile.Parse(path, []byte(text))
	if err != nil {
		return nil, fmt.Errorf("the test would not parse, so %s was not written: %w", rel, err)
	}
	if err := writeAtomic(path, text); err != nil {
		return nil, err
	}
	out.Steps = len(t.Steps)
	return out, nil
}

// projectPath resolves p inside the project directory; a path that leaves
// it (.., an absolute path elsewhere, a symbolic link out) is refused.
func (s *Server) projectPath(p string) (abs, rel string, err error) {
	root, err := filepath.Abs(s.o.Config.Dir)
	if err != nil {
		return "", "", err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if strings.TrimSpace(p) == "" {
		return "", "", errors.New("path: give a test file relative to the project, such as tests/login.e2e.yaml")
	}
	abs = p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, p)
	}
	abs = filepath.Clean(abs)
	// The deepest existing directory decides where the file really is.
	dir := filepath.Dir(abs)
	for {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			rest, _ := filepath.Rel(dir, filepath.Dir(abs))
			abs = filepath.Join(r, rest, filepath.Base(abs))
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return "", "", fmt.Errorf("path %q is a symbolic link; give the file itself", p)
	}
	rel, err = filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", "", fmt.Errorf("path %q is outside the project (%s); test files are written inside it only", p, root)
	}
	return abs, filepath.ToSlash(rel), nil
}

// inProject refuses a file found in the project whose real place (symbolic
// links followed) is outside it.
func (s *Server) inProject(p string) error {
	root, err := filepath.Abs(s.o.Config.Dir)
	if err != nil {
		return err
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return fmt.Errorf("test file %s: %w", p, err)
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		shown := p
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			shown = filepath.ToSlash(r)
		}
		return fmt.Errorf("test file %s is a symbolic link to %s, outside the project (%s); tests are read inside it only", shown, real, root)
	}
	return nil
}

// newTest is the text of a new test file.
func newTest(name, start string, lines []string) string {
	var b strings.Builder
	b.WriteString("name: " + strconv.Quote(name) + "\n")
	b.WriteString("url: " + strconv.Quote(start) + "\n")
	b.WriteString("steps:\n")
	for _, l := range lines {
		b.WriteString(item(l, 2))
	}
	return b.String()
}

// item is a step as a list item at indent.
func item(step string, indent int) string {
	pad := strings.Repeat(" ", indent)
	ls := strings.Split(step, "\n")
	for i := 1; i < len(ls); i++ {
		ls[i] = pad + "  " + ls[i]
	}
	return pad + "- " + strings.Join(ls, "\n") + "\n"
}

// splice replaces the delete steps of t at index with lines, in the file's
// text, keeping everything else (comments too) as it was.
func splice(src string, t *testfile.Test, index, del int, lines []string) (string, error) {
	file := strings.SplitAfter(src, "\n")
	if len(t.Steps) == 0 {
		if !strings.HasSuffix(src, "\n") && src != "" {
			src += "\n"
		}
		if !strings.Contains(src, "steps:") {
			src += "steps:\n"
		} else if strings.Contains(src, "steps: []") {
			src = strings.Replace(src, "steps: []", "steps:", 1)
		}
		for _, l := range lines {
			src += item(l, 2)
		}
		return src, nil
	}
	dash := func(i int) (line, col int) { // 0-based line of step i's "- ", and its column
		return t.Steps[i].Pos.Line - 1, max(t.Steps[i].Pos.Col-3, 0)
	}
	first, indent := dash(0)
	if strings.TrimSpace(file[first])[0] != '-' {
		return "", errors.New("the steps are not a block list (one '- ' a step); edit this file by hand")
	}
	// end is the line after step i's last line.
	end := func(i int) int {
		if i+1 < len(t.Steps) {
			l, _ := dash(i + 1)
			return l
		}
		l, col := dash(i)
		last := l
		for j := l + 1; j < len(file); j++ {
			s := strings.TrimRight(file[j], "\r\n")
			if strings.TrimSpace(s) == "" {
				continue
			}
			if len(s)-len(strings.TrimLeft(s, " ")) <= col {
				break
			}
			last = j
		}
		return last + 1
	}
	var at, to int
	switch {
	case index == len(t.Steps):
		at, to = end(index-1), end(index-1)
	default:
		at, _ = dash(index)
		to = at
		if del > 0 {
			to = end(index + del - 1)
		}
	}
	var b strings.Builder
	for _, l := range file[:at] {
		b.WriteString(l)
	}
	if at > 0 && !strings.HasSuffix(file[at-1], "\n") {
		b.WriteString("\n")
	}
	for _, l := range lines {
		b.WriteString(item(l, indent))
	}
	for _, l := range file[to:] {
		b.WriteString(l)
	}
	return b.String(), nil
}

// writeAtomic writes text to path in one rename, so that no half-written
// file is ever seen; a new file's mode is the user's umask's (0644 under
// 022), a replaced file keeps its own.
func writeAtomic(path, text string) error {
	return testfile.WriteFile(path, []byte(text))
}

// plural returns "1 step" or "n steps".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
