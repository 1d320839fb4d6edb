package run

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TodoMVC, twelve builds of one app nobody here wrote (issue 29): the
// tests in examples/todomvc are written as a person would after looking at
// the app, with the same words for every build, and run on each build
// cold (the local locator, no model, recording) and then warm (the strict
// cache policy, as `--cache strict`). Each step that looks up an element
// names, in its `# zoo:` comment, what a person means by it (new, item:T,
// text:T, toggle:T, delete:T, edit:T, toggle-all, count, filter:F,
// clear); todomvcKeyJS reads the same of the element the step found, from
// the app's own DOM, so a step on the wrong element is caught on every
// build without touching the app.

var todomvcOnly = flag.String("todomvc.only", "", "TestTodoMVC runs only these builds (comma-separated, e.g. react,vue) and, after a slash, these tests (react/edit)")

// todomvcTarball is the corpus (../shared/realworld/README.md), from this
// package's folder.
const todomvcTarball = "../../../shared/realworld/todomvc-dist.tar.gz"

// todomvcDir is where the TodoMVC tests live, relative to this package.
const todomvcDir = "../../examples/todomvc"

// todomvcSideBySide is how many TodoMVC runs share the browser at once
// (each in a browser context of its own): most of a run is spent waiting
// for a page to be quiet.
const todomvcSideBySide = 6

// todomvcBuilds are the twelve builds in the tarball.
var todomvcBuilds = []string{"angular", "backbone", "javascript-es5", "javascript-es6", "jquery", "lit",
	"preact", "react", "react-redux", "svelte", "vue", "web-components"}

// todomvcKeyJS names the element behind a ref as a person would: what it
// is in the app and which todo it belongs to. It reads the app's DOM,
// whichever build: a todo is an <li> outside the filters (in the document
// or in a shadow root), its text the label or span that shows it.
const todomvcKeyJS = `(ref) => {
  const el = window.__e2e.resolve(ref);
  if (!el) return null;
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim();
  const tag = el.localName;
  const inFilters = (e) => !!e.closest('.filters, .filter-list');
  const textEl = (li) => li.querySelector('.view label, .todo-item-text');
  const itemText = (li) => {
    const t = textEl(li);
    if (t) return norm(t.textContent);
    const f = li.querySelector('input:not([type=checkbox])');
    return f ? norm(f.value) : '';
  };
  if (tag === 'input' && el.placeholder === 'What needs to be done?' && !el.closest('li')) return 'new';
  if (el.matches('.toggle-all, .toggle-all-input, .toggle-all-label, label[for^="toggle-all"]')) return 'toggle-all';
  if (el.closest('.todo-count, .todo-status')) return 'count';
  if (tag === 'a' && inFilters(el)) return 'filter:' + norm(el.textContent);
  if (tag === 'button' && norm(el.textContent) === 'Clear completed') return 'clear';
  const li = el.closest('li');
  if (li && !inFilters(li)) {
    const t = itemText(li);
    if (el === li) return 'item:' + t;
    if (tag === 'input' && el.type === 'checkbox') return 'toggle:' + t;
    if (tag === 'button') return 'delete:' + t;
    if (tag === 'input') return 'edit:' + t;
    if (el === textEl(li)) return 'text:' + t;
    return 'in:' + t + ':' + tag + (el.className ? '.' + el.className : '');
  }
  return tag + ':' + norm(el.textContent).slice(0, 40);
}`

// todomvcKey reads todomvcKeyJS of the element behind ref.
func todomvcKey(ctx context.Context, p *browser.Page, ref string) (string, bool, error) {
	var k *string
	if err := p.Eval(ctx, &k, todomvcKeyJS, ref); err != nil {
		return "", false, err
	}
	if k == nil {
		return "", false, nil
	}
	return *k, true, nil
}

// extractTodoMVC unpacks the tarball into dir and returns the folder that
// holds the builds. Only regular files and folders inside dir are written.
func extractTodoMVC(t testing.TB, tarball, dir string) string {
	t.Helper()
	f, err := os.Open(tarball)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("read %s: %v", tarball, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("read %s: %v", tarball, err)
		}
		name := filepath.Clean(filepath.FromSlash(h.Name))
		if !filepath.IsLocal(name) {
			t.Fatalf("%s: %q leaves the folder", tarball, h.Name)
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			out, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.Copy(out, tr); err != nil {
				out.Close()
				t.Fatal(err)
			}
			if err := out.Close(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return filepath.Join(dir, "todomvc")
}

// todomvcRun is one TodoMVC test on one build, cold then warm.
type todomvcRun struct {
	Build, Test string
	Cold, Warm  zooRun
}

// runTodoMVC extracts the corpus, serves every build with its own file
// server and runs every TodoMVC test on each, cold then warm, a few side by
// side on the shared browser. Each build has its own store: the tests'
// names (so their cache keys) are the same on every build.
func runTodoMVC(t *testing.T) []todomvcRun {
	t.Helper()
	if _, err := os.Stat(todomvcTarball); err != nil {
		t.Skipf("the TodoMVC corpus is not at %s (it comes with ../shared/realworld beside the clone): %v", todomvcTarball, err)
	}
	browserTest(t)
	root := extractTodoMVC(t, todomvcTarball, t.TempDir())
	builds, tests := todomvcBuilds, ""
	if *todomvcOnly != "" {
		b, rest, _ := strings.Cut(*todomvcOnly, "/")
		builds, tests = strings.Split(b, ","), rest
	}
	files := loadZooDir(t, todomvcDir)
	if tests != "" {
		files = slices.DeleteFunc(files, func(zf zooFile) bool { return !slices.Contains(strings.Split(tests, ","), zf.Name) })
	}
	if tests == "" && len(files) < 5 {
		t.Fatalf("%d TodoMVC tests in %s, want at least five (issue 29)", len(files), todomvcDir)
	}
	var runs []todomvcRun
	var jobs []func()
	for _, b := range builds {
		dir := filepath.Join(root, b)
		if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
			t.Fatalf("build %s: %v", b, err)
		}
		srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
		t.Cleanup(srv.Close)
		store := t.TempDir()
		cfg := testfile.DefaultConfig(store)
		cfg.BaseURL = srv.URL
		cfg.Timeouts.Step = 5 * time.Second
		// The builds are static files on a local server and render in the
		// same task as the event (or the next microtask): 100 ms without a
		// change is quiet. A step that looks too early looks again until
		// its timeout (expectations poll, lookups retry).
		cfg.Timeouts.SettleQuiet = 100 * time.Millisecond
		db := openZooStore(t, filepath.Join(store, "e2e.db"))
		url := func(u, _ string) string { return u }
		cold := &zooHarness{cfg: cfg, db: db, cache: CacheReadWrite, keyOf: todomvcKey, url: url}
		warm := &zooHarness{cfg: cfg, db: db, cache: CacheStrict, keyOf: todomvcKey, url: url}
		for _, zf := range files {
			i := len(runs)
			runs = append(runs, todomvcRun{Build: b, Test: zf.Name})
			jobs = append(jobs, func() {
				runs[i].Cold = cold.run(t, zf, b)
				if runs[i].Cold.Passed { // only a passing run records
					runs[i].Warm = warm.run(t, zf, b)
				}
			})
		}
	}
	zooParallel(todomvcSideBySide, jobs)
	sort.SliceStable(runs, func(i, j int) bool {
		if runs[i].Build != runs[j].Build {
			return runs[i].Build < runs[j].Build
		}
		return runs[i].Test < runs[j].Test
	})
	return runs
}

// todomvcCounts sums one build's runs.
type todomvcCounts struct {
	Tests, ColdPassed, WarmPassed int
	Steps, ColdSteps              int // element steps; of them, located correctly and passed cold
	Hits                          int // of the element steps that passed cold in a test that passed, cache hits warm
	Recorded                      int // element steps that passed cold in a test that passed (so recorded)
	Wrong                         int // element steps, cold or warm, that acted on the wrong element
}

func (c *todomvcCounts) add(r todomvcRun) {
	c.Tests++
	if r.Cold.Passed {
		c.ColdPassed++
	}
	if r.Cold.Passed && r.Warm.Passed {
		c.WarmPassed++
	}
	for i, s := range r.Cold.Steps {
		if !s.Element() {
			continue
		}
		c.Steps++
		if s.Outcome() == zooWrong {
			c.Wrong++
		}
		if s.Outcome() != zooLocated || s.Status == session.StatusFailed {
			continue
		}
		c.ColdSteps++
		if !r.Cold.Passed {
			continue
		}
		c.Recorded++
		if i < len(r.Warm.Steps) && r.Warm.Steps[i].Cache == "hit" && r.Warm.Steps[i].Outcome() == zooLocated {
			c.Hits++
		}
	}
	for _, s := range r.Warm.Steps {
		if s.Element() && s.Outcome() == zooWrong {
			c.Wrong++
		}
	}
}

// todomvcReport is the table build × (cold, warm), then every step that did
// not pass and every warm miss.
func todomvcReport(runs []todomvcRun) string {
	var b strings.Builder
	b.WriteString("| build | tests passed cold | element steps passed cold | tests passed warm (--cache strict) | cache hits warm | wrong elements |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	var all todomvcCounts
	var order []string
	by := map[string]*todomvcCounts{}
	for _, r := range runs {
		if by[r.Build] == nil {
			by[r.Build] = &todomvcCounts{}
			order = append(order, r.Build)
		}
		by[r.Build].add(r)
		all.add(r)
	}
	row := func(name string, c todomvcCounts) {
		fmt.Fprintf(&b, "| %s | %d/%d | %d/%d | %d/%d | %d/%d (%.0f%%) | %d |\n", name, c.ColdPassed, c.Tests, c.ColdSteps, c.Steps,
			c.WarmPassed, c.ColdPassed, c.Hits, c.Recorded, pct(c.Hits, c.Recorded), c.Wrong)
	}
	for _, name := range order {
		row(name, *by[name])
	}
	row("**all**", all)
	var steps [2]int
	var took [2]time.Duration
	for _, r := range runs {
		for k, zr := range []zooRun{r.Cold, r.Warm} {
			for _, s := range zr.Steps {
				steps[k]++
				took[k] += s.Duration
			}
		}
	}
	for k, phase := range []string{"cold", "warm"} {
		if steps[k] > 0 {
			fmt.Fprintf(&b, "\n%s: %d steps, %s in all, %s a step", phase, steps[k], took[k].Round(time.Millisecond), (took[k] / time.Duration(steps[k])).Round(time.Millisecond))
		}
	}
	b.WriteString("\n\nSteps that did not pass:\n")
	for _, r := range runs {
		for phase, zr := range map[string]zooRun{"cold": r.Cold, "warm": r.Warm} {
			for _, s := range zr.Steps {
				if s.Status != session.StatusFailed && (!s.Element() || s.Outcome() == zooLocated) {
					continue
				}
				what := "failed"
				if s.Element() {
					what = s.Outcome()
					if what == zooLocated {
						what = "located, then failed"
					}
				}
				fmt.Fprintf(&b, "- %s %s:%d %s %s: %s\n    %s\n", r.Build, zr.File, s.Line, phase, what, s.Command, s.detail())
			}
			if zr.Err != "" && len(zr.Steps) == 0 {
				fmt.Fprintf(&b, "- %s %s %s: %s\n", r.Build, r.Test, phase, zr.Err)
			}
		}
	}
	b.WriteString("\nMisses warm (the cache's reason):\n")
	for _, r := range runs {
		if !r.Cold.Passed {
			continue
		}
		for i, s := range r.Cold.Steps {
			if !s.Element() || i >= len(r.Warm.Steps) {
				continue
			}
			if ws := r.Warm.Steps[i]; ws.Cache != "hit" {
				fmt.Fprintf(&b, "- %s %s:%d: %s: cache %s %s\n", r.Build, r.Cold.File, s.Line, s.Command, ws.Cache, ws.MissReason)
			}
		}
	}
	return b.String()
}

// TestTodoMVC: every TodoMVC test passes on every build cold with no model,
// and again warm under the strict cache policy with every element step a
// cache hit; no step, cold or warm, acts on the wrong element.
func TestTodoMVC(t *testing.T) {
	runs := runTodoMVC(t)
	t.Logf("TodoMVC (cold: local locator, no model, recording; warm: --cache strict):\n%s", todomvcReport(runs))
	for _, r := range runs {
		for phase, zr := range map[string]zooRun{"cold": r.Cold, "warm": r.Warm} {
			for _, s := range zr.Steps {
				if s.Element() && s.Outcome() == zooWrong {
					t.Errorf("%s %s:%d %s: %s acted on the wrong element: %s", r.Build, zr.File, s.Line, phase, s.Command, s.detail())
				}
			}
		}
		if !r.Cold.Passed {
			t.Errorf("%s %s: fails cold: %s", r.Build, r.Test, r.Cold.Err)
			continue
		}
		if !r.Warm.Passed {
			t.Errorf("%s %s: passed cold, fails warm under --cache strict: %s", r.Build, r.Test, r.Warm.Err)
		}
		for i, s := range r.Cold.Steps {
			if s.Element() && i < len(r.Warm.Steps) && r.Warm.Steps[i].Cache != "hit" {
				t.Errorf("%s %s:%d: %s: warm cache %s, want a hit: %s", r.Build, r.Cold.File, s.Line, s.Command, r.Warm.Steps[i].Cache, r.Warm.Steps[i].MissReason)
			}
		}
	}
}

// loadZooDir reads every *.e2e.yaml in dir (relative to this package) with
// its `# zoo:` comments, as loadZoo does for the zoo.
func loadZooDir(t testing.TB, dir string) []zooFile {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(abs, "*.e2e.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []zooFile
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		zf, err := parseZoo(p, src)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, zf)
	}
	if len(out) == 0 {
		t.Fatalf("no tests in %s", abs)
	}
	return out
}
