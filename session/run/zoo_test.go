package run

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/locate"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// The zoo harness runs every examples/zoo/*.e2e.yaml on every style of its
// page with no model (the local locator only, no cache) and checks each
// element lookup against the page's ground truth: the data-zoo-key of the
// element the step acted on must be the one the step's `# zoo:` comment
// names. A step that looks up the wrong element is the worst outcome and
// fails TestZoo on every page and style; a step that fails otherwise fails
// it too unless the test file lists it as a known exception for that style
// (`# zoo-except: <style>: <why>`). A step no person could take (a
// click on a button they cannot see) carries `# zoo-fails: <words>`: it
// must fail on every style, its error holding one of the words (separated
// by |), and any element it found must be the ground truth's; such steps
// are counted apart from the located share.

var zooOnly = flag.String("zoo.only", "", "TestZoo, TestZooWarmReplay, TestZooCrossStyle and BenchmarkZoo run only the zoo test of this name (tasks for examples/zoo/tasks.e2e.yaml)")

// zooDir is where the zoo tests live, relative to this package.
const zooDir = "../../examples/zoo"

// zooKeyAttr is the zoo's ground truth attribute. Only tests read it.
const zooKeyAttr = "data-zoo-key"

// zooFile is one zoo test with its ground truth.
type zooFile struct {
	Path  string // absolute
	Name  string // the file name without .e2e.yaml: tasks, settings, …
	Test  *testfile.Test
	Steps []zooAnno // one per test step
}

// zooAnno is what the comments say about one step.
type zooAnno struct {
	Line   int
	Keys   []string          // the elements the step looks up, in order
	Except map[string]string // style (or "all") → why the style gives no clue
	Fails  string            // the step must fail, its error holding one of these words (| between them)
}

// except returns the reason the step may fail on style, "" when it may not.
func (a zooAnno) except(style string) string {
	if why := a.Except[style]; why != "" {
		return why
	}
	return a.Except["all"]
}

var zooComment = regexp.MustCompile(`#\s*(zoo-fails|zoo-except|zoo):\s*`)

// parseZooComments reads the `# zoo:` and `# zoo-except:` comments of the
// file. On a step's lines they belong to that step; a comment line holding
// only a zoo-except belongs to the next step.
func parseZooComments(src []byte) (byLine map[int]zooAnno, pendingOf map[int]map[string]string, err error) {
	byLine = map[int]zooAnno{}
	pendingOf = map[int]map[string]string{} // line of the next non-comment line → excepts above it
	var pending map[string]string
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trim := strings.TrimSpace(line)
		locs := zooComment.FindAllStringSubmatchIndex(line, -1)
		if trim == "" {
			continue
		}
		pureComment := strings.HasPrefix(trim, "#")
		if pureComment && !zooComment.MatchString(trim[:min(len(trim), len("#  zoo-except: "))]) {
			continue // prose: only a comment line that starts with a zoo comment counts
		}
		if !pureComment && pending != nil {
			pendingOf[n] = pending
			pending = nil
		}
		a := zooAnno{Line: n, Except: map[string]string{}}
		for i, loc := range locs {
			kind := line[loc[2]:loc[3]]
			end := len(line)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			body := strings.TrimSpace(line[loc[1]:end])
			switch kind {
			case "zoo":
				if pureComment {
					return nil, nil, fmt.Errorf("line %d: a `# zoo:` comment goes after its step, on the step's line", n)
				}
				for k := range strings.SplitSeq(body, ",") {
					if k = strings.TrimSpace(k); k != "" {
						a.Keys = append(a.Keys, k)
					}
				}
				if len(a.Keys) == 0 {
					return nil, nil, fmt.Errorf("line %d: `# zoo:` names no data-zoo-key", n)
				}
			case "zoo-fails":
				if pureComment || body == "" {
					return nil, nil, fmt.Errorf("line %d: want `# zoo-fails: <words of the error>` on the step's line", n)
				}
				a.Fails = body
			case "zoo-except":
				styles, why, ok := strings.Cut(body, ": ")
				if !ok || strings.TrimSpace(why) == "" {
					return nil, nil, fmt.Errorf("line %d: want `# zoo-except: <style>[, <style>]: <why>`, got %q", n, body)
				}
				for s := range strings.SplitSeq(styles, ",") {
					s = strings.TrimSpace(s)
					if s != "all" && !slices.Contains(fixture.ZooStyles, s) {
						return nil, nil, fmt.Errorf("line %d: zoo-except names style %q: want all or one of %v", n, s, fixture.ZooStyles)
					}
					if pureComment {
						if pending == nil {
							pending = map[string]string{}
						}
						pending[s] = strings.TrimSpace(why)
					} else {
						a.Except[s] = strings.TrimSpace(why)
					}
				}
			}
		}
		if !pureComment && (len(a.Keys) > 0 || len(a.Except) > 0 || a.Fails != "") {
			byLine[n] = a
		}
	}
	return byLine, pendingOf, sc.Err()
}

// loadZoo reads every zoo test (discovered by glob, so new pages join by
// adding a file) and ties each comment to its step.
func loadZoo(t testing.TB) []zooFile {
	t.Helper()
	dir, err := filepath.Abs(zooDir)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.e2e.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 2 && *zooOnly == "" {
		t.Fatalf("%d zoo tests in %s, want at least tasks and settings", len(paths), dir)
	}
	var out []zooFile
	for _, p := range paths {
		if *zooOnly != "" && filepath.Base(p) != *zooOnly+".e2e.yaml" {
			continue
		}
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
		t.Fatalf("no zoo test named %q in %s", *zooOnly, dir)
	}
	return out
}

// parseZoo parses one zoo test file and its comments.
func parseZoo(path string, src []byte) (zooFile, error) {
	tt, err := testfile.Parse(path, src)
	if err != nil {
		return zooFile{}, err
	}
	byLine, above, err := parseZooComments(src)
	if err != nil {
		return zooFile{}, fmt.Errorf("%s: %w", path, err)
	}
	zf := zooFile{Path: path, Name: strings.TrimSuffix(filepath.Base(path), ".e2e.yaml"), Test: tt}
	starts := make([]int, len(tt.Steps))
	for i, st := range tt.Steps {
		starts[i] = st.Pos.Line
	}
	used := map[int]bool{}
	for i, st := range tt.Steps {
		a := zooAnno{Line: st.Pos.Line, Except: map[string]string{}}
		end := 1 << 30
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		for l, la := range byLine {
			if l >= st.Pos.Line && l < end {
				a.Keys = append(a.Keys, la.Keys...)
				if la.Fails != "" {
					a.Fails = la.Fails
				}
				for k, v := range la.Except {
					a.Except[k] = v
				}
				used[l] = true
			}
		}
		for k, v := range above[st.Pos.Line] {
			a.Except[k] = v
		}
		if len(a.Keys) == 0 && zooTargets(st.Step) > 0 {
			return zooFile{}, fmt.Errorf("%s:%d: step %q looks up an element but has no `# zoo: <data-zoo-key>` comment", path, st.Pos.Line, st.Step.String())
		}
		if n := zooTargets(st.Step); len(a.Keys) != n {
			return zooFile{}, fmt.Errorf("%s:%d: step %q looks up %d element(s), its `# zoo:` comment names %d", path, st.Pos.Line, st.Step.String(), n, len(a.Keys))
		}
		zf.Steps = append(zf.Steps, a)
	}
	for l := range byLine {
		if !used[l] {
			return zooFile{}, fmt.Errorf("%s:%d: a zoo comment outside the test's steps", path, l)
		}
	}
	return zf, nil
}

// zooTargets is how many elements a step looks up before acting (the
// runner's target calls): a drag two, a scroll in a box two, expect hidden none (it passes when
// nothing matches), a step with no description none.
func zooTargets(st step.Step) int {
	switch st.Type {
	case step.Navigate, step.Assert, step.Act:
		return 0
	case step.Drag:
		return 2
	case step.Scroll:
		if st.Value != "" {
			return 2 // the element, then the box that holds it
		}
	case step.Press, step.Wait:
		if st.Description == "" {
			return 0
		}
	case step.Expect:
		if st.Expect != step.ExpectVisible && st.Expect != step.ExpectText && st.Expect != step.ExpectValue {
			return 0
		}
	}
	if st.Description == "" {
		return 0
	}
	return 1
}

// zooLook is one element lookup as the harness saw it.
type zooLook struct {
	Ref    string
	Key    string // the data-zoo-key of the element behind Ref ("" if none)
	HasKey bool
	Via    string // cache, locate, model
	Reason string // no-match, ambiguous, error (when Ref is "")
	Line   string // the snapshot line of what the locator chose
	Why    []string
	Look   time.Duration
	// Vote is what the step's cache entry's selectors alone chose (the
	// data-zoo-key of the vote's winner, or "(reason)" when none won),
	// when the harness probes it (zooHarness.onLook); "" otherwise.
	Vote string
}

// Outcomes of one element-targeting step, worst first.
const (
	zooWrong     = "wrong"
	zooAmbiguous = "ambiguous"
	zooNotFound  = "not found"
	zooLocated   = "located"
)

// zooStep is one step of one run.
type zooStep struct {
	Index   int
	Line    int
	Command string
	Keys    []string
	Except  string // why this style may fail this step, "" when it may not
	Fails   string // the step must fail with one of these words (see zooAnno)
	Looks   []zooLook
	Status  session.StepStatus
	Error   string
	Note    string
	// Cache and MissReason are the step's cache outcome (session.StepResult).
	Cache      string
	MissReason string
	Duration   time.Duration
	// Reidentified is how sure re-identification was (a re-identified step).
	Reidentified *session.Reidentification
}

// Element says whether the step looks up elements.
func (s zooStep) Element() bool { return len(s.Keys) > 0 }

// FailedAsMeant says a step meant to fail did, with one of its words.
func (s zooStep) FailedAsMeant() bool {
	if s.Fails == "" || s.Status != session.StatusFailed {
		return false
	}
	for w := range strings.SplitSeq(s.Fails, "|") {
		if w = strings.TrimSpace(w); w != "" && strings.Contains(s.Error, w) {
			return true
		}
	}
	return false
}

// want is the key lookup i must resolve to: the i-th key, or for a step
// that looks again (after a hover, say) the last one.
func (s zooStep) want(i int) string {
	if len(s.Keys) == 0 {
		return ""
	}
	return s.Keys[min(i, len(s.Keys)-1)]
}

// Outcome classifies an element step: wrong when any lookup resolved to an
// element other than the ground truth, else ambiguous or not found when a
// lookup failed (or never happened), else located.
func (s zooStep) Outcome() string {
	out := zooLocated
	for i, l := range s.Looks {
		switch {
		case l.Ref != "" && (len(s.Keys) == 0 || !l.HasKey || l.Key != s.want(i)):
			return zooWrong
		case l.Reason == locate.ReasonAmbiguous:
			out = zooAmbiguous
		case l.Ref == "" && out != zooAmbiguous:
			out = zooNotFound
		}
	}
	if len(s.Looks) < len(s.Keys) && out == zooLocated {
		out = zooNotFound
	}
	return out
}

// zooRun is one zoo test on one style.
type zooRun struct {
	Page, Style string
	File        string
	Steps       []zooStep
	Passed      bool
	Err         string // the test's own error (the first failing step)
}

// zooCounts sums runs.
type zooCounts struct {
	Steps, Located, Ambiguous, NotFound, Wrong int
	// Failed counts element steps located correctly whose action or check
	// still failed, and other (non-element) steps that failed.
	Failed int
	// Meant counts the steps meant to fail (`# zoo-fails`), AsMeant those
	// that failed as meant; they are not in Steps.
	Meant, AsMeant int
	Looks          []time.Duration
}

func (c *zooCounts) add(r zooRun) {
	for _, s := range r.Steps {
		if s.Fails != "" {
			c.Meant++
			if s.FailedAsMeant() {
				c.AsMeant++
			}
			if s.Element() && s.Outcome() == zooWrong {
				c.Wrong++
			}
			continue
		}
		if !s.Element() {
			if s.Status == session.StatusFailed {
				c.Failed++
			}
			continue
		}
		c.Steps++
		switch s.Outcome() {
		case zooWrong:
			c.Wrong++
		case zooAmbiguous:
			c.Ambiguous++
		case zooNotFound:
			c.NotFound++
		default:
			c.Located++
			if s.Status == session.StatusFailed {
				c.Failed++
			}
		}
		for _, l := range s.Looks {
			if l.Ref != "" && l.Via != "cache" {
				c.Looks = append(c.Looks, l.Look)
			}
		}
	}
}

func (c zooCounts) medianMS() float64 {
	if len(c.Looks) == 0 {
		return 0
	}
	d := slices.Clone(c.Looks)
	slices.Sort(d)
	m := d[len(d)/2]
	if len(d)%2 == 0 {
		m = (d[len(d)/2-1] + d[len(d)/2]) / 2
	}
	return float64(m.Microseconds()) / 1000
}

// medianText is medianMS for the table, "—" when nothing was located.
func (c zooCounts) medianText() string {
	if len(c.Looks) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f", c.medianMS())
}

// zooHarness runs zoo tests against one fixture server and database.
type zooHarness struct {
	cfg *testfile.Config
	db  *store.DB
	// cache is the runner's cache policy; "" is CacheOff (the locator only).
	cache string
	// store, when set, is the runner's store instead of db (db wrapped).
	store session.Store
	// onLook, when set, sees every lookup before the step acts, and may
	// fill in what the harness records of it.
	onLook func(ctx context.Context, e TargetEvent, l *zooLook)
	// keyOf, when set, reads the ground truth of the element behind ref
	// instead of its data-zoo-key (pages nobody here wrote have none).
	keyOf func(ctx context.Context, p *browser.Page, ref string) (string, bool, error)
	// url, when set, is the start URL of a test on a style instead of the
	// test's URL with ?style= added.
	url func(testURL, style string) string
}

// zooExceptTimeout is the time a step listed as a known exception for a
// style may take.
const zooExceptTimeout = 2 * time.Second

// zooFailsTimeout is the time a step meant to fail (`# zoo-fails`) is
// given: what it asks for is never there, and the reason it fails with is
// read while it lasts (a little longer than a known exception's, so that a
// loaded machine still reads the page before it ends).
const zooFailsTimeout = 4 * time.Second

func newZooHarness(t testing.TB) *zooHarness {
	t.Helper()
	browserTest(t)
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	cfg := testfile.DefaultConfig(dir)
	cfg.BaseURL = srv.URL
	cfg.Timeouts.Step = zooStepTimeout
	return &zooHarness{cfg: cfg, db: openZooStore(t, filepath.Join(dir, "e2e.db"))}
}

// openZooStore opens (creating it if need be) the store at path, closed
// when the test ends.
func openZooStore(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// zooParallel runs the jobs, n side by side, and returns when all have
// ended. Each zoo run is one test in its own browser context; most of a
// run's time is spent waiting (out the step timeout of a step that finds
// nothing, for the page to settle), so a few run side by side.
func zooParallel(n int, jobs []func()) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, n)
	for _, job := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			job()
		}()
	}
	wg.Wait()
}

// run runs zf on style with the local locator only (or the harness's cache
// policy) and records every lookup.
func (h *zooHarness) run(t testing.TB, zf zooFile, style string) zooRun {
	t.Helper()
	test := *zf.Test
	if h.url != nil {
		test.URL = h.url(test.URL, style)
	} else {
		sep := "?"
		if strings.Contains(test.URL, "?") {
			sep = "&"
		}
		test.URL += sep + "style=" + style
	}
	// The zoo pages render in-process and never load anything late: a
	// known exception that finds nothing in zooExceptTimeout finds nothing
	// at all, and waiting a minute for it would only make the zoo slow.
	test.Steps = slices.Clone(test.Steps)
	for i := range test.Steps {
		if i < len(zf.Steps) && zf.Steps[i].except(style) != "" && test.Steps[i].Timeout == 0 {
			test.Steps[i].Timeout = zooExceptTimeout
		}
		if i < len(zf.Steps) && zf.Steps[i].Fails != "" && test.Steps[i].Timeout == 0 {
			test.Steps[i].Timeout = zooFailsTimeout
		}
	}
	var mu sync.Mutex
	looks := map[int][]zooLook{}
	onTarget := func(ctx context.Context, e TargetEvent) {
		l := zooLook{Ref: e.Ref, Via: e.Via, Reason: e.Reason, Why: e.Why, Look: e.Look}
		if e.Node != nil {
			l.Line = e.Node.Line()
		}
		if e.Ref != "" {
			keyOf := h.keyOf
			if keyOf == nil {
				keyOf = func(ctx context.Context, p *browser.Page, ref string) (string, bool, error) {
					return p.Attribute(ctx, ref, zooKeyAttr)
				}
			}
			k, ok, err := keyOf(ctx, e.Page, e.Ref)
			if err != nil {
				k = "(unreadable: " + err.Error() + ")"
			}
			l.Key, l.HasKey = k, ok
		}
		if h.onLook != nil {
			h.onLook(ctx, e, &l)
		}
		mu.Lock()
		defer mu.Unlock()
		looks[e.Step] = append(looks[e.Step], l)
	}
	cache := h.cache
	if cache == "" {
		cache = CacheOff
	}
	var st session.Store = h.db
	if h.store != nil {
		st = h.store
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r, err := New(Options{Config: h.cfg, Project: "zoo", Store: st, Browser: shared, Cache: cache,
		KeepGoing: true, OnTarget: onTarget, Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Errorf("%s on %s: %v", zf.Name, style, err) // not Fatal: runs may be on other goroutines
		return zooRun{Page: zf.Name, Style: style, File: filepath.Base(zf.Path), Err: err.Error()}
	}
	rep, err := r.Run(ctx, []*testfile.Test{&test})
	if err != nil {
		t.Errorf("%s on %s: %v", zf.Name, style, err)
		return zooRun{Page: zf.Name, Style: style, File: filepath.Base(zf.Path), Err: err.Error()}
	}
	res := rep.Tests[0]
	zr := zooRun{Page: zf.Name, Style: style, File: filepath.Base(zf.Path), Passed: res.Status == "passed", Err: res.Error}
	for i, sr := range res.Steps {
		a := zf.Steps[i]
		zr.Steps = append(zr.Steps, zooStep{Index: i, Line: a.Line, Command: sr.Command, Keys: a.Keys, Except: a.except(style), Fails: a.Fails,
			Looks: looks[i], Status: sr.Status, Error: sr.Error, Note: sr.Note, Cache: sr.Cache, MissReason: sr.MissReason,
			Duration: time.Duration(sr.DurationMS) * time.Millisecond, Reidentified: sr.Reidentified})
	}
	return zr
}

// zooReport is the table page × style, then every step that did not pass.
func zooReport(runs []zooRun) string {
	var b strings.Builder
	b.WriteString("| page | style | steps | located correctly | ambiguous | not found | wrong | failed after locating | median ms per locate |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	var all zooCounts
	for _, r := range runs {
		var c zooCounts
		c.add(r)
		all.add(r)
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %d | %s |\n", r.Page, r.Style, c.Steps, c.Located, c.Ambiguous, c.NotFound, c.Wrong, c.Failed, c.medianText())
	}
	fmt.Fprintf(&b, "| **all** | | %d | %d (%.0f%%) | %d | %d | %d | %d | %s |\n", all.Steps, all.Located, pct(all.Located, all.Steps),
		all.Ambiguous, all.NotFound, all.Wrong, all.Failed, all.medianText())
	if all.Meant > 0 {
		fmt.Fprintf(&b, "\nSteps no person could take (`# zoo-fails`, not in the table's steps): %d, failed as meant %d.\n", all.Meant, all.AsMeant)
	}
	b.WriteString("\nHow each element step was located (the lookup's path and the locator's reasons):\n")
	for _, r := range runs {
		for _, s := range r.Steps {
			if !s.Element() || s.Outcome() != zooLocated {
				continue
			}
			var how []string
			for _, l := range s.Looks {
				how = append(how, fmt.Sprintf("%s → %s %v", l.Via, l.Line, l.Why))
			}
			fmt.Fprintf(&b, "- %s:%d %s: %s\n", r.File, s.Line, r.Style, strings.Join(how, "; "))
		}
	}
	b.WriteString("\nSteps that did not pass:\n")
	for _, r := range runs {
		for _, s := range r.Steps {
			if s.Status != session.StatusFailed && (!s.Element() || s.Outcome() == zooLocated) && s.Fails == "" {
				continue
			}
			if s.FailedAsMeant() && s.Outcome() != zooWrong {
				continue
			}
			what := "failed"
			if s.Element() {
				what = s.Outcome()
				if what == zooLocated {
					what = "located, then failed"
				}
			}
			exc := ""
			if s.Except != "" {
				exc = " [known exception: " + s.Except + "]"
			}
			fmt.Fprintf(&b, "- %s:%d %s %s: %s%s\n    %s\n", r.File, s.Line, r.Style, what, s.Command, exc, s.detail())
		}
	}
	return b.String()
}

// detail says what each lookup of the step found.
func (s zooStep) detail() string {
	var parts []string
	for i, l := range s.Looks {
		want := s.want(i)
		switch {
		case l.Ref != "" && l.HasKey:
			parts = append(parts, fmt.Sprintf("%s: %s (%s) is %q, want %q; why %v", l.Via, l.Ref, l.Line, l.Key, want, l.Why))
		case l.Ref != "":
			parts = append(parts, fmt.Sprintf("%s: %s (%s) has no %s, want %q; why %v", l.Via, l.Ref, l.Line, zooKeyAttr, want, l.Why))
		default:
			parts = append(parts, fmt.Sprintf("%s for %q", l.Reason, want))
		}
	}
	if len(s.Looks) < len(s.Keys) {
		parts = append(parts, fmt.Sprintf("%d of %d lookups never happened", len(s.Keys)-len(s.Looks), len(s.Keys)))
	}
	if s.Error != "" {
		parts = append(parts, "error: "+s.Error)
	}
	if s.Note != "" {
		parts = append(parts, "note: "+s.Note)
	}
	return strings.Join(parts, "; ")
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// runZoo is every zoo test on every style, run cold (coldZoo), in a stable
// order.
func runZoo(t *testing.T) []zooRun {
	t.Helper()
	var runs []zooRun
	for _, c := range coldZoo(t) {
		runs = append(runs, c.run)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].Page < runs[j].Page })
	return runs
}

// zooFloor is the share of element steps (percent) the local locator must
// locate correctly across the zoo: issue 13's target.
const zooFloor = 95.0

// TestZoo: on every zoo page and style, no step acts on the wrong element;
// every step passes unless its test file lists it as a known exception for
// the style; at least zooFloor percent of element steps are located
// correctly overall.
func TestZoo(t *testing.T) {
	runs := runZoo(t)
	t.Logf("zoo (no model, local locator only):\n%s", zooReport(runs))
	var all zooCounts
	for _, r := range runs {
		all.add(r)
	}
	t.Run("no wrong element", func(t *testing.T) {
		for _, r := range runs {
			for _, s := range r.Steps {
				if s.Element() && s.Outcome() == zooWrong {
					t.Errorf("%s:%d %s: %s acted on the wrong element: %s", r.File, s.Line, r.Style, s.Command, s.detail())
				}
			}
		}
	})
	t.Run("steps pass but known exceptions", func(t *testing.T) {
		for _, r := range runs {
			for _, s := range r.Steps {
				switch {
				case s.Fails != "":
					if !s.FailedAsMeant() {
						t.Errorf("%s:%d %s: %s: want it to fail with %q: %s %s", r.File, s.Line, r.Style, s.Command, s.Fails, s.Status, s.detail())
					}
				case s.Status == session.StatusFailed && s.Except == "":
					t.Errorf("%s:%d %s: %s failed: %s", r.File, s.Line, r.Style, s.Command, s.detail())
				case s.Status != session.StatusFailed && s.Except != "":
					t.Errorf("%s:%d %s: %s passes: drop its zoo-except (%s)", r.File, s.Line, r.Style, s.Command, s.Except)
				}
			}
		}
	})
	t.Run("located correctly overall", func(t *testing.T) {
		// Issue 13 asks for ≥ 95% (BENCHMARKS.md, "The markup zoo", has
		// what the locator reaches).
		if p := pct(all.Located, all.Steps); p < zooFloor {
			t.Errorf("%d of %d element steps located correctly (%.1f%%), want ≥ %.0f%%", all.Located, all.Steps, p, zooFloor)
		}
	})
}

// TestZooAnnotations: the harness reads the comments as the files mean
// them, and refuses ones it cannot read.
func TestZooAnnotations(t *testing.T) {
	src := `name: t
url: /zoo/tasks
steps:
  - click: the Save button # zoo: settings:save
  # zoo-except: divsoup, library: no clue at all
  - drag: { from: the bread item, to: the eggs item } # zoo: tasks:item:bread, tasks:item:eggs
  - expect: { hidden: the eggs item }
  - click: the X button # zoo: tasks:x # zoo-except: webcomponents: none
  - click: the Archive button # zoo: hiding:archive # zoo-fails: no element|hidden
`
	zf, err := parseZoo("t.e2e.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(zf.Steps) != 5 {
		t.Fatalf("%d steps", len(zf.Steps))
	}
	if got := zf.Steps[0].Keys; !slices.Equal(got, []string{"settings:save"}) || len(zf.Steps[0].Except) != 0 {
		t.Errorf("step 1: %v %v", got, zf.Steps[0].Except)
	}
	if got := zf.Steps[1].Keys; !slices.Equal(got, []string{"tasks:item:bread", "tasks:item:eggs"}) {
		t.Errorf("step 2 keys: %v", got)
	}
	if zf.Steps[1].except("divsoup") == "" || zf.Steps[1].except("library") == "" || zf.Steps[1].except("semantic") != "" {
		t.Errorf("step 2 excepts: %v", zf.Steps[1].Except)
	}
	if len(zf.Steps[2].Keys) != 0 {
		t.Errorf("step 3: %v", zf.Steps[2].Keys)
	}
	if got := zf.Steps[3]; !slices.Equal(got.Keys, []string{"tasks:x"}) || got.except("webcomponents") != "none" {
		t.Errorf("step 4: %v %v", got.Keys, got.Except)
	}
	if got := zf.Steps[4]; !slices.Equal(got.Keys, []string{"hiding:archive"}) || got.Fails != "no element|hidden" || zf.Steps[3].Fails != "" {
		t.Errorf("step 5: %v %q", got.Keys, got.Fails)
	}
	for _, c := range []struct {
		s    zooStep
		want bool
	}{
		{zooStep{Fails: "no element|hidden", Status: session.StatusFailed, Error: "click e3: hidden: opacity 0"}, true},
		{zooStep{Fails: "no element|hidden", Status: session.StatusFailed, Error: "covered by div"}, false},
		{zooStep{Fails: "hidden", Status: session.StatusPassed}, false},
		{zooStep{Status: session.StatusFailed, Error: "hidden"}, false},
	} {
		if got := c.s.FailedAsMeant(); got != c.want {
			t.Errorf("%+v: failed as meant %v, want %v", c.s, got, c.want)
		}
	}
	for name, bad := range map[string]string{
		"fails above":  "name: t\nurl: /\nsteps:\n  # zoo-fails: hidden\n  - click: a # zoo: x:a\n",
		"no comment":   "name: t\nurl: /\nsteps:\n  - click: the Save button\n",
		"one for two":  "name: t\nurl: /\nsteps:\n  - drag: { from: a, to: b } # zoo: x:a\n",
		"bad style":    "name: t\nurl: /\nsteps:\n  - click: a # zoo: x:a # zoo-except: fancy: why\n",
		"no reason":    "name: t\nurl: /\nsteps:\n  - click: a # zoo: x:a # zoo-except: divsoup\n",
		"above a step": "name: t\nurl: /\nsteps:\n  # zoo: x:a\n  - click: a\n",
		"hidden keyed": "name: t\nurl: /\nsteps:\n  - expect: { hidden: a } # zoo: x:a\n",
	} {
		if _, err := parseZoo("t.e2e.yaml", []byte(bad)); err == nil {
			t.Errorf("%s: parsed, want an error", name)
		}
	}
	// Outcomes: a lookup that resolved to another key, or to an element
	// with none, is wrong whatever else happened.
	for _, c := range []struct {
		s    zooStep
		want string
	}{
		{zooStep{Keys: []string{"a"}, Looks: []zooLook{{Ref: "e1", Key: "a", HasKey: true}}}, zooLocated},
		{zooStep{Keys: []string{"a"}, Looks: []zooLook{{Ref: "e1", Key: "b", HasKey: true}}}, zooWrong},
		{zooStep{Keys: []string{"a"}, Looks: []zooLook{{Ref: "e1"}}}, zooWrong},
		{zooStep{Keys: []string{"a"}, Looks: []zooLook{{Reason: locate.ReasonAmbiguous}}}, zooAmbiguous},
		{zooStep{Keys: []string{"a"}, Looks: []zooLook{{Reason: locate.ReasonNoMatch}}}, zooNotFound},
		{zooStep{Keys: []string{"a"}}, zooNotFound},
		{zooStep{Keys: []string{"a", "b"}, Looks: []zooLook{{Ref: "e1", Key: "a", HasKey: true}}}, zooNotFound},
		{zooStep{Keys: []string{"a", "b"}, Looks: []zooLook{{Ref: "e1", Key: "a", HasKey: true}, {Ref: "e2", Key: "a", HasKey: true}}}, zooWrong},
		// a step that looks again checks the later looks against its last key
		{zooStep{Keys: []string{"a"}, Looks: []zooLook{{Ref: "e1", Key: "a", HasKey: true}, {Ref: "e2", Key: "a", HasKey: true}}}, zooLocated},
		{zooStep{Keys: []string{"a"}, Looks: []zooLook{{Ref: "e1", Key: "a", HasKey: true}, {Ref: "e2", Key: "b", HasKey: true}}}, zooWrong},
	} {
		if got := c.s.Outcome(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.s, got, c.want)
		}
	}
}
