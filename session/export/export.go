// Package export writes recorded tests as Playwright Test code that runs on
// its own, without e2e: one *.spec.ts per test file, one test.step per YAML
// step (titled with the step as e2e prints it), and locators that a run
// chose and checked on the page (see browser.Page.PlaywrightLocator).
//
// What each step becomes:
//
//	click, dblclick, rightclick, hover   locator.click() … click({ button: 'right' }), hover()
//	check, uncheck, type, select         check(), uncheck(), fill(v), selectOption(v)
//	press, drag, upload, scroll          press(k) or page.keyboard.press(k), dragTo, setInputFiles, scrollIntoViewIfNeeded (box.locator(el) with in:)
//	navigate                             page.goto(url)
//	wait for an element                  expect(locator).toBeVisible()
//	wait 2s                              a comment: Playwright waits for what it acts on
//	expect                               web-first assertions: toBeVisible, toBeHidden, toHaveText,
//	                                     toContainText, toHaveValue, toHaveURL, toHaveTitle
//	act                                  its recorded trajectory, under a // goal: comment
//	assert                               test.fixme with the sentence: it needs a model
//
// {{ env.X }} and {{ secret.X }} become process.env.X (a secret's value never
// enters the code); {{ unique "p" }} becomes unique('p'), a helper the spec
// defines. A step with no recorded element is written from its description,
// with a TODO comment; [Options.RequireRecorded] makes that an error.
package export

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// Test is one test file with what a run recorded for its steps.
type Test struct {
	Test *testfile.Test
	// Steps holds what was recorded for each of Test.Steps, by index; a
	// missing or zero entry is a step with nothing recorded.
	Steps []Step
	// Session is the session Test starts with (e2e.yaml's sessions:), its
	// flow linked; nil when it names none. Session holds what was recorded
	// for the flow's steps, as Flow of a use step does (nil: nothing).
	Session     *testfile.Session
	SessionFlow []*Step
}

// Step is what a run learnt about one step of a test.
type Step struct {
	// Targets are the locators of the elements the step looked up, in order
	// (a drag looks up two: what it drags, then where it drops it).
	Targets []Target
	// Act is the trajectory an act step replayed; nil when none was.
	Act []ActStep
	// Missing, when set, says why nothing is recorded for the step (it was
	// recorded against another app; its trajectory did not replay here);
	// "" means "not recorded yet; run e2e first".
	Missing string
	// Flow holds, for a use step, what was recorded for each step of the
	// flow it ran, in order (a navigate to the flow's url first, when it
	// has one); a use step among them has its own.
	Flow []*Step
}

// Target is the locator of one element a step looked up.
type Target struct {
	Locator browser.PWLocator
	// Cached says the element came from the element cache (a recorded
	// step); false means the export run located it from the description.
	Cached bool
	// Unchecked, when set, says why Locator is a guess from the description
	// although the element was found (it is in a frame or a shadow root that
	// nothing names alone).
	Unchecked string
}

// ActStep is one step of an act's recorded trajectory.
type ActStep struct {
	Step    step.Step
	Targets []Target
}

// Options change what a spec says.
type Options struct {
	// RequireRecorded makes a step with no recorded element an error
	// (a *NotRecordedError) instead of a guess with a TODO comment.
	RequireRecorded bool
	// OutDir is where the spec is written: upload paths are made relative
	// to it. "" means the test file's directory.
	OutDir string
}

// NotRecordedError says a step has nothing recorded (see Options.RequireRecorded).
type NotRecordedError struct {
	File string
	Line int
	Step string // as e2e prints it
	// Why is Step.Missing: "" for a step never recorded.
	Why string
}

func (e *NotRecordedError) Error() string {
	if e.Why != "" {
		return fmt.Sprintf("%s:%d: %s: %s", e.File, e.Line, e.Step, oneLine(e.Why))
	}
	return fmt.Sprintf("%s:%d: %s is not recorded yet; run e2e first", e.File, e.Line, e.Step)
}

// notYet is why a step with nothing recorded and no other reason has none.
const notYet = "not recorded yet; run e2e first"

// todo is the comment on a step written from its description alone: why
// nothing is recorded for the step being written.
func (w *writer) todo() string {
	if w.missing != "" {
		return "// TODO: " + comment(oneLine(w.missing))
	}
	return "// TODO: " + notYet
}

// SpecName is the name of the spec file written for the test file at path:
// login.e2e.yaml → login.spec.ts.
func SpecName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), testfile.Suffix) + ".spec.ts"
}

// Spec returns the Playwright Test code of t. Its error is a
// *NotRecordedError when o.RequireRecorded is set and a step has nothing
// recorded.
func Spec(t Test, o Options) ([]byte, error) {
	w := &writer{o: o, file: t.Test.File, uses: map[string]bool{}, flows: map[string]string{}}
	var body strings.Builder
	w.out = &body
	w.indent = "  "
	var errs []error
	if s := t.Session; s != nil {
		// The session's flow runs at the start of each spec: it signs in
		// every time, where e2e signs in once a run.
		w.line("await test.step(%s, async () => {", quote("session "+s.Name))
		w.indent += "  "
		w.idents = map[string]bool{}
		errs = append(errs, w.use(&s.Use, s.Use.With, t.SessionFlow)...)
		w.indent = strings.TrimSuffix(w.indent, "  ")
		w.line("});")
	}
	if t.Test.URL != "" {
		w.line("await page.goto(%s);", w.str(t.Test.URL))
	} else {
		w.line("await page.goto('/');")
	}
	for i, st := range t.Test.Steps {
		var rec Step
		if i < len(t.Steps) {
			rec = t.Steps[i]
		}
		// The title keeps variables as written: a secret's value must not
		// reach the report, and the step reads as it does in the test file.
		title := run.Describe(st.Step)
		if st.Use != nil {
			title = st.Use.Command()
		}
		w.missing = rec.Missing
		w.line("")
		w.line("await test.step(%s, async () => {", quote(title))
		w.indent += "  "
		w.idents = map[string]bool{}
		if st.Use != nil {
			errs = append(errs, w.use(st.Use, st.Use.With, rec.Flow)...)
		} else if err := w.step(st, rec); err != nil {
			errs = append(errs, err)
		}
		w.indent = strings.TrimSuffix(w.indent, "  ")
		w.line("});")
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	var out strings.Builder
	out.WriteString("// Exported by `e2e export playwright` from " + comment(filepath.ToSlash(filepath.Base(t.Test.File))) + ".\n")
	imports := "test, expect"
	if w.uses[helperFillSecret] || w.uses[helperChoose] {
		imports += ", type Locator"
	}
	if len(w.funcs) > 0 || w.uses[helperDialogs] {
		imports += ", type Page"
	}
	if w.uses[helperDialogs] {
		imports += ", type Dialog"
	}
	out.WriteString("import { " + imports + " } from '@playwright/test';\n")
	if w.usesPath {
		out.WriteString("import * as path from 'path';\n")
	}
	if w.usesUnique {
		out.WriteString("\n// unique returns prefix followed by a value unique to this run, the same for\n")
		out.WriteString("// the same prefix, as {{ unique \"prefix\" }} does in e2e.\n")
		out.WriteString("const runID = `${Date.now()}${Math.floor(Math.random() * 1000)}`;\n")
		out.WriteString("function unique(prefix: string): string {\n  return prefix + runID;\n}\n")
	}
	for _, h := range helpers {
		if w.uses[h.name] {
			out.WriteString("\n" + h.code)
		}
	}
	for _, f := range w.funcs {
		out.WriteString("\n" + f)
	}
	// The test's title, like its steps', keeps variables as written.
	out.WriteString("\ntest(" + quote(t.Test.Name) + ", async ({ page }) => {\n")
	if w.uses[helperDialogs] {
		// from the start, as in e2e: a dialog the test gave no answer for gets OK
		out.WriteString("  dialogs(page);\n")
	}
	out.WriteString(body.String())
	out.WriteString("});\n")
	return []byte(out.String()), nil
}

type writer struct {
	idents     map[string]bool // the constants of the step being written
	o          Options
	file       string
	out        *strings.Builder
	indent     string
	usesPath   bool
	usesUnique bool
	uses       map[string]bool // the helpers (helpers) the spec calls
	missing    string          // Step.Missing of the step being written
	// params are the parameters of the flow whose function is being
	// written: {{ name }} is p.name there. nil outside a flow.
	params []string
	flows  map[string]string // the function written for each flow, by the flow's name
	funcs  []string          // the flows' functions, in the order written
}

// use writes the call of the function of the flow u uses, which it
// writes first when the spec has none yet: with is the text the use step
// gives each parameter, as written where it is (in a flow, it may name
// that flow's parameters); recs what was recorded for the flow's steps.
func (w *writer) use(u *testfile.Use, with []testfile.Arg, recs []*Step) []error {
	if u.Def == nil {
		w.note("TODO: flow " + oneLine(u.Flow) + " was not loaded")
		w.line("test.fixme(true, %s);", quote("flow not loaded: "+oneLine(u.Flow)))
		return nil
	}
	name, errs := w.flowFunc(u, recs)
	var args []string
	for _, p := range u.Def.Params {
		for _, a := range with {
			if a.Name == p {
				args = append(args, jsKey(p)+": "+w.str(a.Value))
			}
		}
	}
	w.line("await %s(page, { %s });", name, strings.Join(args, ", "))
	return errs
}

// flowFunc returns the name of the function that runs the flow u uses,
// writing it when the spec has none yet: an async function of the page
// and an object of the flow's parameters, whose steps are the flow's (as
// its file has them, {{ name }} being p.name) with what recs recorded for
// them. A use step in the flow calls its flow's function in turn.
func (w *writer) flowFunc(u *testfile.Use, recs []*Step) (string, []error) {
	def := u.Def
	if name, ok := w.flows[def.Name]; ok {
		return name, nil
	}
	name := funcName(def.Name, w.flows)
	w.flows[def.Name] = name
	out, indent, params, file, idents, missing := w.out, w.indent, w.params, w.file, w.idents, w.missing
	defer func() {
		w.out, w.indent, w.params, w.file, w.idents, w.missing = out, indent, params, file, idents, missing
	}()
	var body strings.Builder
	w.out, w.indent, w.params, w.file = &body, "  ", def.Params, def.File
	steps := def.Steps
	if def.URL != "" {
		nav := testfile.Step{Kind: "navigate", Pos: def.URLPos}
		nav.Type, nav.Value = step.Navigate, def.URL
		steps = append([]testfile.Step{nav}, steps...)
	}
	var errs []error
	for i, st := range steps {
		rec := &Step{}
		if i < len(recs) && recs[i] != nil {
			rec = recs[i]
		}
		title := run.Describe(st.Step)
		if st.Use != nil {
			title = st.Use.Command()
		}
		if i > 0 {
			w.line("")
		}
		w.missing = rec.Missing
		w.line("await test.step(%s, async () => {", quote(title))
		w.indent += "  "
		w.idents = map[string]bool{}
		if st.Use != nil {
			inner := st.Use
			if i < len(u.Steps) && u.Steps[i].Use != nil {
				inner = u.Steps[i].Use // linked: its flow and steps
			}
			errs = append(errs, w.use(inner, st.Use.With, rec.Flow)...)
		} else if err := w.step(st, *rec); err != nil {
			errs = append(errs, err)
		}
		w.indent = strings.TrimSuffix(w.indent, "  ")
		w.line("});")
	}
	var f strings.Builder
	f.WriteString("// The flow " + comment(quote(def.Name)) + " (" + comment(filepath.ToSlash(def.ShownFile())) + ").\n")
	var fields []string
	for _, p := range def.Params {
		fields = append(fields, jsKey(p)+": string")
	}
	f.WriteString("async function " + name + "(page: Page, p: { " + strings.Join(fields, "; ") + " }) {\n")
	f.WriteString(body.String())
	f.WriteString("}\n")
	w.funcs = append(w.funcs, f.String())
	return name, errs
}

// funcName is the name of the function of the flow named flow: its words
// in camel case (sign in → signIn), made unique among taken, and kept off
// the helpers' and the spec's own names.
func funcName(flow string, taken map[string]string) string {
	var b strings.Builder
	for _, word := range strings.FieldsFunc(flow, func(r rune) bool {
		return !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) {
		if b.Len() == 0 {
			b.WriteString(strings.ToLower(word[:1]) + word[1:])
		} else {
			b.WriteString(strings.ToUpper(word[:1]) + word[1:])
		}
	}
	base := b.String()
	if base == "" || ('0' <= base[0] && base[0] <= '9') {
		base = "flow" + strings.ToUpper(base[:min(1, len(base))]) + base[min(1, len(base)):]
	}
	used := map[string]bool{"test": true, "expect": true, "unique": true, "runID": true, "path": true,
		"expectDialog": true, "dialogLogs": true, "DialogLog": true}
	for _, h := range helpers {
		used[h.name] = true
	}
	for _, n := range taken {
		used[n] = true
	}
	name := base
	for i := 2; used[name] || jsReserved[name] || reserved[name]; i++ {
		name = fmt.Sprintf("%sFlow%d", base, i)
	}
	return name
}

// jsReserved are TypeScript's reserved words, which no function may be
// named, and the names a flow's function takes (page, p).
var jsReserved = map[string]bool{"break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true, "export": true, "extends": true,
	"false": true, "finally": true, "for": true, "function": true, "if": true, "import": true, "in": true, "instanceof": true,
	"new": true, "null": true, "return": true, "super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true, "let": true, "static": true,
	"yield": true, "await": true, "async": true, "page": true, "p": true}

// jsKey is a parameter's name as an object key (a parameter name is a
// plain identifier, which TypeScript takes as it is).
func jsKey(name string) string {
	if validIdent(name) {
		return name
	}
	return quote(name)
}

// note writes a // comment whose text is s.
func (w *writer) note(s string) {
	w.out.WriteString(w.indent + "// " + comment(s) + "\n")
}

func (w *writer) line(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if s == "" {
		w.out.WriteString("\n")
		return
	}
	w.out.WriteString(w.indent + s + "\n")
}

// step writes the body of one test step.
func (w *writer) step(st testfile.Step, rec Step) error {
	if st.Type == step.Act {
		if rec.Act == nil {
			if w.o.RequireRecorded {
				return w.notRecorded(st)
			}
			w.note("goal: " + oneLine(st.Description))
			w.line("%s", w.todo())
			// The message keeps variables as written, as titles do: a
			// secret's value must not reach Playwright's report.
			what := "act not recorded yet: "
			if rec.Missing != "" {
				what = "act " + oneLine(rec.Missing) + ": "
			}
			w.line("test.fixme(true, %s);", quote(what+oneLine(st.Description)))
			return nil
		}
		w.note("goal: " + oneLine(st.Description))
		for _, a := range rec.Act {
			w.action(a.Step, a.Targets)
		}
		return nil
	}
	if st.Type == step.Assert {
		w.line("// e2e has a model judge this on the page; write the check by hand.")
		w.line("test.fixme(true, %s);", quote("assert: "+oneLine(st.Description)))
		return nil
	}
	if needsTarget(st.Step) && (len(rec.Targets) == 0 || !rec.Targets[0].Cached) && w.o.RequireRecorded {
		return w.notRecorded(st)
	}
	w.action(st.Step, rec.Targets)
	return nil
}

func (w *writer) notRecorded(st testfile.Step) error {
	return &NotRecordedError{File: w.file, Line: st.Pos.Line, Step: run.Describe(st.Step), Why: w.missing}
}

// needsTarget says whether the step looks its element up (an expect hidden
// step is checked by the locator the element had while it was there).
func needsTarget(s step.Step) bool {
	return s.TargetsElement()
}

// locator returns the expression for the i-th element of s, and writes the
// comments it needs first.
func (w *writer) locator(s step.Step, targets []Target, i int) string {
	desc := s.Description
	if i == 1 {
		desc = s.Value
	}
	if i < len(targets) {
		t := targets[i]
		switch {
		case t.Unchecked != "":
			w.note("TODO: guessed from the description; check it (" + oneLine(t.Unchecked) + ")")
		case !t.Cached:
			w.line("%s (located by its description now)", w.todo())
		}
		if t.Locator.Reason != "" {
			w.note(t.Locator.Reason)
		}
		loc := Locator(t.Locator)
		if t.Locator.Hover && t.Locator.Scope != nil {
			w.line("// it shows only while its container is hovered")
			w.line("await %s.hover();", scopeLocator(root(t.Locator), t.Locator.Scope))
		}
		if c := ColorWord(desc); c != "" && t.Locator.Color != nil {
			// The description relies on the colour: the spec checks it too,
			// as e2e does, rather than click a button of another colour.
			name := w.ident(desc)
			w.note("the description says " + c)
			w.line("const %s = %s;", name, loc)
			w.line("await expect(%s).toHaveCSS(%s, %s);", name, quote(t.Locator.Color.Property), quote(t.Locator.Color.Value))
			return name
		}
		return loc
	}
	w.line("%s", w.todo())
	return Locator(Guess(desc))
}

// action writes one step command.
func (w *writer) action(s step.Step, targets []Target) {
	el := func() string { return w.locator(s, targets, 0) }
	opts := ""
	if s.Timeout > 0 {
		opts = fmt.Sprintf("{ timeout: %d }", s.Timeout.Milliseconds())
	}
	call := func(method string, args ...string) {
		loc := el()
		if opts != "" {
			args = append(args, opts)
		}
		w.line("await %s.%s(%s);", loc, method, strings.Join(args, ", "))
	}
	assert := func(loc, matcher string, args ...string) {
		if opts != "" {
			args = append(args, opts)
		}
		w.line("await expect(%s).%s(%s);", loc, matcher, strings.Join(args, ", "))
	}
	switch s.Type {
	case step.Navigate:
		w.line("await page.goto(%s);", w.str(s.Value))
	case step.Click:
		call("click")
	case step.DblClick:
		call("dblclick")
	case step.RightClick:
		loc := el()
		w.line("await %s.click({ button: 'right' });", loc)
	case step.Hover:
		call("hover")
	case step.Check:
		call("check")
	case step.Uncheck:
		call("uncheck")
	case step.TypeText:
		if w.hasSecret(s.Value) {
			// fill() would name its step in Playwright's report after
			// the value: fillSecret keeps a secret's value out of it.
			w.uses[helperFillSecret] = true
			args := []string{el(), w.str(s.Value)}
			if opts != "" {
				args = append(args, opts)
			}
			w.line("await fillSecret(%s);", strings.Join(args, ", "))
			return
		}
		call("fill", w.str(s.Value))
	case step.Clear:
		call("clear")
	case step.AddOption, step.RemoveOption:
		w.uses[helperChoose] = true
		args := []string{el(), w.str(s.Value), strconv.FormatBool(s.Type == step.AddOption)}
		if opts != "" {
			args = append(args, opts)
		}
		w.line("await chooseOption(%s);", strings.Join(args, ", "))
	case step.Select:
		call("selectOption", w.str(s.Value))
	case step.Scroll:
		if strings.TrimSpace(s.Value) == "" {
			call("scrollIntoViewIfNeeded")
			return
		}
		// the element within the box: scrolling it scrolls the box too
		to := w.locator(s, targets, 0)
		in := w.locator(s, targets, 1)
		if opts != "" {
			w.line("await %s.locator(%s).scrollIntoViewIfNeeded(%s);", in, to, opts)
			return
		}
		w.line("await %s.locator(%s).scrollIntoViewIfNeeded();", in, to)
	case step.Press:
		if strings.TrimSpace(s.Description) == "" {
			w.line("await page.keyboard.press(%s);", w.str(s.Value))
			return
		}
		call("press", w.str(s.Value))
	case step.Drag:
		from := w.locator(s, targets, 0)
		to := w.locator(s, targets, 1)
		w.line("await %s.dragTo(%s);", from, to)
	case step.Upload:
		var files []string
		for _, f := range step.UploadFiles(s.Value) {
			files = append(files, w.uploadPath(f))
		}
		arg := files[0]
		if len(files) > 1 {
			arg = "[" + strings.Join(files, ", ") + "]"
		}
		call("setInputFiles", arg)
	case step.Wait:
		if strings.TrimSpace(s.Description) == "" {
			w.line("// e2e waited %s here; Playwright's actions and assertions wait for what they need.", s.Timeout)
			return
		}
		assert(el(), "toBeVisible")
	case step.Accept:
		w.uses[helperDialogs] = true
		arg := "d.defaultValue()"
		if s.Value != "" {
			arg = w.str(s.Value)
		}
		w.line("dialogs(page).answers.push((d) => d.accept(%s));", arg)
	case step.Dismiss:
		w.uses[helperDialogs] = true
		w.line("dialogs(page).answers.push((d) => d.dismiss());")
	case step.Expect:
		w.expect(s, el, assert)
	default:
		w.note(strings.ToLower(string(s.Type)) + " steps have no Playwright equivalent: " + oneLine(s.String()))
	}
}

func (w *writer) expect(s step.Step, el func() string, assert func(loc, matcher string, args ...string)) {
	contains := s.Match == step.MatchContains
	switch s.Expect {
	case step.ExpectVisible:
		assert(el(), "toBeVisible")
	case step.ExpectHidden:
		assert(el(), "toBeHidden")
	case step.ExpectText:
		if contains {
			assert(el(), "toContainText", w.str(s.Value))
		} else {
			assert(el(), "toHaveText", w.str(s.Value))
		}
	case step.ExpectValue:
		if contains {
			assert(el(), "toHaveValue", w.containsPattern(s.Value))
		} else {
			assert(el(), "toHaveValue", w.str(s.Value))
		}
	case step.ExpectURL:
		assert("page", "toHaveURL", w.urlMatcher(s.Value, contains))
	case step.ExpectDialog:
		w.uses[helperDialogs] = true
		args := []string{"page", w.str(s.Value)}
		if contains {
			args[1] = w.containsPattern(s.Value)
		}
		if s.Timeout > 0 {
			args = append(args, fmt.Sprintf("{ timeout: %d }", s.Timeout.Milliseconds()))
		}
		w.line("await expectDialog(%s);", strings.Join(args, ", "))
	case step.ExpectTitle:
		if contains {
			assert("page", "toHaveTitle", w.containsPattern(s.Value))
		} else {
			assert("page", "toHaveTitle", w.str(s.Value))
		}
	}
}

// containsPattern is what toHaveValue and toHaveTitle get for an e2e
// "contains" expectation: a regular expression that finds the text as e2e
// does, white space runs matching any white space. Text with variables
// becomes a RegExp built from their values when the spec runs.
func (w *writer) containsPattern(v string) string {
	if !w.hasVars(v) {
		var parts []string
		for _, f := range strings.Fields(v) {
			parts = append(parts, regexpText(f))
		}
		return regexpLiteral(strings.Join(parts, `\s+`))
	}
	w.uses[helperTextPattern] = true
	return "new RegExp(textPattern(" + w.str(v) + "))"
}

// urlMatcher is what toHaveURL gets for an e2e URL expectation: the path
// itself when it is exact and has no wildcard (Playwright resolves it
// against the base URL), else a regular expression. A value that starts
// with "/" is matched against the path, query and fragment; * matches
// anything. A value with variables becomes a RegExp built from their values
// when the spec runs (a * in a value is a wildcard there too, as in e2e).
func (w *writer) urlMatcher(v string, contains bool) string {
	if !contains && !strings.Contains(v, "*") {
		return w.str(v)
	}
	prefix, suffix := "", ""
	switch {
	case contains:
	case strings.HasPrefix(v, "/"):
		prefix, suffix = `^[a-z]+:\/\/[^\/]+`, `$`
	default:
		prefix, suffix = "^", "$"
	}
	if w.hasVars(v) {
		w.uses[helperWildcard] = true
		e := "wildcard(" + w.str(v) + ")"
		if prefix != "" {
			e = quote(prefix) + " + " + e
		}
		if suffix != "" {
			e += " + " + quote(suffix)
		}
		return "new RegExp(" + e + ")"
	}
	parts := strings.Split(v, "*")
	for i, p := range parts {
		parts[i] = regexpText(p)
	}
	return regexpLiteral(prefix + strings.Join(parts, ".*") + suffix)
}

// regexpLiteral is the regular expression literal of src, a source built
// from regexpText and the export's own pattern syntax. An empty source is
// (?:), which matches everywhere: // would begin a comment.
func regexpLiteral(src string) string {
	if src == "" {
		src = "(?:)"
	}
	return "/" + src + "/"
}

// uploadPath is the expression for an upload file: relative to the test
// file in e2e, relative to the spec here.
func (w *writer) uploadPath(f string) string {
	abs := testfile.UploadPath(w.file, f)
	dir := w.o.OutDir
	if dir == "" {
		dir = filepath.Dir(w.file)
	}
	rel := abs
	if a, err := filepath.Abs(abs); err == nil {
		if d, err := filepath.Abs(dir); err == nil {
			if r, err := filepath.Rel(d, a); err == nil {
				rel = r
			}
		}
	}
	w.usesPath = true
	return "path.join(__dirname, " + quote(filepath.ToSlash(rel)) + ")"
}

// str is the TypeScript expression for s, a test file's text that may hold
// variables: a string literal, process.env.NAME, unique('p'), or a
// template literal that joins them.
func (w *writer) str(s string) string {
	segs := segments(s, w.params)
	if len(segs) == 0 {
		return "''"
	}
	if len(segs) == 1 {
		if segs[0].expr == "" {
			return quote(segs[0].text)
		}
		w.noteExpr(segs[0].expr)
		return segs[0].expr
	}
	var b strings.Builder
	b.WriteByte('`')
	for _, sg := range segs {
		if sg.expr != "" {
			w.noteExpr(sg.expr)
			b.WriteString("${" + strings.TrimSuffix(sg.expr, "!") + "}")
			continue
		}
		b.WriteString(templateText(sg.text))
	}
	b.WriteByte('`')
	return b.String()
}

func (w *writer) noteExpr(e string) {
	if strings.HasPrefix(e, "unique(") {
		w.usesUnique = true
	}
}

type segment struct {
	text, expr string
	secret     bool // expr reads a secret
}

// hasVars reports whether s holds a variable.
func (w *writer) hasVars(s string) bool {
	for _, sg := range segments(s, w.params) {
		if sg.expr != "" {
			return true
		}
	}
	return false
}

// hasSecret reports whether s holds a {{ secret.X }}.
func (w *writer) hasSecret(s string) bool {
	for _, sg := range segments(s, w.params) {
		if sg.secret {
			return true
		}
	}
	return false
}

// segments splits s into literal text and variables, as TypeScript
// expressions; in a flow's function, whose parameters are params, a
// parameter is p.NAME and counts as a secret (it may be given one). A
// malformed variable is kept as text (a parsed test has none).
func segments(s string, params []string) []segment {
	var out []segment
	for s != "" {
		i := strings.Index(s, "{{")
		if i < 0 {
			out = append(out, segment{text: s})
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			out = append(out, segment{text: s})
			break
		}
		if i > 0 {
			out = append(out, segment{text: s[:i]})
		}
		raw := s[i : i+j+2]
		vars, err := testfile.ParseVarsIn(raw, params)
		switch {
		case err != nil || len(vars) != 1:
			out = append(out, segment{text: raw})
		case vars[0].Kind == testfile.VarParam:
			out = append(out, segment{expr: "p." + vars[0].Name, secret: true})
		default:
			out = append(out, segment{expr: varExpr(vars[0]), secret: vars[0].Kind == testfile.VarSecret})
		}
		s = s[i+j+2:]
	}
	return out
}

// varExpr is the TypeScript expression for one variable.
func varExpr(v testfile.Var) string {
	switch v.Kind {
	case testfile.VarEnv, testfile.VarSecret:
		if validIdent(v.Name) {
			return "process.env." + v.Name + "!"
		}
		return "process.env[" + quote(v.Name) + "]!"
	}
	e := "unique(" + quote(v.Name) + ")"
	switch v.Form {
	case "url":
		e = "encodeURIComponent(" + e + ")"
	case "slug":
		e = e + ".toLowerCase().replace(/[^a-z0-9]+/g, '-')"
	}
	return e
}

// validIdent reports whether s is a plain ASCII identifier of TypeScript
// ([A-Za-z_$][A-Za-z0-9_$]*).
func validIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// root is where l is looked for: the page, or the frame it is in
// (page.locator('iframe[title="Payment"]').contentFrame()).
func root(l browser.PWLocator) string {
	s := "page"
	for _, f := range l.Frames {
		s += ".locator(" + quote(f) + ").contentFrame()"
	}
	return s
}

// scopeLocator is the TypeScript expression for a container, from root.
func scopeLocator(root string, sc *browser.PWScope) string {
	var b strings.Builder
	b.WriteString(root)
	if sc.Name != "" {
		b.WriteString(".getByRole(" + quote(sc.Role) + ", { name: " + quote(sc.Name) + ", exact: true })")
	} else {
		b.WriteString(".getByRole(" + quote(sc.Role) + ")")
	}
	if sc.HasText != "" {
		b.WriteString(".filter({ hasText: " + quote(sc.HasText) + " })")
	}
	return b.String()
}

// Locator is the TypeScript expression for l, from page (through the
// frames it is in).
func Locator(l browser.PWLocator) string {
	var b strings.Builder
	if l.Scope != nil {
		b.WriteString(scopeLocator(root(l), l.Scope))
	} else {
		b.WriteString(root(l))
	}
	switch l.Kind {
	case "role":
		b.WriteString(".getByRole(" + quote(l.Role))
		if l.Name != "" {
			b.WriteString(", { name: " + quote(l.Name))
			if l.Exact {
				b.WriteString(", exact: true")
			}
			b.WriteString(" }")
		}
		b.WriteString(")")
		if l.HasText != "" {
			b.WriteString(".filter({ hasText: " + quote(l.HasText) + " })")
		}
	case "label":
		b.WriteString(".getByLabel(" + quote(l.Value) + exact(l.Exact) + ")")
	case "placeholder":
		b.WriteString(".getByPlaceholder(" + quote(l.Value) + exact(l.Exact) + ")")
	case "testid":
		if l.Attr == "" || l.Attr == "data-testid" {
			b.WriteString(".getByTestId(" + quote(l.Value) + ")")
		} else {
			b.WriteString(".locator(" + quote("["+l.Attr+"="+strconv.Quote(l.Value)+"]") + ")")
		}
	case "text":
		b.WriteString(".getByText(" + quote(l.Value) + exact(l.Exact) + ")")
	default:
		b.WriteString(".locator(" + quote(l.Value) + ")")
	}
	if l.Nth != nil {
		fmt.Fprintf(&b, ".nth(%d)", *l.Nth)
	}
	return b.String()
}

func exact(on bool) string {
	if on {
		return ", { exact: true }"
	}
	return ""
}

// ConfigOptions are what playwright.config.ts says.
type ConfigOptions struct {
	BaseURL       string
	Width, Height int
	// Executable is the browser binary; "" means Debian's /usr/bin/chromium.
	Executable string
	Headless   bool
}

// Config returns a playwright.config.ts that runs the specs in its
// directory against o.BaseURL (or $E2E_BASE_URL), at the viewport e2e uses,
// in the installed Chromium rather than a browser Playwright downloads.
func Config(o ConfigOptions) []byte {
	exe := o.Executable
	if exe == "" {
		exe = "/usr/bin/chromium"
	}
	var b strings.Builder
	b.WriteString("// Exported by `e2e export playwright`.\n")
	b.WriteString("import { defineConfig } from '@playwright/test';\n\n")
	b.WriteString("export default defineConfig({\n")
	b.WriteString("  testDir: '.',\n")
	b.WriteString("  use: {\n")
	if o.BaseURL != "" {
		b.WriteString("    baseURL: process.env.E2E_BASE_URL ?? " + quote(o.BaseURL) + ",\n")
	} else {
		b.WriteString("    baseURL: process.env.E2E_BASE_URL,\n")
	}
	if o.Width > 0 && o.Height > 0 {
		fmt.Fprintf(&b, "    viewport: { width: %d, height: %d },\n", o.Width, o.Height)
	}
	if !o.Headless {
		b.WriteString("    headless: false,\n")
	}
	b.WriteString("    launchOptions: { executablePath: process.env.E2E_CHROME ?? " + quote(exe) + " },\n")
	b.WriteString("  },\n")
	b.WriteString("});\n")
	return []byte(b.String())
}

// ident is a constant's name for the element a description names, in
// camel case ("the blue button": blueButton), new in the step.
func (w *writer) ident(desc string) string {
	var words []string
	for _, f := range strings.FieldsFunc(strings.ToLower(desc), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if f == "the" || f == "a" || f == "an" {
			continue
		}
		words = append(words, f)
	}
	if len(words) > 4 {
		words = words[len(words)-4:]
	}
	name := ""
	for i, wd := range words {
		if i > 0 {
			wd = strings.ToUpper(wd[:1]) + wd[1:]
		}
		name += wd
	}
	if name == "" || !validIdent(name) || reserved[name] {
		name = "target"
	}
	base := name
	for n := 2; w.idents[name]; n++ {
		name = fmt.Sprintf("%s%d", base, n)
	}
	w.idents[name] = true
	return name
}

// reserved are the names a constant cannot take.
var reserved = map[string]bool{"page": true, "p": true, "test": true, "expect": true, "path": true, "unique": true, "runID": true,
	"delete": true, "new": true, "default": true, "in": true, "for": true, "if": true, "do": true, "case": true}
