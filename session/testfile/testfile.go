// Package testfile reads test files (*.e2e.yaml) and the project
// configuration (e2e.yaml), and finds the test files of a project.
//
// A test file names the test, the page it starts on and its steps:
//
//	name: archive a user
//	url: /users
//	session: signed in    # optional: start with a sign-in state of e2e.yaml's sessions:
//	context: optional notes for the agent about this test
//	steps:
//	  - type: { into: the email field, text: "{{ env.E2E_USER }}" }
//	  - click: the Sign in button
//	  - expect: { visible: the Users heading }
//
// Each step has one kind (see [Kinds]) and optionally a timeout, and maps to
// exactly one [step.Step]:
//
//	navigate: URL                          NAVIGATE
//	click: element                         CLICK
//	type: { into: element, text: T }       TYPE
//	clear: element                         CLEAR
//	select: { from: element, option: O }   SELECT
//	select: { from: element, add: O }      ADDOPTION (a multi-select keeps the others)
//	select: { from: element, remove: O }   REMOVEOPTION
//	press: KEY | { key: KEY, in: element } PRESS
//	hover | dblclick | rightclick | check | uncheck | scroll: element
//	drag: { from: element, to: element }   DRAG (Value describes the drop target)
//	upload: { into: element, files: [P] }  UPLOAD (Value: paths, one a line)
//	dialog: accept | { accept: true, text: T }   ACCEPT (the next dialog; Value: a prompt's text)
//	dialog: dismiss | { dismiss: true }    DISMISS
//	wait: 2s | { for: element }            WAIT
//	expect: { visible: element }           EXPECT visible
//	expect: { hidden: element }            EXPECT hidden
//	expect: { text: { in: element, is: T } }        EXPECT text (or contains: T)
//	expect: { value: { of: element, is: T } }       EXPECT value (or contains: T)
//	expect: { url: U } | { url: { contains: U } }   EXPECT url; * in U matches anything
//	expect: { title: T } | { title: { contains: T } }
//	expect: { dialog: M } | { dialog: { contains: M } }   EXPECT dialog
//	act: goal in plain words               ACT
//	assert: check in plain words           ASSERT
//	timeout: 5s                            beside any kind: the step's own timeout
//
// Descriptions, values and the URL may hold variables: {{ env.NAME }},
// {{ secret.NAME }} and {{ unique "prefix" }}. They are checked when the
// file is parsed, kept verbatim in the steps, and substituted only for
// execution by [Resolve]. Every "{{" opens a variable, and YAML needs a
// value that starts with "{{" to be quoted.
//
// Parsing collects every problem in a file, each with its line and column,
// as a [List].
package testfile

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/e2e-dev/e2e/session/step"
)

// Suffix ends the name of every test file.
const Suffix = ".e2e.yaml"

// Pos is a 1-based line and column (in characters) in a file.
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// posOf returns where node n starts, or the zero Pos.
func posOf(n ast.Node) Pos {
	if tk := start(n); tk != nil && tk.Position != nil {
		return Pos{Line: tk.Position.Line, Col: tk.Position.Column}
	}
	return Pos{}
}

// Test is a parsed test file.
type Test struct {
	File string // the path the test was read from, as given; for opening files
	// Shown is the path that output and reports show: relative to the
	// directory of e2e.yaml, slash-separated (see [ShownPath]); "" means File.
	Shown  string
	Name   string
	URL    string // the start page, relative to the base URL or absolute; "" for the base URL
	URLPos Pos    // where the url: value is in the file; zero when there is none
	// Session names the sign-in state (e2e.yaml's sessions:) the test
	// starts with; "" for none. SessionPos is where the name is.
	Session    string
	SessionPos Pos
	Context    string // notes for the agent about this test
	Steps      []Step
}

// ShownFile is the path of the test as output and reports show it: Shown,
// else File.
func (t *Test) ShownFile() string {
	if t.Shown != "" {
		return t.Shown
	}
	return t.File
}

// ShownPath is p as output and reports show it: relative to dir and
// slash-separated when p lies under dir, so that it is the same on every
// machine; otherwise p made absolute (slash-separated). A relative p is
// taken relative to the current directory.
func ShownPath(dir, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	if dir != "" {
		if d, err := filepath.Abs(dir); err == nil {
			if rel, err := filepath.Rel(d, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return filepath.ToSlash(rel)
			}
		}
	}
	return filepath.ToSlash(abs)
}

// Step is one step of a test file.
type Step struct {
	step.Step
	Kind Kind // the key that says what the step does, such as click
	Pos  Pos  // where that key is in the file
	// Use is set on a step that uses a flow (Kind use), whose Step is
	// then zero: the flow and its steps run in its place.
	Use *Use
}

// ParseFile reads and parses the test file at path. See [Parse].
func ParseFile(path string) (*Test, error) {
	src, err := readFile(path, "the test file")
	if list, ok := err.(List); ok {
		return nil, list
	}
	if err != nil {
		return nil, fmt.Errorf("read test: %w", err)
	}
	return Parse(path, src)
}

// Parse parses the test file src, named file in messages. It returns a
// valid Test, or a [List] of every problem found: YAML syntax, unknown keys
// (with a "did you mean"), values of the wrong shape, steps with no kind or
// two, invalid durations, malformed variables, and a missing name or steps.
// A source over MaxFileSize, or nested deeper than MaxDepth, is refused
// with one problem before it is parsed.
func Parse(file string, src []byte) (*Test, error) {
	t, err := ParseAll(file, src)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// ParseFileAll reads and parses the test file at path. See [ParseAll].
func ParseFileAll(path string) (*Test, error) {
	src, err := readFile(path, "the test file")
	if list, ok := err.(List); ok {
		return nil, list
	}
	if err != nil {
		return nil, fmt.Errorf("read test: %w", err)
	}
	return ParseAll(path, src)
}

// ParseAll is [Parse] that, when src has problems, returns with their
// [List] the test as far as it parsed: its name, url and the steps that
// parsed, so that checks made before a run ([Preflight]) report their
// problems in the same pass. That test is nil when src is not a mapping
// at all; it is never to be run.
func ParseAll(file string, src []byte) (*Test, error) {
	if list := checkSize(file, "the test file", src); list != nil {
		return nil, list
	}
	d := newDecoder(file, src)
	t := &Test{File: file}
	body := d.document("a test file")
	if body != nil {
		d.test(body, t)
	} else if len(d.errs) == 0 {
		d.errorAt(nil, 1, "empty test file; it needs a name and steps")
	}
	if len(d.errs) > 0 {
		if body == nil {
			t = nil
		}
		return t, d.sorted()
	}
	return t, nil
}

// test fills t from the top of a test file.
func (d *decoder) test(n ast.Node, t *Test) {
	entries, guessed, ok := d.mapping(n, "a test file", testKeys)
	if !ok {
		return
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.key] = true
		switch e.key {
		case "name":
			if s, ok := d.text(e.value, "the test's name"); ok {
				if strings.TrimSpace(s) == "" {
					d.errorf(e.keyN, "empty name; give the test a name")
				}
				t.Name = s
			}
		case "url":
			if s, ok := d.text(e.value, "the URL the test starts at"); ok {
				d.checkVars(e.value, s)
				t.URL = strings.TrimSpace(s)
				t.URLPos = posOf(e.value)
			}
		case "session":
			if s, ok := d.text(e.value, "the name of a session from e2e.yaml's sessions:"); ok {
				if strings.TrimSpace(s) == "" {
					d.errorf(e.keyN, "session needs the name of a session from e2e.yaml's sessions:, such as session: signed in")
				}
				t.Session = strings.TrimSpace(s)
				t.SessionPos = posOf(d.unwrap(e.value))
			}
		case "context":
			if s, ok := d.text(e.value, "notes for the agent"); ok {
				t.Context = s
			}
		case "steps":
			t.Steps = d.steps(e.keyN, e.value)
		}
	}
	for _, k := range []string{"name", "steps"} {
		if !seen[k] && !slices.Contains(guessed, k) {
			d.errorf(n, "missing %s; a test file needs a name and steps", k)
		}
	}
}

// steps reads the list of steps under key.
func (d *decoder) steps(keyN, n ast.Node) []Step {
	v := d.unwrap(n)
	if v == nil {
		return nil
	}
	if _, null := v.(*ast.NullNode); null {
		d.errorf(keyN, "no steps; add at least one, such as - click: the Sign in button")
		return nil
	}
	seq, ok := v.(*ast.SequenceNode)
	if !ok {
		d.errorf(v, "expected a list of steps, found %s", describe(v))
		return nil
	}
	if len(seq.Values) == 0 {
		d.errorf(v, "no steps; add at least one, such as - click: the Sign in button")
		return nil
	}
	out := make([]Step, 0, len(seq.Values))
	for i, item := range seq.Values {
		var dash ast.Node = item
		if len(seq.Entries) == len(seq.Values) {
			dash = seq.Entries[i]
		}
		if s, ok := d.step(dash, item); ok {
			out = append(out, s)
		}
	}
	return out
}

// stepKeys are the keys a step may have: its kind (or use) and a timeout.
func stepKeys() []string {
	return append(kindNamesWithUse(), timeoutKey)
}

// kindNamesWithUse is the kinds of step and use, in alphabetical order.
func kindNamesWithUse() []string {
	names := append(kindNames(kinds), string(UseKind))
	slices.Sort(names)
	return names
}

// step reads one step. dash locates the entry when the step is empty.
func (d *decoder) step(dash, n ast.Node) (Step, bool) {
	v := d.unwrap(n)
	if v == nil {
		return Step{}, false
	}
	if _, null := v.(*ast.NullNode); null {
		d.errorAt(start(dash), 1, "empty step; write one such as - click: the Sign in button")
		return Step{}, false
	}
	if s, ok := scalar(v); ok {
		msg := "expected a step such as click: the Sign in button, found text"
		if word, rest, _ := strings.Cut(strings.TrimSpace(s), " "); kinds[Kind(word)].typ != "" {
			msg = fmt.Sprintf("a step is a mapping; write %s: %s", word, rest)
		}
		d.errorf(v, "%s", msg)
		return Step{}, false
	}
	before := len(d.errs)
	entries, guessed, ok := d.mapping(v, "a step", stepKeys())
	if !ok {
		return Step{}, false
	}
	var kindE, timeoutE *entry
	for i := range entries {
		e := &entries[i]
		switch {
		case e.key == timeoutKey:
			timeoutE = e
		case kindE != nil:
			d.errorf(e.keyN, "a step does one thing, but this one has both %s and %s; split it into two steps", kindE.key, e.key)
		default:
			kindE = e
		}
	}
	if kindE == nil {
		if len(d.errs) == before {
			d.errorf(v, "a step needs one of %s", strings.Join(kindNamesWithUse(), ", "))
		}
		if len(guessed) == 1 {
			// A misspelt kind (clik): its value is read as the kind meant,
			// so that its own problems (an unknown key in it) are found in
			// the same pass, not after the kind is fixed.
			if e, ok := d.misspelt(v, guessed[0]); ok {
				var s Step
				d.fill(&s.Step, guessed[0], kinds[Kind(guessed[0])], e.keyN, e.value)
			}
		}
		return Step{}, false
	}
	k := Kind(kindE.key)
	if k == UseKind {
		u, good := d.use(kindE.keyN, kindE.value)
		if timeoutE != nil {
			d.errorf(timeoutE.keyN, "a use step takes no timeout; give the flow's steps their own")
			good = false
		}
		if !good || len(d.errs) > before {
			return Step{}, false
		}
		return Step{Kind: k, Pos: posOf(kindE.keyN), Use: u}, true
	}
	spec := kinds[k]
	s := Step{Kind: k, Pos: posOf(kindE.keyN)}
	s.Type = spec.typ
	good := d.fill(&s.Step, string(k), spec, kindE.keyN, kindE.value)
	if timeoutE != nil {
		dur, ok := d.duration(timeoutE.value)
		switch {
		case !ok:
			good = false
		case s.Type == step.Wait && s.Timeout != 0:
			d.errorf(timeoutE.keyN, "a wait for a fixed time takes no timeout")
			good = false
		default:
			s.Timeout = dur
		}
	}
	if !good || len(d.errs) > before {
		return Step{}, false
	}
	if err := s.Validate(); err != nil {
		d.errorf(kindE.keyN, "%s", err)
		return Step{}, false
	}
	return s, true
}

// misspelt returns the one entry of the step mapping v whose key is not a
// key of a step and reads as kind, when there is exactly one such entry
// and kind is a kind of step.
func (d *decoder) misspelt(v ast.Node, kind string) (entry, bool) {
	if _, ok := kinds[Kind(kind)]; !ok {
		return entry{}, false
	}
	m, isMap := v.(*ast.MappingNode)
	if !isMap {
		mv, single := v.(*ast.MappingValueNode)
		if !single {
			return entry{}, false
		}
		m = &ast.MappingNode{Values: []*ast.MappingValueNode{mv}}
	}
	var found []entry
	keys := stepKeys()
	for _, mv := range m.Values {
		keyN := d.unwrap(mv.Key)
		if keyN == nil {
			continue
		}
		if k, isText := scalar(keyN); isText && !slices.Contains(keys, k) && step.Closest(k, keys) == kind {
			found = append(found, entry{key: k, keyN: keyN, value: mv.Value})
		}
	}
	if len(found) != 1 {
		return entry{}, false
	}
	return found[0], true
}

// fill sets the fields of s from the value of a step of kind spec, whose
// key is keyN and which is named what in messages. It reports whether the
// value had the right shape.
func (d *decoder) fill(s *step.Step, what string, spec kindSpec, keyN, n ast.Node) bool {
	v := d.unwrap(n)
	if v == nil {
		return false
	}
	if spec.sub != nil {
		return d.fillSub(s, what, spec, keyN, v)
	}
	switch v.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		if spec.keys == nil {
			d.errorf(v, "expected %s, found a mapping; for example %s", need(spec, spec.scalar), spec.example)
			return false
		}
		return d.fillKeys(s, what, spec, keyN, v)
	case *ast.SequenceNode:
		d.errorf(v, "expected %s, found a list; for example %s", need(spec, spec.scalar), spec.example)
		return false
	}
	text, ok := scalar(v)
	if !ok {
		d.errorf(v, "expected %s, found %s; for example %s", need(spec, spec.scalar), describe(v), spec.example)
		return false
	}
	if spec.scalar == 0 {
		d.errorf(v, "%s takes a mapping; for example %s", what, spec.example)
		return false
	}
	if strings.TrimSpace(text) == "" {
		d.errorf(keyN, "%s needs %s; for example %s", what, need(spec, spec.scalar), spec.example)
		return false
	}
	if spec.scalar == toPick {
		t, ok := spec.picks[strings.TrimSpace(text)]
		if !ok {
			d.errorf(v, "%s takes %s; for example %s", what, need(spec, toPick), spec.example)
			return false
		}
		s.Type = t
		return true
	}
	return d.set(s, spec.scalar, text, v)
}

// fillSub reads the value of an expect step: a mapping with one kind of check.
func (d *decoder) fillSub(s *step.Step, what string, spec kindSpec, keyN, v ast.Node) bool {
	names := kindNames(spec.sub)
	if _, null := v.(*ast.NullNode); null {
		d.errorf(keyN, "%s needs one of %s; for example %s", what, strings.Join(names, ", "), spec.example)
		return false
	}
	if _, ok := scalar(v); ok {
		d.errorf(v, "%s takes a mapping with one of %s; for example %s", what, strings.Join(names, ", "), spec.example)
		return false
	}
	before := len(d.errs)
	entries, _, ok := d.mapping(v, what, names)
	if !ok {
		return false
	}
	if len(entries) == 0 {
		if len(d.errs) == before {
			d.errorf(v, "%s needs one of %s", what, strings.Join(names, ", "))
		}
		return false
	}
	for _, e := range entries[1:] {
		d.errorf(e.keyN, "%s checks one thing, but this one has both %s and %s; split it into two steps", what, entries[0].key, e.key)
	}
	e := entries[0]
	sub := spec.sub[Kind(e.key)]
	s.Expect = sub.expect
	return d.fill(s, what+" "+e.key, sub, e.keyN, e.value) && len(entries) == 1
}

// fillKeys reads the mapping form of a kind.
func (d *decoder) fillKeys(s *step.Step, what string, spec kindSpec, keyN, v ast.Node) bool {
	before := len(d.errs)
	entries, guessed, ok := d.mapping(v, what, keyNames(spec.keys))
	if !ok {
		return false
	}
	given := map[string]entry{}
	for _, e := range entries {
		given[e.key] = e
	}
	good := len(d.errs) == before
	var chosen []string
	for _, k := range spec.keys {
		e, ok := given[k.name]
		if !ok {
			if k.required && !slices.Contains(guessed, k.name) {
				d.errorf(v, "%s needs %s (%s)", what, k.name, need(spec, k.to))
				good = false
			}
			continue
		}
		if slices.Contains(spec.oneOf, k.name) {
			chosen = append(chosen, k.name)
			if len(chosen) > 1 {
				d.errorf(e.keyN, "give %s or %s, not both", chosen[0], k.name)
				good = false
				continue
			}
		}
		if k.to == toFiles {
			if files, ok := d.files(e.value); ok {
				s.Value = strings.Join(files, "\n")
			} else {
				good = false
			}
			continue
		}
		text, ok := d.text(e.value, need(spec, k.to))
		if !ok {
			good = false
			continue
		}
		if k.to == toYes {
			if strings.TrimSpace(text) != "true" {
				d.errorf(d.unwrap(e.value), "%s: %s takes true, found %s; leave %s out, or give %s", what, k.name, quoted(text), k.name,
					strings.Join(slices.DeleteFunc(slices.Clone(spec.oneOf), func(o string) bool { return o == k.name }), " or "))
				good = false
			}
		} else if strings.TrimSpace(text) == "" {
			if k.required || k.to != toDescription {
				d.errorf(e.keyN, "%s needs %s (%s)", what, k.name, need(spec, k.to))
				good = false
			}
			continue
		} else {
			good = d.set(s, k.to, text, d.unwrap(e.value)) && good
		}
		if t, ok := spec.picks[k.name]; ok {
			s.Type = t
		}
	}
	if len(chosen) == 1 && spec.picks != nil {
		// A key the type that was picked takes no part in: text with dismiss.
		f := step.Types[s.Type].Fields
		for _, k := range spec.keys {
			e, given := given[k.name]
			if !given || k.to != toValue || f.Value != step.Forbidden {
				continue
			}
			d.errorf(e.keyN, "%s takes no %s with %s; %s goes with %s", what, k.name, chosen[0], k.name,
				strings.Join(slices.DeleteFunc(slices.Clone(spec.oneOf), func(o string) bool { return o == chosen[0] }), " or "))
			good = false
		}
	}
	if len(spec.oneOf) > 0 && len(chosen) == 0 && !slices.ContainsFunc(spec.oneOf, func(k string) bool { return slices.Contains(guessed, k) }) {
		if slices.ContainsFunc(spec.keys, func(k key) bool { return k.to == toYes }) {
			d.errorf(v, "%s needs %s; for example %s", what, strings.Join(spec.oneOf, " or "), spec.example)
		} else {
			d.errorf(v, "%s needs %s (%s)", what, strings.Join(spec.oneOf, " or "), need(spec, toValue))
		}
		good = false
	}
	return good
}

// set stores text, read from node n, in the field of s that to names,
// checking its variables or its duration.
func (d *decoder) set(s *step.Step, to target, text string, n ast.Node) bool {
	switch to {
	case toDuration:
		dur, ok := d.duration(n)
		s.Timeout = dur
		return ok
	case toDescription:
		s.Description = text
		if phrase, want, bad := step.Misnamed(*s); bad {
			d.errorf(n, "%s", misnamedMsg(s.Type, phrase, want, text))
			return false
		}
	case toValue:
		s.Value = text
	case toContains:
		s.Value, s.Match = text, step.MatchContains
	}
	return d.checkVars(n, text)
}

// checkVars records a problem for each malformed variable in text, read
// from node n, and reports whether there was none.
func (d *decoder) checkVars(n ast.Node, text string) bool {
	if _, err := parseVarsIn(text, d.params); err != nil {
		ve, ok := err.(*VarError)
		if !ok {
			d.errorf(n, "%s", err)
			return false
		}
		d.errorOffset(n, ve.Offset, ve.Width, ve.Msg)
		return false
	}
	return true
}

// need says what a field of a kind holds, for messages.
func need(spec kindSpec, to target) string {
	f := spec.fields()
	switch to {
	case toDescription:
		return f.DescriptionDoc
	case toValue, toContains:
		return f.ValueDoc
	case toDuration:
		return "the time to wait, such as 2s"
	case toFiles:
		return f.ValueDoc
	case toYes:
		return "true"
	case toPick:
		return strings.Join(slices.Sorted(maps.Keys(spec.picks)), " or ")
	}
	return "a value"
}

// files reads the files of an upload step: a path or a list of paths,
// relative to the test file's directory. Every path must name a file that
// exists now, so that a missing one is reported here, before any run.
func (d *decoder) files(n ast.Node) ([]string, bool) {
	v := d.unwrap(n)
	if v == nil {
		return nil, false
	}
	var nodes []ast.Node
	switch v := v.(type) {
	case *ast.SequenceNode:
		nodes = v.Values
	case *ast.MappingNode, *ast.MappingValueNode:
		d.errorf(v, "expected a file path or a list of them, found a mapping")
		return nil, false
	default:
		nodes = []ast.Node{v}
	}
	if len(nodes) == 0 {
		d.errorf(v, "no files; give a path such as fixtures/report.pdf")
		return nil, false
	}
	out := make([]string, 0, len(nodes))
	good := true
	for _, fn := range nodes {
		p, ok := d.text(fn, "a file path")
		if !ok {
			good = false
			continue
		}
		fn = d.unwrap(fn)
		p = strings.TrimSpace(p)
		switch {
		case p == "":
			d.errorf(fn, "empty file path")
			good = false
			continue
		case strings.ContainsAny(p, "\n\r"):
			d.errorf(fn, "a file path holds no line break")
			good = false
			continue
		case strings.Contains(p, "{{"):
			d.errorf(fn, "a file path holds no variables; write the path out")
			good = false
			continue
		}
		at := UploadPath(d.file, p)
		st, err := os.Stat(at)
		switch {
		case err != nil:
			d.errorf(fn, "no file %s (looked for %s, relative to the test file)", quoted(p), at)
			good = false
			continue
		case st.IsDir():
			d.errorf(fn, "%s is a directory; give a file", quoted(p))
			good = false
			continue
		}
		out = append(out, p)
	}
	return out, good
}

// misnamedMsg says that a step of type typ is described as another action,
// phrase, which a step of type want performs ("" when none does).
func misnamedMsg(typ step.Type, phrase string, want step.Type, desc string) string {
	msg := fmt.Sprintf("the step is a %s but its description asks to %q", kindOf(typ), phrase)
	if k := kindOf(want); want != "" && k != "" {
		msg += fmt.Sprintf("; use %s:", k)
	} else {
		msg += "; no step kind does that yet, use act: for it"
	}
	w := strings.Fields(desc)
	if len(w) > 3 {
		w = w[:3]
	}
	return msg + fmt.Sprintf(`, or, if the words are the element's name, write them as one, such as: the "%s" button`, strings.Join(w, " "))
}

// kindOf returns the kind of step that makes steps of type typ, or "".
func kindOf(typ step.Type) string {
	for _, k := range Kinds() {
		if spec := kinds[k]; slices.Contains(spec.types(), typ) && spec.expect == "" {
			return string(k)
		}
	}
	return ""
}
