package browser

import (
	"bytes"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/e2e-dev/e2e/session/ax"
)

// wptAccnameDir is the W3C accname suite, beside the project's clone
// (see ../shared/realworld/README.md), from this package's folder.
const wptAccnameDir = "../../../shared/realworld/wpt-accname"

// wptAccnameGoal is how many of the suite's 523 expected names the outline
// must give: Chromium's own accessibility tree gives 513 on these pages,
// Playwright 1.65.1 509.
const wptAccnameGoal = 513

// wptStandIns are our own stand-ins for the WPT harness scripts the pages
// load (not part of the corpus). They run nothing: the manual tests'
// ATTAcomm keeps its steps on window.__wptATTA, where the test reads the
// expected names and the element each is for.
var wptStandIns = map[string]string{
	"/resources/testharness.js": `window.setup = function () {}; window.test = function () {};
window.promise_test = function () {}; window.async_test = function () { return { step: function () {}, done: function () {} }; };
window.done = function () {};`,
	"/resources/testharnessreport.js":     ``,
	"/resources/testdriver.js":            `window.test_driver = {};`,
	"/resources/testdriver-vendor.js":     ``,
	"/resources/testdriver-actions.js":    ``,
	"/wai-aria/scripts/ATTAcomm.js":       `window.ATTAcomm = function (spec) { window.__wptATTA = spec; };`,
	"/wai-aria/scripts/aria-utils.js":     `window.AriaUtils = { verifyLabelsBySelector: function () {}, verifyRolesBySelector: function () {} };`,
	"/wai-aria/scripts/manual-utils.js":   ``,
	"/resources/testharness-utils.js":     ``,
	"/wai-aria/scripts/hittest-utils.js":  ``,
	"/wai-aria/scripts/manual-helpers.js": ``,
}

// wptExpectedJS lists a page's expected names in document order: every
// element with data-expectedlabel, then every ATTAcomm step asserting a
// name (manual tests), each with the index in refs of the outline line of
// its element (-1 when the element has no line of its own).
const wptExpectedJS = `(refs) => {
  const line = new Map();
  refs.forEach((r, i) => { const el = window.__e2e.resolve(r); if (el && !line.has(el)) line.set(el, i); });
  const out = [], els = [];
  window.__wptElements = els;
  const add = (el, want, what) => {
    els.push(el);
    const i = el && line.has(el) ? line.get(el) : -1;
    const c = i >= 0 ? window.__e2e.captureElement(refs[i], []) : null;
    out.push({ want, what: what || '', line: i, found: !!el, cache: c && c.node ? c.node.name : '' });
  };
  for (const el of document.querySelectorAll('[data-expectedlabel]')) add(el, el.getAttribute('data-expectedlabel'), el.getAttribute('data-testname'));
  const spec = window.__wptATTA;
  if (spec) for (const st of spec.steps || []) {
    if (st.type !== 'test' || !st.test) continue;
    for (const a of st.test.ATK || []) if (a[0] === 'property' && a[1] === 'name') add(document.getElementById(st.element), a[3], st.title);
  }
  return out;
}`

type wptExpected struct {
	Want  string `json:"want"`
	What  string `json:"what"`
	Line  int    `json:"line"`
	Found bool   `json:"found"`
	Cache string `json:"cache"` // the element cache's name of the element (captureElement)
	Got   string `json:"-"`     // the outline's name
	// Chrome's own role and name of the element (with E2E_WPT_CHROME set)
	ChromeRole, ChromeName string `json:"-"`
	Role                   string `json:"-"` // the outline's role
}

// collapseASCIISpace collapses runs of ASCII whitespace to one space and
// trims the ends (U+00A0 stays), the suite's equality.
func collapseASCIISpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
	}), " ")
}

// wptGroup is a file's group in the report: the manual tests by what they
// name, the name tests by file.
func wptGroup(rel string) string {
	dir, file := path.Split(rel)
	file = strings.TrimSuffix(file, ".html")
	if !strings.HasSuffix(dir, "manual/") {
		return strings.TrimPrefix(rel, "accname/")
	}
	file = strings.TrimSuffix(file, "-manual")
	switch {
	case strings.HasPrefix(file, "name_test_case_"):
		return "manual/name_test_case_*"
	case strings.HasPrefix(file, "description_"):
		return "manual/description_*"
	case strings.Contains(file, "-label-embedded-"):
		return "manual/*-label-embedded-*"
	case strings.HasSuffix(file, "-title"):
		return "manual/*-title"
	}
	return "manual/name_* (other)"
}

// TestAccnameWPT computes the accessible name of every element the W3C
// accname suite states a name for, as the outline gives it (the element's
// own line in a snapshot of the page; no line, no name), and fails when
// fewer than wptAccnameGoal match. It prints the passes per file group and
// every miss. The element cache's name of the same element (captureElement,
// computed apart from the snapshot walk) must agree with the outline's.
func TestAccnameWPT(t *testing.T) {
	if _, err := os.Stat(wptAccnameDir); err != nil {
		t.Skipf("the W3C accname suite is not at %s (it comes with ../shared/realworld beside the clone): %v", wptAccnameDir, err)
	}
	var files []string
	root := filepath.Join(wptAccnameDir, "accname")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		// a page that states no name (a description test) is not loaded
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("data-expectedlabel")) || bytes.Contains(b, []byte(`"name"`)) {
			rel, _ := filepath.Rel(wptAccnameDir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	files2 := http.FileServer(http.Dir(wptAccnameDir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=600")
		if js, ok := wptStandIns[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprint(w, js)
			return
		}
		files2.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	// The pages are static: each is read once its DOM is loaded, a few
	// pages at a time, each worker in a page of its own in the one browser.
	type result struct {
		exp []wptExpected
		err error
	}
	results := make([]result, len(files))
	next := make(chan int)
	done := make(chan struct{})
	const workers = 2
	for w := 0; w < workers; w++ {
		p := newPage(t)
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range next {
				results[i].exp, results[i].err = wptNames(t, p, srv.URL+"/"+files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	for w := 0; w < workers; w++ {
		<-done
	}

	type tally struct{ pass, total, chrome int }
	groups := map[string]*tally{}
	var order []string
	pass, total, chromePass := 0, 0, 0
	var misses, splits []string
	for i, rel := range files {
		exp, err := results[i].exp, results[i].err
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if len(exp) == 0 {
			continue
		}
		g := wptGroup(rel)
		if groups[g] == nil {
			groups[g] = &tally{}
			order = append(order, g)
		}
		for _, e := range exp {
			if !e.Found {
				t.Errorf("%s: %q: no element for the expected name %q", rel, e.What, e.Want)
			}
			if e.Line >= 0 && e.Cache != e.Got {
				splits = append(splits, fmt.Sprintf("%s: %s: outline %q, element cache %q", rel, e.What, e.Got, e.Cache))
			}
			chrome := ""
			if os.Getenv("E2E_WPT_CHROME") != "" {
				if collapseASCIISpace(e.ChromeName) == collapseASCIISpace(e.Want) {
					groups[g].chrome++
					chromePass++
				}
				chrome = fmt.Sprintf(" (Chrome: %s %q)", e.ChromeRole, e.ChromeName)
			}
			total++
			groups[g].total++
			if collapseASCIISpace(e.Got) == collapseASCIISpace(e.Want) {
				pass++
				groups[g].pass++
			} else {
				role := e.Role
				if e.Line < 0 {
					role = "(no line)"
				}
				misses = append(misses, fmt.Sprintf("%s: %s: want %q, outline %s %q%s", rel, e.What, e.Want, role, e.Got, chrome))
			}
		}
	}
	var b strings.Builder
	for _, g := range order {
		fmt.Fprintf(&b, "  %-45s %3d / %3d", g, groups[g].pass, groups[g].total)
		if os.Getenv("E2E_WPT_CHROME") != "" {
			fmt.Fprintf(&b, "   Chrome %3d", groups[g].chrome)
		}
		b.WriteString("\n")
	}
	if os.Getenv("E2E_WPT_CHROME") != "" {
		fmt.Fprintf(&b, "  Chrome's own tree: %d\n", chromePass)
	}
	t.Logf("WPT accname: %d of %d expected names (goal %d; Chromium's own tree 513, Playwright 509)\n%s", pass, total, wptAccnameGoal, b.String())
	if len(misses) > 0 {
		t.Logf("misses:\n%s", strings.Join(misses, "\n"))
	}
	if total != 523 {
		t.Errorf("the suite states %d expected names, want 523 (as ../shared/realworld/README.md counts them)", total)
	}
	if pass < wptAccnameGoal {
		t.Errorf("%d of %d names right, want at least %d", pass, total, wptAccnameGoal)
	}
	if len(splits) > 0 {
		t.Errorf("%d names differ between the outline and the element cache:\n%s", len(splits), strings.Join(splits, "\n"))
	}
}

// wptNames loads one page of the suite in p and returns its expected names
// with the outline's (and the element cache's) names of their elements.
func wptNames(t *testing.T, p *Page, url string) ([]wptExpected, error) {
	ctx := ctxT(t)
	if _, err := p.Navigate(ctx, url); err != nil {
		return nil, err
	}
	s, err := p.Snapshot(ctx, SnapshotOptions{MaxText: -1, MaxTotalText: -1})
	if err != nil {
		return nil, err
	}
	var lines []*ax.Node
	var refs []string
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role != "text" && n.Ref != "" {
			lines = append(lines, n)
			refs = append(refs, n.Ref)
		}
		return true
	})
	var exp []wptExpected
	if err := p.Eval(ctx, &exp, wptExpectedJS, refs); err != nil {
		return nil, err
	}
	for i := range exp {
		if l := exp[i].Line; l >= 0 {
			exp[i].Got, exp[i].Role = lines[l].Name, lines[l].Role
		}
	}
	if os.Getenv("E2E_WPT_CHROME") != "" {
		if err := wptChromeNames(t, p, exp); err != nil {
			return nil, err
		}
	}
	return exp, nil
}

// wptChromeNames reads Chrome's own role and name of each expected element
// from its accessibility tree, for the comparison in BENCHMARKS.md
// (E2E_WPT_CHROME=1).
func wptChromeNames(t *testing.T, p *Page, exp []wptExpected) error {
	tree := chromeTree(t, p)
	rp := p.rod.Context(ctxT(t))
	for i := range exp {
		obj, err := rp.Evaluate(&rod.EvalOptions{JS: `(i) => window.__wptElements[i]`, JSArgs: []any{i}})
		if err != nil {
			return err
		}
		if obj.ObjectID == "" {
			continue
		}
		d, err := proto.DOMDescribeNode{ObjectID: obj.ObjectID}.Call(rp)
		if err != nil {
			return err
		}
		c := tree[d.Node.BackendNodeID]
		exp[i].ChromeRole, exp[i].ChromeName = c.role, c.name
	}
	return nil
}
