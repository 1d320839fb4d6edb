package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pathsProject writes a git repository with the e2e project in its e2e/
// directory: a passing test in tests/ and a failing one in tests/sub/.
func pathsProject(t *testing.T, base string) (repo, dir string) {
	t.Helper()
	repo = t.TempDir()
	dir = filepath.Join(repo, "e2e")
	files := map[string]string{
		"e2e.yaml":               fmt.Sprintf("baseURL: %s\ntests: [\"tests/**/*.e2e.yaml\"]\ntimeouts: { step: 3s }\n", base),
		"tests/cart.e2e.yaml":    cartTest,
		"tests/sub/bad.e2e.yaml": "name: wrong count\nurl: /product\nsteps:\n  - click: the Add to cart button\n  - expect: { text: { in: the cart status, is: \"Cart: 5 items\" } }\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRepo(t, repo)
	return repo, dir
}

// shownPaths runs the project from another directory with every reporter
// and returns each path the run showed or wrote, in order, and the output.
func shownPaths(t *testing.T, dir string) ([]string, string) {
	t.Helper()
	t.Chdir(t.TempDir()) // neither the project nor its repository
	code, out, errOut := e2e(t, "run", "--config", dir, "--ci", "--workers", "1",
		"--reporter", "line,junit=out/junit.xml,json=out/r.json,html=out/html")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
	}
	var paths []string
	// "… still running: NAME (FILE), 10s" lines come as often as the
	// machine is slow: they are progress, not a path the run reports.
	shown := regexp.MustCompile(`(?m)^.*… still running: .*\n`).ReplaceAllString(out, "")
	for _, m := range regexp.MustCompile(`\((tests/[^)]*)\)|    (tests/\S+?):\d|screenshot: (\S+)|::error file=([^,]+)`).FindAllStringSubmatch(shown, -1) {
		paths = append(paths, "console:"+strings.Join(m[1:], ""))
	}
	j := readText(t, "out/junit.xml")
	for _, m := range regexp.MustCompile(`(classname|file|name)="([^"]*(?:tests|e2e)[^"]*)"|screenshot: (\S+)`).FindAllStringSubmatch(j, -1) {
		paths = append(paths, "junit:"+m[1]+"="+m[2]+m[3])
	}
	var rep struct {
		Tests []struct {
			File  string
			Steps []struct{ Screenshot string }
		}
	}
	if err := json.Unmarshal([]byte(readText(t, "out/r.json")), &rep); err != nil {
		t.Fatal(err)
	}
	for _, tt := range rep.Tests {
		paths = append(paths, "json:"+tt.File)
		for _, st := range tt.Steps {
			if st.Screenshot != "" {
				paths = append(paths, "json screenshot:"+st.Screenshot)
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(st.Screenshot))); err != nil {
					t.Errorf("the screenshot is not at %s relative to the project: %v", st.Screenshot, err)
				}
			}
		}
	}
	html := readText(t, "out/html/index.html")
	for _, m := range regexp.MustCompile(`<span class="file">([^<]*)</span>|src="(files/[^"]*)"`).FindAllStringSubmatch(html, -1) {
		paths = append(paths, "html:"+m[1]+m[2])
		if m[2] != "" {
			if _, err := os.Stat(filepath.Join("out/html", m[2])); err != nil {
				t.Errorf("the HTML report shows %s, not copied in: %v", m[2], err)
			}
		}
	}
	for what, s := range map[string]string{"console": out, "JUnit": j, "JSON": readText(t, "out/r.json"), "HTML": html} {
		if strings.Contains(s, dir) || strings.Contains(s, filepath.ToSlash(dir)) {
			t.Errorf("the %s output names the project's absolute path %s:\n%s", what, dir, s)
		}
	}
	return paths, out
}

// Tests found through e2e.yaml are shown and written relative to its
// directory, so that two checkouts in different places report the same
// paths; GitHub annotations name the file from the repository's root.
func TestPathsAreRelativeToTheProject(t *testing.T) {
	base := fixtureServer(t)
	t.Setenv("GITHUB_ACTIONS", "true")
	_, dir1 := pathsProject(t, base)
	_, dir2 := pathsProject(t, base)
	first, out := shownPaths(t, dir1)
	second, _ := shownPaths(t, dir2)
	for _, want := range []string{
		"console:tests/cart.e2e.yaml", "console:tests/sub/bad.e2e.yaml", "console:e2e/tests/sub/bad.e2e.yaml",
		"junit:classname=tests.sub.bad", "junit:file=tests/sub/bad.e2e.yaml", "junit:classname=tests.cart", "junit:name=tests/sub/bad.e2e.yaml",
		"json:tests/cart.e2e.yaml", "json:tests/sub/bad.e2e.yaml",
		"html:tests/sub/bad.e2e.yaml", "html:tests/cart.e2e.yaml",
	} {
		if !slices.Contains(first, want) {
			t.Errorf("no %q among the paths shown:\n%s\n%s", want, strings.Join(first, "\n"), out)
		}
	}
	var shots int
	for _, p := range first {
		if strings.HasPrefix(p, "json screenshot:.e2e/screenshots/") {
			shots++
		}
	}
	if shots != 1 || !slices.ContainsFunc(first, func(p string) bool { return strings.HasPrefix(p, "html:files/") }) {
		t.Errorf("want the failing step's screenshot under .e2e/screenshots/, and in the HTML report:\n%s", strings.Join(first, "\n"))
	}
	if !slices.Equal(first, second) {
		t.Errorf("two copies of the project show different paths:\n%s\n---\n%s", strings.Join(first, "\n"), strings.Join(second, "\n"))
	}
}
