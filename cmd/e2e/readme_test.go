package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/testfile"
)

// The README's claims are checked here: its commands exist, its links
// resolve, its example command lines parse, its example test files are the
// files they name, its first example runs as written and its quick start
// block is what the demo prints.

// repoRoot is the repository's top directory (this package is cmd/e2e).
const repoRoot = "../.."

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docFiles are README.md and every docs/*.md, relative to the root.
func docFiles(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, n := range names {
		rel, _ := filepath.Rel(repoRoot, n)
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

// freshRoot is the command tree as e2e builds it, completion included.
func freshRoot() *cobra.Command {
	root := newRoot(io.Discard, io.Discard, redact.New())
	root.InitDefaultCompletionCmd()
	return root
}

// parseCommandLine finds the command args name in a fresh tree and parses
// its flags, as e2e would before running it.
func parseCommandLine(args []string) (*cobra.Command, error) {
	root := freshRoot()
	cmd, rest, err := root.Find(args)
	if err != nil {
		return nil, err
	}
	return cmd, cmd.ParseFlags(rest)
}

var commandsTableRow = regexp.MustCompile("^\\| \\[`e2e ([^`]+)`\\]\\(([^)]+)\\) \\|")

// TestReadmeCommandsTable: every command in the README's table exists in the
// cobra tree (its flags too, for `e2e run --ci`), links to its docs section,
// and every command of the tree is in the table.
func TestReadmeCommandsTable(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	listed := map[string]bool{}
	for _, line := range strings.Split(readme, "\n") {
		m := commandsTableRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		words := strings.Fields(m[1])
		cmd, err := parseCommandLine(words)
		if err != nil {
			t.Errorf("README lists `e2e %s`: %v", m[1], err)
			continue
		}
		var names []string
		for _, w := range words {
			if !strings.HasPrefix(w, "-") {
				names = append(names, w)
			}
		}
		if got := strings.TrimPrefix(cmd.CommandPath(), "e2e "); got != strings.Join(names, " ") {
			t.Errorf("README lists `e2e %s`, which is `%s`", m[1], cmd.CommandPath())
		}
		listed[names[0]] = true
		if !strings.HasPrefix(m[2], "docs/commands.md#") {
			t.Errorf("`e2e %s` links to %s, not to its section of docs/commands.md", m[1], m[2])
		}
	}
	if len(listed) < 5 {
		t.Fatalf("found %d commands in the README's table", len(listed))
	}
	for _, c := range freshRoot().Commands() {
		if !c.Hidden && c.Name() != "help" && !listed[c.Name()] {
			t.Errorf("`e2e %s` is not in the README's commands table", c.Name())
		}
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// headingSlug is GitHub's anchor for a heading: lower case, punctuation
// other than - and _ dropped, spaces as -.
func headingSlug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the heading anchors of a Markdown file, code blocks aside.
func anchors(src string) map[string]bool {
	set := map[string]bool{}
	fence := false
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(line, "```") {
			fence = !fence
		}
		if !fence && strings.HasPrefix(line, "#") {
			set[headingSlug(strings.TrimLeft(line, "#"))] = true
		}
	}
	return set
}

// TestReadmeLinksResolve: every relative link in README.md and docs/*.md
// names a file or directory of the repository, and its #anchor a heading of
// that file.
func TestReadmeLinksResolve(t *testing.T) {
	checked := 0
	for _, file := range docFiles(t) {
		src := readRepoFile(t, file)
		for _, m := range mdLink.FindAllStringSubmatch(src, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			resolved := file
			if path != "" {
				resolved = filepath.ToSlash(filepath.Join(filepath.Dir(file), path))
			}
			checked++
			if _, err := os.Stat(filepath.Join(repoRoot, resolved)); err != nil {
				t.Errorf("%s links to %s: no such file", file, target)
				continue
			}
			if anchor != "" && !anchors(readRepoFile(t, resolved))[anchor] {
				t.Errorf("%s links to %s: %s has no heading #%s", file, target, resolved, anchor)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d links", checked)
	}
}

// shellWords splits a command line as sh would, for the simple lines the
// docs show: words, single and double quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

var envAssignment = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)

// exampleCommand reads a line of a code block as a command line: an
// optional "$ " prompt, NAME=value assignments, then e2e (or bin/e2e) and
// its arguments, a trailing "# comment" or "&" aside. ok is false for lines
// that are not e2e command lines.
func exampleCommand(line string) (env map[string]string, args []string, ok bool) {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "$ ")
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSuffix(strings.TrimSpace(line), "&")
	words := shellWords(line)
	env = map[string]string{}
	for len(words) > 0 && envAssignment.MatchString(words[0]) {
		k, v, _ := strings.Cut(words[0], "=")
		env[k] = v
		words = words[1:]
	}
	if len(words) == 0 {
		return nil, nil, false
	}
	switch words[0] {
	case "e2e", "bin/e2e", "./bin/e2e":
		return env, words[1:], true
	}
	return nil, nil, false
}

// codeLines are the lines inside the fenced code blocks of src.
func codeLines(src string) []string {
	var lines []string
	fence := false
	for _, line := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if fence {
			lines = append(lines, line)
		}
	}
	return lines
}

// TestReadmeExampleCommandsParse: every e2e command line shown in a code
// block of README.md or docs/*.md names a real command with known flags and
// values that parse.
func TestReadmeExampleCommandsParse(t *testing.T) {
	checked := 0
	for _, file := range docFiles(t) {
		for _, line := range codeLines(readRepoFile(t, file)) {
			_, args, ok := exampleCommand(line)
			if !ok || len(args) == 0 {
				continue
			}
			checked++
			if _, err := parseCommandLine(args); err != nil {
				t.Errorf("%s: %q: %v", file, strings.TrimSpace(line), err)
			}
		}
	}
	if checked < 15 {
		t.Fatalf("checked only %d command lines", checked)
	}
	// The check itself: a misspelt flag or command does not parse.
	for _, bad := range []string{"e2e run --worker 3", "e2e rnu", "e2e cache stats --runz 3"} {
		_, args, _ := exampleCommand(bad)
		if _, err := parseCommandLine(args); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestReadmeTestFilesAreTheExamples: a YAML block of the README whose first
// line is "# examples/…" is that file, as it is.
func TestReadmeTestFilesAreTheExamples(t *testing.T) {
	blocks := regexp.MustCompile("(?s)```yaml\n# (examples/[^\n]+)\n(.*?)```").FindAllStringSubmatch(readRepoFile(t, "README.md"), -1)
	if len(blocks) == 0 {
		t.Fatal("the README shows no example test file")
	}
	for _, b := range blocks {
		if want := readRepoFile(t, b[1]); b[2] != want {
			t.Errorf("the README's %s differs from the file:\n%s\nthe file:\n%s", b[1], b[2], want)
		}
	}
}

// readmeFirstExample is the README's `e2e run --config examples` line.
func readmeFirstExample(t *testing.T) (env map[string]string, args []string) {
	t.Helper()
	for _, line := range codeLines(readRepoFile(t, "README.md")) {
		env, args, ok := exampleCommand(line)
		if ok && strings.Join(args, " ") == "run --config examples" {
			return env, args
		}
	}
	t.Fatal("the README has no `e2e run --config examples` line")
	return nil, nil
}

// TestReadmeFirstExampleRunsAsWritten: the README's first example, with
// exactly the environment it sets, runs the example suite and passes; only
// the base URL (another port than the README's fixture) and the database
// (a temporary one) differ. Without its variables the run stops before the
// browser, naming them.
func TestReadmeFirstExampleRunsAsWritten(t *testing.T) {
	env, args := readmeFirstExample(t)
	readme := readRepoFile(t, "README.md")
	for _, k := range []string{"E2E_USER", "E2E_PASSWORD", "E2E_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	t.Chdir(repoRoot)
	args = append(args, "--base-url", fixtureServer(t), "--db", filepath.Join(t.TempDir(), "e2e.db"))
	code, out, errOut := e2e(t, args...)
	if code != exitUsage || !strings.Contains(errOut, "E2E_USER") {
		t.Fatalf("without the README's variables: exit %d, want %d naming E2E_USER\n%s%s", code, exitUsage, out, errOut)
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	for run := 1; run <= 2; run++ {
		code, out, errOut = e2e(t, args...)
		if code != 0 || !strings.Contains(out, "5 passed, 0 failed") {
			t.Fatalf("run %d: e2e %s with %v: exit %d\n%s%s", run, strings.Join(args, " "), env, code, out, errOut)
		}
	}
	// The output the README shows is the second run's, times aside, in
	// order ("…" stands for lines left out).
	m := regexp.MustCompile("(?s)<!-- run-output:[^\n]*\n```\n(.*?)```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("no run-output block in the README")
	}
	times := regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?m?s\b`)
	norm := func(l string) string { return strings.Join(strings.Fields(times.ReplaceAllString(l, "T")), " ") }
	got := strings.Split(out, "\n")
	at := 0
	for _, l := range strings.Split(strings.TrimRight(m[1], "\n"), "\n") {
		if strings.TrimSpace(l) == "…" {
			continue
		}
		for at < len(got) && norm(got[at]) != norm(l) {
			at++
		}
		if at == len(got) {
			t.Fatalf("the README's line %q is not in the second run's output (in order):\n%s", strings.TrimSpace(l), out)
		}
	}
}

// demoBlock normalises a demo output block for comparison: white space
// runs collapsed, and what changes from machine to machine (times in ms,
// the scripted model's estimated tokens) masked. A column is masked by its
// header: the last field under "median ms/…", the one before it under
// "tokens".
func demoBlock(lines []string) []string {
	var out []string
	masked := 0
	for _, line := range lines {
		f := strings.Fields(line)
		switch {
		case strings.Contains(line, "median ms/"):
			masked = 1
			if strings.Contains(line, "tokens") {
				masked = 2
			}
		case strings.HasPrefix(line, "median "):
			f = strings.Fields(regexp.MustCompile(`[0-9]+(\.[0-9]+)?`).ReplaceAllString(line, "N"))
		case len(f) == 0:
			masked = 0
		case masked > 0 && len(f) > masked:
			for i := len(f) - masked; i < len(f); i++ {
				f[i] = "N"
			}
		}
		out = append(out, strings.Join(f, " "))
	}
	return out
}

// TestReadmeQuickStartIsTheDemosOutput runs `e2e demo` and compares its
// output with the README's quick start block: every line and every count
// the same, times and estimated tokens aside. The demo runs without the
// model and sign-in variables (TestMain clears them).
func TestReadmeQuickStartIsTheDemosOutput(t *testing.T) {
	t.Parallel() // it waits for the demo, which runs beside the other tests
	readme := readRepoFile(t, "README.md")
	m := regexp.MustCompile("(?s)<!-- demo-output:[^\n]*\n```\n(.*?)```").FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("no demo-output block in the README")
	}
	want := demoBlock(strings.Split(strings.TrimRight(m[1], "\n"), "\n"))

	// The demo has run since the tests started (TestMain's plainDemo).
	code, out, errOut := plainDemo.wait(t)
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errOut)
	}
	lines := strings.Split(out, "\n")
	start := -1
	for i, l := range lines {
		if strings.Contains(l, "median ms/step") {
			start = i
			break
		}
	}
	if start < 0 || start+len(want) > len(lines) {
		t.Fatalf("demo output is not the README's shape:\n%s", out)
	}
	got := demoBlock(lines[start : start+len(want)])
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("README quick start line %d:\n  README: %s\n  demo:   %s", i+1, want[i], got[i])
		}
	}
	// Its minutes are not silent: on stderr, a line as each run starts and
	// one as it ends, in order; the README says how long it takes.
	runs := len(demoPhases) + len(agentPhases)
	progress := errOut
	at := 0
	for i, name := range demoRunNames() {
		for _, w := range []string{
			fmt.Sprintf("demo: run %d/%d, %s: ", i+1, runs, name),
			fmt.Sprintf("demo: run %d/%d, %s: ", i+1, runs, name), // its end
			" passed in ",
		} {
			j := strings.Index(progress[at:], w)
			if j < 0 {
				t.Errorf("stderr lacks %q after byte %d:\n%s", w, at, progress)
				break
			}
			at += j + len(w)
		}
	}
	if strings.Contains(out, "demo: run ") {
		t.Error("progress lines went to stdout, the README's block")
	}
	if !regexp.MustCompile(`make demo[^\n]*\n(.*\n)*?.*takes about [0-9]+ minutes?`).MatchString(readme) {
		t.Error("the README does not say how long make demo takes")
	}
	if t.Failed() {
		t.Logf("the demo printed:\n%s", out)
	}
}

// demoRunNames are the demo's runs, in order: the plain examples' and the
// act examples'.
func demoRunNames() []string {
	var names []string
	for _, p := range demoPhases {
		names = append(names, p.name)
	}
	for _, p := range agentPhases {
		names = append(names, p.name)
	}
	return names
}

// TestDocsYAMLExamplesParse: every YAML block of README.md and docs/*.md
// that is a test file (it has name: and steps:) or an e2e.yaml (it has
// baseURL:) parses without a problem.
func TestDocsYAMLExamplesParse(t *testing.T) {
	block := regexp.MustCompile("(?s)```yaml\n(.*?)```")
	tests, configs, flows := 0, 0, 0
	for _, file := range docFiles(t) {
		for _, m := range block.FindAllStringSubmatch(readRepoFile(t, file), -1) {
			src := m[1]
			switch {
			case regexp.MustCompile(`^# \S+\.flow\.yaml\n`).MatchString(src):
				flows++
				if _, err := testfile.ParseFlow(file+".flow.yaml", []byte(src)); err != nil {
					t.Errorf("%s: a flow file example does not parse: %v\n%s", file, err, src)
				}
			case regexp.MustCompile(`(?m)^name:`).MatchString(src) && regexp.MustCompile(`(?m)^steps:`).MatchString(src):
				tests++
				if _, err := testfile.Parse(file+".e2e.yaml", []byte(src)); err != nil {
					t.Errorf("%s: a test file example does not parse: %v\n%s", file, err, src)
				}
			case regexp.MustCompile(`(?m)^baseURL:`).MatchString(src):
				configs++
				if _, err := testfile.ParseConfig(file+"/e2e.yaml", []byte(src)); err != nil {
					t.Errorf("%s: an e2e.yaml example does not parse: %v\n%s", file, err, src)
				}
			}
		}
	}
	if tests < 3 || configs < 1 || flows < 2 {
		t.Fatalf("checked %d test files, %d e2e.yaml and %d flow examples", tests, configs, flows)
	}
}

// TestDocsCommandsListEveryFlag: every flag of every command is in
// docs/commands.md (or, for CI mode, docs/ci.md), so the reference is
// complete.
func TestDocsCommandsListEveryFlag(t *testing.T) {
	docs := readRepoFile(t, "docs/commands.md") + readRepoFile(t, "docs/ci.md")
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			n++
			if !regexp.MustCompile(`(^|[^-\w])--` + regexp.QuoteMeta(f.Name) + `([^-\w]|$)`).MatchString(docs) {
				t.Errorf("`%s --%s` is not in docs/commands.md", c.CommandPath(), f.Name)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(freshRoot())
	if n < 20 {
		t.Fatalf("checked only %d flags", n)
	}
}

// TestDocsListEveryExitCode: the README's CI section and docs/ci.md's
// table name every exit code e2e run has.
func TestDocsListEveryExitCode(t *testing.T) {
	readme := readRepoFile(t, "README.md")
	_, ci, ok := strings.Cut(readme, "\n## CI\n")
	if !ok {
		t.Fatal("the README has no CI section")
	}
	ci, _, _ = strings.Cut(ci, "\n## ")
	_, codes, ok := strings.Cut(ci, "Exit codes:")
	if !ok {
		t.Fatal("the README's CI section lists no exit codes")
	}
	table := readRepoFile(t, "docs/ci.md")
	for _, c := range []int{exitOK, exitFailed, exitUsage, exitHealed, exitStale, exitStore} {
		if !regexp.MustCompile(`(^|[\s,])` + strconv.Itoa(c) + `\s`).MatchString(codes) {
			t.Errorf("the README's CI exit codes lack %d", c)
		}
		if !strings.Contains(table, "\n| "+strconv.Itoa(c)+" |") {
			t.Errorf("docs/ci.md's exit code table lacks %d", c)
		}
	}
}

// TestDocsCommandsFlagsExist: every flag in the first column of a table in
// docs/commands.md is a flag of the command its section is about (or of
// the subcommand the row names).
func TestDocsCommandsFlagsExist(t *testing.T) {
	flagRE := regexp.MustCompile("--([a-z][a-z0-9-]*)")
	var section *cobra.Command
	n := 0
	for _, line := range strings.Split(readRepoFile(t, "docs/commands.md"), "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = nil
			switch {
			case h == "Global flags":
				section = freshRoot()
			case strings.HasPrefix(h, "e2e "):
				c, _, err := freshRoot().Find(strings.Fields(strings.TrimPrefix(h, "e2e ")))
				if err != nil {
					t.Errorf("docs/commands.md has a section for %q: %v", h, err)
					continue
				}
				section = c
			}
			continue
		}
		if section == nil || !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.SplitN(line, "|", 3)[1]
		cmd := section
		if w := strings.Fields(strings.Trim(cell, " `")); len(w) > 0 {
			if sub, _, err := section.Find([]string{w[0]}); err == nil && sub != section {
				cmd = sub
			}
		}
		for _, m := range flagRE.FindAllStringSubmatch(cell, -1) {
			n++
			if cmd.Flags().Lookup(m[1]) == nil && cmd.InheritedFlags().Lookup(m[1]) == nil {
				t.Errorf("docs/commands.md: `%s` has no flag --%s", cmd.CommandPath(), m[1])
			}
		}
	}
	if n < 30 {
		t.Fatalf("checked only %d flags", n)
	}
}
