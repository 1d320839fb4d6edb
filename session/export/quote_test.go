package export

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// nasty are values that try to leave the context they are written in.
var nasty = []string{
	"",
	"plain",
	"line\nbreak",
	"carriage\rreturn",
	"crlf\r\n",
	"line\u2028separator",
	"paragraph\u2029separator",
	"*/ closes a block comment",
	"/* opens one",
	"// a comment",
	"back`tick",
	"${process.exit(1)}",
	"$",
	"a$",
	"{a}",
	`back\slash`,
	`ends in a backslash\`,
	`\n as text`,
	"it's",
	`"double"`,
	"</script><script>alert(1)</script>",
	"nul\x00byte",
	"bell\x07 escape\x1b[31m del\x7f c1\u0085",
	"tab\tand\vvertical\ffeed",
	"bidi \u202eevil\u202c \u2066isolate\u2069 \u200fmark",
	"bom\ufeff",
	"regexp .*+?^$()[]{}|",
	"slash / in /path/",
	"emoji 🚀 and é",
	"'); require('fs').writeFileSync('pwned', ''); ('",
	"\n'); require('fs').writeFileSync('pwned', ''); //",
	"`; require('fs').writeFileSync('pwned', ''); `",
	"/; require('fs').writeFileSync('pwned', ''); /",
	"invalid \xff utf-8",
}

// tsResult is what testdata/ts/inspect.js says of one piece of code.
type tsResult struct {
	Errors     []string `json:"errors"`
	Statements []string `json:"statements"`
	Tests      int      `json:"tests"`
	Steps      int      `json:"steps"`
	Comments   int      `json:"comments"`
	Value      *string  `json:"value"`
	Source     *string  `json:"source"`
	Matches    bool     `json:"matches"`
}

type tsCase struct {
	Src   string `json:"src"`
	Input string `json:"input"`
}

// npmModules makes sure typescript and @playwright/test are installed (as
// `make npm` does) and returns their node_modules directory.
func npmModules(t *testing.T) string {
	t.Helper()
	if out, err := exec.Command("../../scripts/ensure-npm").CombinedOutput(); err != nil {
		t.Fatalf("scripts/ensure-npm: %v\n%s", err, out)
	}
	dir := os.Getenv("E2E_NPM_CACHE")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		dir = filepath.Join(home, ".cache", "e2e", "npm")
	}
	return filepath.Join(dir, "node_modules")
}

// inspectTS parses (and runs, where it declares v) each case with
// TypeScript's own parser, in one node process.
func inspectTS(t *testing.T, cases []tsCase) []tsResult {
	t.Helper()
	modules := npmModules(t)
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "testdata/ts/inspect.js")
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node inspect.js: %v\n%s", err, stderr.String())
	}
	var res []tsResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("inspect.js: %v\n%s", err, out)
	}
	if len(res) != len(cases) {
		t.Fatalf("%d results for %d cases", len(res), len(cases))
	}
	return res
}

func deref(p *string) string {
	if p == nil {
		return "<none>"
	}
	return *p
}

// valid is v as JavaScript sees it once written: invalid UTF-8 is U+FFFD.
func valid(v string) string { return strings.ToValidUTF8(v, "\uFFFD") }

// TestQuoteContexts: each quoting function keeps every nasty value inside
// its context, as TypeScript's parser reads it: one statement after the
// comment, a string and a template literal whose value is the text, a
// regular expression that matches the text whole. And none writes a line
// terminator, a control or a bidirectional-text control raw.
func TestQuoteContexts(t *testing.T) {
	type ctx struct {
		name  string
		quote func(v string) string // what the export writes
		src   func(q string) string // code around it
	}
	ctxs := []ctx{
		{"string", quote, func(q string) string { return "const v = " + q + ";\n" }},
		{"template", templateText, func(q string) string { return "const v = `" + q + "`;\n" }},
		{"template around a variable", templateText, func(q string) string { return "const x = '';\nconst v = `" + q + "${x}" + q + "`;\n" }},
		{"comment", comment, func(q string) string { return "// " + q + "\nconst v = 'after';\n" }},
		{"regexp", func(v string) string { return regexpLiteral(regexpText(v)) }, func(q string) string { return "const v = " + q + ";\n" }},
	}
	var cases []tsCase
	for _, c := range ctxs {
		for _, v := range nasty {
			q := c.quote(v)
			cases = append(cases, tsCase{Src: c.src(q), Input: valid(v)})
			for _, r := range q {
				if unsafeRune(r) {
					t.Errorf("%s of %q writes %U raw: %q", c.name, v, r, q)
				}
			}
			if !utf8.ValidString(q) {
				t.Errorf("%s of %q is not valid UTF-8", c.name, v)
			}
		}
	}
	res := inspectTS(t, cases)
	i := 0
	for _, c := range ctxs {
		for _, v := range nasty {
			r := res[i]
			i++
			want := valid(v)
			switch {
			case len(r.Errors) > 0:
				t.Errorf("%s of %q: %v\n%s", c.name, v, r.Errors, cases[i-1].Src)
			case c.name == "comment":
				if len(r.Statements) != 1 || r.Value == nil || *r.Value != "after" || r.Comments != 1 {
					t.Errorf("comment of %q: statements %v, v %q\n%s", v, r.Statements, deref(r.Value), cases[i-1].Src)
				}
			case c.name == "regexp":
				if r.Source == nil || !r.Matches {
					t.Errorf("regexp of %q does not match it whole: %q\n%s", v, deref(r.Source), cases[i-1].Src)
				}
			case c.name == "template around a variable":
				if r.Value == nil || *r.Value != want+want {
					t.Errorf("%s of %q: %q", c.name, v, deref(r.Value))
				}
			default:
				if len(r.Statements) != 1 || r.Value == nil || *r.Value != want {
					t.Errorf("%s of %q: statements %v, value %q\n%s", c.name, v, r.Statements, deref(r.Value), cases[i-1].Src)
				}
			}
		}
	}
}

// nastySpec is a test in which every piece of outside text is v: its file
// name, name and URL, descriptions, typed text and expected values (with
// and without variables), and what the page said of its elements (names,
// texts, frames, colours, reasons).
func nastySpec(t *testing.T, dir, v string) []byte {
	t.Helper()
	name := strings.ReplaceAll(v, "/", "_")
	s := func(typ step.Type, desc, value string) testfile.Step {
		return testfile.Step{Step: step.Step{Type: typ, Description: desc, Value: value}}
	}
	ex := func(kind step.ExpectKind, m step.Match, desc, value string) testfile.Step {
		return testfile.Step{Step: step.Step{Type: step.Expect, Expect: kind, Match: m, Description: desc, Value: value}}
	}
	tt := &testfile.Test{File: filepath.Join(dir, "x"+name+".e2e.yaml"), Name: v, URL: "/p?q=" + v, Steps: []testfile.Step{
		s(step.Click, "the "+v+" button", ""),
		s(step.TypeText, "the "+v+" field", v),
		s(step.TypeText, "the "+v+" field", v+"{{ env.E2E_X }}"+v),
		s(step.TypeText, "the "+v+" field", "{{ secret.E2E_S }}"+v),
		s(step.Select, "the "+v+" list", v),
		s(step.Press, "", v),
		s(step.Press, "the "+v+" field", v),
		s(step.Navigate, "", v),
		ex(step.ExpectText, step.MatchContains, "the "+v+" text", v),
		ex(step.ExpectText, step.MatchExact, "the "+v+" text", v),
		ex(step.ExpectValue, step.MatchContains, "the "+v+" field", v),
		ex(step.ExpectValue, step.MatchContains, "the "+v+" field", v+"{{ env.E2E_X }}"),
		ex(step.ExpectTitle, step.MatchContains, "", v),
		ex(step.ExpectTitle, step.MatchContains, "", "{{ secret.E2E_S }}"+v),
		ex(step.ExpectURL, step.MatchContains, "", v),
		ex(step.ExpectURL, step.MatchExact, "", "/a*"+v),
		ex(step.ExpectURL, step.MatchExact, "", v+"*{{ env.E2E_X }}"),
		s(step.Act, v, ""),
		s(step.Act, v+" {{ secret.E2E_S }}", ""),
		s(step.Assert, v, ""),
		s(step.Wait, "the "+v+" toast", ""),
		s(step.Hover, "the blue "+v+" button", ""),
		s(step.Upload, "the "+v+" input", "a.png"),
		s(step.Click, "the "+v+" link", ""),
	}}
	loc := func(l browser.PWLocator) []Target { l.Count = 1; return []Target{{Locator: l, Cached: true}} }
	steps := []Step{
		{Targets: loc(browser.PWLocator{Kind: "role", Role: "button", Name: v, Exact: true, HasText: v, Reason: v, Frames: []string{v}})},
		{Targets: loc(browser.PWLocator{Kind: "label", Value: v})},
		{Targets: loc(browser.PWLocator{Kind: "placeholder", Value: v})},
		{Targets: loc(browser.PWLocator{Kind: "testid", Attr: "data-qa", Value: v})},
		{Targets: loc(browser.PWLocator{Kind: "testid", Value: v})},
		{},
		{Targets: loc(browser.PWLocator{Kind: "text", Value: v})},
		{},
		{Targets: loc(browser.PWLocator{Kind: "css", Value: v, Reason: v})},
		{Targets: loc(browser.PWLocator{Kind: "role", Role: v, Name: v, Scope: &browser.PWScope{Role: v, Name: v, HasText: v}})},
		{Targets: []Target{{Locator: browser.PWLocator{Kind: "label", Value: v}, Unchecked: v}}},
		{Targets: []Target{{Locator: browser.PWLocator{Kind: "label", Value: v}}}},
		{}, {}, {}, {}, {},
		{Act: []ActStep{{Step: step.Step{Type: step.TypeText, Description: v, Value: v + "{{ secret.E2E_S }}"}, Targets: loc(browser.PWLocator{Kind: "text", Value: v})}}},
		{},
		{},
		{Targets: []Target{{Locator: browser.PWLocator{Kind: "role", Role: "status", Name: v}, Unchecked: v}}},
		{Targets: loc(browser.PWLocator{Kind: "role", Role: "button", Name: v, Hover: true, Scope: &browser.PWScope{Role: "row", HasText: v},
			Color: &browser.PWColor{Property: v, Value: v}})},
		{Targets: loc(browser.PWLocator{Kind: "css", Value: v})},
		{}, // guessed from its description
	}
	spec, err := Spec(Test{Test: tt, Steps: steps}, Options{OutDir: filepath.Join(dir, v)})
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// TestSpecParsesToItsStatements: a spec made of nothing but nasty outside
// text parses, with TypeScript's own parser, to what the export means: no
// syntax error, one test(…) call as the only top-level expression, after
// the imports and the spec's helper functions, and one test.step(…) a step.
func TestSpecParsesToItsStatements(t *testing.T) {
	dir := t.TempDir()
	var cases []tsCase
	for _, v := range nasty {
		cases = append(cases, tsCase{Src: string(nastySpec(t, dir, v))})
	}
	for i, r := range inspectTS(t, cases) {
		v := nasty[i]
		if len(r.Errors) > 0 {
			t.Errorf("%q: %v\n%s", v, r.Errors, cases[i].Src)
			continue
		}
		var kinds []string
		for _, k := range r.Statements {
			if k != "ImportDeclaration" && k != "FunctionDeclaration" && k != "FirstStatement" {
				kinds = append(kinds, k)
			}
		}
		if len(kinds) != 1 || kinds[0] != "ExpressionStatement" || r.Tests != 1 || r.Steps != 24 {
			t.Errorf("%q: top-level %v, %d test(), %d test.step(), want one test() of 24 steps\n%s", v, r.Statements, r.Tests, r.Steps, cases[i].Src)
		}
		// A secret is read only where the browser needs its value: typed
		// (with fillSecret) or compared; never in a title, comment or message.
		for _, line := range strings.Split(cases[i].Src, "\n") {
			if strings.Contains(line, "process.env.E2E_S") && !strings.HasPrefix(strings.TrimSpace(line), "await fillSecret(") &&
				!strings.HasPrefix(strings.TrimSpace(line), "await expect(page).toHaveTitle(") {
				t.Errorf("%q: a secret where the browser does not need it: %s", v, line)
			}
		}
	}
}

// TestSpecFileNameRunsNoCode: a test file whose name holds a line break and
// code (git allows such names, and e2e reads a file named on the command
// line whatever its suffix) gives a spec that Playwright loads and lists as
// one test, and the code in the name does not run.
func TestSpecFileNameRunsNoCode(t *testing.T) {
	modules := npmModules(t)
	for _, base := range []string{
		"t\nrequire('fs').writeFileSync('pwned', '');x=1",
		"t\u2028require('fs').writeFileSync('pwned', '');x=1",
		"t\rrequire('fs').writeFileSync('pwned', '');x=1",
	} {
		dir := t.TempDir()
		tt := &testfile.Test{File: filepath.Join(dir, base), Name: "listed", Steps: []testfile.Step{
			{Step: step.Step{Type: step.Navigate, Value: "/"}},
		}}
		spec, err := Spec(Test{Test: tt}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "named.spec.ts"), spec, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "playwright.config.ts"), Config(ConfigOptions{Headless: true}), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(filepath.Join(modules, ".bin", "playwright"), "test", "--list")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1", "CI=1")
		out, err := cmd.CombinedOutput()
		if _, serr := os.Stat(filepath.Join(dir, "pwned")); serr == nil {
			t.Errorf("%q: listing the spec ran the code in the file name\n%s", base, spec)
		}
		if err != nil || !strings.Contains(string(out), "listed") || !strings.Contains(string(out), "Total: 1 test in 1 file") {
			t.Errorf("%q: playwright test --list: %v\n%s\n%s", base, err, out, spec)
		}
	}
}

// TestRedactorKnowsTheExportsForms: every form the export writes a value
// in is one the redactor replaces, so that a secret a page showed (in a
// name a locator uses) never leaves in a spec.
func TestRedactorKnowsTheExportsForms(t *testing.T) {
	for _, v := range append(nasty, `it's-s3cret`, "s3c`ret${x}", `c:\s3cret`) {
		if strings.TrimSpace(v) == "" {
			continue
		}
		forms := redact.Forms(v)
		q := quote(v)
		for name, f := range map[string]string{"string": q[1 : len(q)-1], "template": templateText(v), "regexp": regexpText(v)} {
			if !slices.Contains(forms, f) {
				t.Errorf("%q: the redactor does not know its %s form %q", v, name, f)
			}
			if r := redact.New(v).String("x(" + f + ")"); r != "x("+redact.Marker+")" {
				t.Errorf("%q: its %s form is redacted as %q", v, name, r)
			}
		}
	}
}
