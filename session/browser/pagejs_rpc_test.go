package browser

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// pageExports is the names of the functions page.js exports: the keys of
// the object its closing `return { … }` builds (a shorthand name, or a
// `name: value` key).
func pageExports(t *testing.T) []string {
	t.Helper()
	i := strings.LastIndex(pageJS, "\n  return {")
	if i < 0 {
		t.Fatal("page.js has no closing return { … }")
	}
	body := pageJS[i+len("\n  return {"):]
	body = body[:strings.Index(body, "};")]
	// drop the values of name: value keys (arrow functions hold commas)
	body = regexp.MustCompile(`:\s*\([^)]*\)\s*=>\s*\{[^}]*\}`).ReplaceAllString(body, "")
	var names []string
	for _, part := range strings.Split(body, ",") {
		if n := strings.TrimSpace(part); n != "" {
			names = append(names, n)
		}
	}
	return names
}

// goCalls is the page.js function names the package's Go files name:
// p.call(ctx, out, "name", …) and window.__e2e.name(…) in scripts. With
// tests, the test files' too, where any quoted name counts (tests pass
// method names to helpers).
func goCalls(t *testing.T, tests bool) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	call := regexp.MustCompile(`\bcall\([^,()]+, [^,()]+, "(\w+)"`)
	script := regexp.MustCompile(`__e2e\.(\w+)\(`)
	quoted := regexp.MustCompile(`"(\w+)"`)
	out := map[string][]string{}
	for _, f := range files {
		if !tests && strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res := []*regexp.Regexp{call, script}
		if strings.HasSuffix(f, "_test.go") {
			res = append(res, quoted) // tests pass method names to helpers
		}
		for _, re := range res {
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				if !slices.Contains(out[m[1]], f) {
					out[m[1]] = append(out[m[1]], f)
				}
			}
		}
	}
	return out
}

// notCalled are page.js's exports that Go does not call, and why they
// are exported.
var notCalled = map[string]string{
	"track":     "the settle tracker, read by the page script of the frame around (framesLoading)",
	"reidDebug": "turns re-identification's score notes on, for a person in DevTools",
}

// TestPageScriptMethodsMatchGo: every page.js method the Go code calls by
// name is one page.js exports, and every method page.js exports is called
// by the package (or, for a debugging aid, its tests): a renamed or
// removed method fails here, not in a page at run time.
func TestPageScriptMethodsMatchGo(t *testing.T) {
	exports := pageExports(t)
	if len(exports) < 10 {
		t.Fatalf("read %d exports from page.js: %v", len(exports), exports)
	}
	calls := goCalls(t, false)
	if len(calls) < 10 {
		t.Fatalf("read %d method names from the Go files: %v", len(calls), calls)
	}
	var names []string
	for n := range calls {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if !slices.Contains(exports, n) {
			t.Errorf("%v call page.js's %q, which page.js does not export (exports: %v)", calls[n], n, exports)
		}
	}
	all := goCalls(t, true)
	for _, n := range exports {
		if _, ok := all[n]; !ok && notCalled[n] == "" {
			t.Errorf("page.js exports %q, which no Go file of the package calls", n)
		}
	}
}

// TestPageScriptParses: page.js is valid JavaScript to Node's parser.
func TestPageScriptParses(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (make test installs it with npm's packages)")
	}
	f := filepath.Join(t.TempDir(), "page.js")
	if err := os.WriteFile(f, []byte(pageJS), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(node, "--check", f).CombinedOutput(); err != nil {
		t.Fatalf("node --check page.js: %v\n%s", err, out)
	}
}
