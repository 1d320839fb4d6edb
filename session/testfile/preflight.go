package testfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/e2e-dev/e2e/session/step"
)

// UploadPath returns where an upload step's file path is read from, for
// the test file testFile: relative to the test file's directory unless it
// is absolute. Parse checks the file exists there and the runner reads it
// from there.
func UploadPath(testFile, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(filepath.Dir(testFile), path)
}

// PreflightOptions holds what [Preflight] checks against.
type PreflightOptions struct {
	// BaseURL is the base URL relative test URLs are opened against, after
	// e2e.yaml and --base-url; "" when there is none.
	BaseURL string
	// Env looks up {{ env.X }} and {{ secret.X }} as the runner does;
	// nil is os.LookupEnv.
	Env func(string) (string, bool)
	// CheckKeys reports an unknown key in a press step's chord, with the
	// function the browser presses keys with; nil skips the check.
	CheckKeys func(keys string) error
	// NoModel says no model is configured: an assert step, which only a
	// model judges, is then a problem.
	NoModel bool
}

// IsRelativeURL reports whether the test URL u is opened relative to the
// base URL: "" (the base URL itself) or one without a scheme.
func IsRelativeURL(u string) bool { return !strings.Contains(u, "://") }

// Preflight checks the tests of a run for what would fail them at once,
// before any browser starts: a relative url (of the test or of a navigate
// step) with no base URL, unset
// {{ env.X }} and {{ secret.X }} variables, secrets made only of white
// space (see [BlankSecretError]), press keys the browser does not know and,
// with NoModel, assert steps (Parse already reports upload files that do
// not exist). It returns every problem found,
// each with its file:line:col, as one List per file with problems, or nil.
// No error holds the value of a variable.
func Preflight(tests []*Test, o PreflightOptions) []List {
	var out []List
	for _, t := range tests {
		if l := preflight(t.File, t.URL, t.URLPos, t.Steps, nil, o); len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// PreflightFlows is [Preflight] for flow files: their url and steps, with
// {{ name }} for a parameter taken as set (the use step's text for it is
// checked where it is written).
func PreflightFlows(flows []*Flow, o PreflightOptions) []List {
	var out []List
	for _, f := range flows {
		if l := preflight(f.File, f.URL, f.URLPos, f.Steps, f.Params, o); len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// PreflightSessions is [Preflight] for sessions: the text each gives its
// flow's parameters and its check url, at their places in e2e.yaml, as one
// List (nil when there is none).
func PreflightSessions(sessions []*Session, o PreflightOptions) List {
	var l List
	for _, s := range sessions {
		steps := []Step{{Kind: UseKind, Pos: s.Use.FlowPos, Use: &s.Use}}
		l = append(l, preflight(s.File, s.CheckURL, s.CheckPos, steps, nil, o)...)
	}
	return l
}

// preflight checks the url and steps of one file, a test's or (with its
// params) a flow's; the with: values of its use steps too.
func preflight(file, u string, urlPos Pos, steps []Step, params []string, o PreflightOptions) List {
	env := o.Env
	if env == nil {
		env = os.LookupEnv
	}
	var l List
	var lines []string // the file's lines, read at the first problem, for excerpts
	add := func(p Pos, format string, args ...any) {
		if lines == nil {
			src, _ := os.ReadFile(file)
			lines = strings.Split(string(src), "\n")
		}
		e := &Error{File: file, Line: max(1, p.Line), Col: max(1, p.Col), Msg: fmt.Sprintf(format, args...), Width: 1}
		if e.Line <= len(lines) {
			e.Source = strings.TrimRight(lines[e.Line-1], "\r")
		}
		l = append(l, e)
	}
	unset := func(p Pos, s string) {
		vars, _ := parseVarsIn(s, params) // malformed ones were reported by Parse
		seen := map[Var]bool{}
		for _, v := range vars {
			if v.Kind == VarUnique || v.Kind == VarParam || seen[v] {
				continue
			}
			seen[v] = true
			_, err := lookup(env, v)
			if err == nil {
				continue
			}
			if _, ok := err.(*BlankSecretError); ok {
				add(p, "%s is only white space: a secret must hold more than spaces, tabs and line breaks, which pages collapse (it could not be redacted); check the environment variable %s", v, v.Name)
				continue
			}
			what := "environment variable"
			if v.Kind == VarSecret {
				what = "environment variable (a secret)"
			}
			add(p, "%s is not set: set the %s %s before the run", v, what, v.Name)
		}
	}
	if o.BaseURL == "" && u != "" && IsRelativeURL(u) {
		add(urlPos, "url %q is relative but there is no base URL: add baseURL to e2e.yaml or pass --base-url", u)
	}
	unset(urlPos, u)
	for _, s := range steps {
		if s.Use != nil {
			for _, a := range s.Use.With {
				unset(a.ValuePos, a.Value)
			}
			continue
		}
		unset(s.Pos, s.Description)
		unset(s.Pos, s.Value)
		switch s.Type {
		case step.Navigate:
			// A variable may hold a whole URL: only a literal is judged.
			if o.BaseURL == "" && IsRelativeURL(s.Value) && !strings.Contains(s.Value, "{{") {
				add(s.Pos, "navigate to %q is relative but there is no base URL: add baseURL to e2e.yaml or pass --base-url", s.Value)
			}
		case step.Assert:
			if o.NoModel {
				add(s.Pos, "assert needs a model to judge it, and none is configured: set model: in e2e.yaml, pass --model, or set E2E_MODEL (docs/model.md); or check it with expect")
			}
		case step.Press:
			if o.CheckKeys != nil && !strings.Contains(s.Value, "{{") {
				if err := o.CheckKeys(s.Value); err != nil {
					add(s.Pos, "%v", err)
				}
			}
		}
	}
	return l
}
