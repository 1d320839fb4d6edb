package run

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/examples"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/testfile"
)

// Suite12 is a suite of twelve tests against the fixture app: the bundled
// examples and more of the same kinds. Most of them wait on the app
// (search results after ~600 ms, airports after ~150 ms, a button enabled
// after 700 ms), as real suites do.
var suite12 = []string{
	`name: carol menu
url: /users
steps:
  - click: the Menu button in the Carol row
  - expect: { visible: the Archive menu item }
`,
	`name: dave menu
url: /users
steps:
  - click: the Menu button in the Dave row
  - expect: { visible: the Edit menu item }
`,
	`name: third product twice
url: /product?id=3
steps:
  - click: the Add to cart button
  - click: the Add to cart button
  - expect: { text: { in: the cart status, is: "Cart: 2 items" } }
`,
	`name: late action
url: /actions
steps:
  - click: the Late action button
  - expect: { text: { in: the Action log, contains: "Clicked: Late action" } }
`,
	`name: search runner
url: /search
steps:
  - type: { into: the Search products box, text: trail }
  - press: { key: Enter, in: the Search products box }
  - expect: { visible: the Trail Runner 2 link }
`,
	`name: second product
url: /product?id=2
steps:
  - click: the Add to cart button
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
`,
	`name: search then open
url: /search
steps:
  - type: { into: the Search products box, text: trail }
  - click: the Search button
  - expect: { visible: the Trail Runner 2 link }
  - click: the Trail Runner 2 link
  - expect: { title: { contains: Trail Runner 2 } }
`,
}

// suite returns the twelve tests, parsed.
func suite(t testing.TB) []*testfile.Test {
	t.Helper()
	var tests []*testfile.Test
	for _, name := range []string{"booking.e2e.yaml", "login.e2e.yaml", "product.e2e.yaml", "search.e2e.yaml", "users.e2e.yaml"} {
		b, err := examples.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		tt, err := testfile.Parse(name, b)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, tt)
	}
	for i, src := range suite12 {
		tt, err := testfile.Parse(fmt.Sprintf("suite%02d.e2e.yaml", i+1), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, tt)
	}
	if len(tests) != 12 {
		t.Fatalf("%d tests, want 12", len(tests))
	}
	return tests
}

// runSuite runs tests with suite options o.
func (e *env) runSuite(tests []*testfile.Test, o SuiteOptions) *Report {
	e.t.Helper()
	e.out.Reset()
	r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Out: &e.out, Suite: o,
		Env: func(k string) (string, bool) { v, ok := e.vars[k]; return v, ok }})
	if err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep, err := r.Run(ctx, tests)
	if err != nil {
		e.t.Fatal(err)
	}
	return rep
}

func TestSuiteOnFourWorkers(t *testing.T) {
	e := newEnv(t)
	e.vars["E2E_USER"], e.vars["E2E_PASSWORD"] = "alice@example.com", "correct-horse"
	tests := suite(t)
	var done []int
	rep := e.runSuite(tests, SuiteOptions{Workers: 4, OnTestDone: func(p Progress) {
		done = append(done, p.Done)
		if p.Total != 12 || p.Test == nil || p.Detail == nil {
			t.Errorf("progress %+v", p)
		}
	}})
	if !rep.Passed() {
		t.Fatalf("suite failed:\n%s", e.out.String())
	}
	if len(rep.Tests) != 12 || len(rep.Details) != 12 {
		t.Fatalf("%d results, %d details", len(rep.Tests), len(rep.Details))
	}
	workers := map[int]bool{}
	for i, res := range rep.Tests {
		if res.Name != tests[i].Name {
			t.Errorf("result %d is %q, want %q (suite order)", i, res.Name, tests[i].Name)
		}
		workers[rep.Details[i].Worker] = true
		if rep.Details[i].Attempts != 1 || rep.Details[i].Flaky {
			t.Errorf("%s: %+v", res.Name, rep.Details[i])
		}
	}
	if len(workers) < 2 {
		t.Errorf("all tests ran on worker(s) %v", workers)
	}
	for i, n := range done {
		if n != i+1 {
			t.Errorf("progress counts %v", done)
			break
		}
	}
	saved, err := e.db.Tests(context.Background(), rep.Run.ID)
	if err != nil || len(saved) != 12 {
		t.Fatalf("stored %d tests, %v", len(saved), err)
	}
	// A test's lines stay together in the output even with four workers.
	out := e.out.String()
	for _, tt := range tests {
		head := tt.Name + " (" + tt.File + ")"
		i := strings.Index(out, head)
		if i < 0 {
			t.Fatalf("no output for %s", tt.Name)
		}
		block := out[i:]
		if j := strings.Index(block, "\n\n"); j >= 0 {
			block = block[:j]
		}
		if !strings.Contains(block, "✓ "+tt.Name+":") {
			t.Errorf("the lines of %s are not together:\n%s", tt.Name, block)
		}
		for _, other := range tests {
			if other != tt && strings.Contains(block, other.Name+" ("+other.File+")") {
				t.Errorf("the lines of %s and %s are interleaved:\n%s", tt.Name, other.Name, block)
			}
		}
	}
}

func TestRetriesMarkAFlakyTest(t *testing.T) {
	e := newEnv(t)
	// A failing attempt waits its step's time out; a passing one must fit
	// in it on a loaded machine too.
	e.cfg.Timeouts.Step = 10 * time.Second
	key := fmt.Sprint(time.Now().UnixNano())
	parse := func(name, url string) *testfile.Test {
		tt, err := testfile.Parse(name+".e2e.yaml", []byte("name: "+name+"\nurl: "+url+"\nsteps:\n  - expect: { text: { in: the status, contains: Ready on attempt } }\n"))
		if err != nil {
			t.Fatal(err)
		}
		return tt
	}
	flaky := parse("flaky", "/flaky?key=a"+key+"&fails=1")
	broken := parse("broken", "/flaky?key=b"+key+"&fails=99")
	rep := e.runSuite([]*testfile.Test{flaky, broken}, SuiteOptions{Workers: 2, Retries: 2})
	f, b := rep.Details[0], rep.Details[1]
	if rep.Tests[0].Status != "passed" || !f.Flaky || f.Attempts != 2 || len(f.AttemptErrors) != 1 || !strings.Contains(f.AttemptErrors[0], "Ready on attempt") {
		t.Errorf("flaky: %s %+v\n%s", rep.Tests[0].Status, f, e.out.String())
	}
	if rep.Tests[1].Status != "failed" || b.Flaky || b.Attempts != 3 || len(b.AttemptErrors) != 2 {
		t.Errorf("broken: %s %+v", rep.Tests[1].Status, b)
	}
	if b.Snapshot == "" || !strings.Contains(b.Snapshot, "Not ready yet") {
		t.Errorf("no snapshot of the failure: %q", b.Snapshot)
	}
	if !strings.Contains(e.out.String(), "↻ retrying flaky (attempt 2 of 3)") || !strings.Contains(e.out.String(), "flaky is flaky: it passed on attempt 2 of 3") {
		t.Errorf("output:\n%s", e.out.String())
	}
	// Without retries the flaky page fails the first time.
	rep = e.runSuite([]*testfile.Test{parse("flaky", "/flaky?key=c"+key+"&fails=1")}, SuiteOptions{})
	if rep.Passed() || rep.Details[0].Attempts != 1 {
		t.Errorf("no retries: %+v", rep.Details[0])
	}
}

func TestRendererCrashFailsOnlyItsTest(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 2 * time.Second
	tests := suite(t)[5:9]
	crash, err := testfile.Parse("crash.e2e.yaml", []byte(`name: crash
url: /product
steps:
  - navigate: chrome://crash
  - click: the Add to cart button
`))
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's /freeze hangs its renderer for good a moment after the
	// click: the click passes, and the expect finds a page that no longer
	// answers.
	freeze, err := testfile.Parse("freeze.e2e.yaml", []byte(`name: freeze
url: /freeze
steps:
  - click: the Freeze the page button
  - expect: { text: { in: the status, is: Freezing } }
  - click: the Freeze the page button
`))
	if err != nil {
		t.Fatal(err)
	}
	tests = append([]*testfile.Test{crash, freeze}, tests...)
	start := time.Now()
	rep := e.runSuite(tests, SuiteOptions{Workers: 2, Video: VideoFailures})
	t.Logf("suite of %d tests with a crash and a freeze: %s\n%s", len(tests), time.Since(start), e.out.String())
	for i, res := range rep.Tests {
		if i < 2 {
			if res.Status != "failed" || !rep.Details[i].Crashed || !strings.Contains(res.Error, "the browser renderer crashed or stopped answering") ||
				res.Steps[len(res.Steps)-1].Status != session.StatusSkipped {
				t.Errorf("%s test: %s %q %+v\n%s", res.Name, res.Status, res.Error, rep.Details[i], e.out.String())
			}
			continue
		}
		if res.Status != "passed" {
			t.Errorf("%s: %s %s\n%s", res.Name, res.Status, res.Error, e.out.String())
		}
	}
}

func TestScreenshotsAfterEveryStepAndVideoOfFailures(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 4 * time.Second
	pass, err := testfile.Parse("pass.e2e.yaml", []byte(productTest))
	if err != nil {
		t.Fatal(err)
	}
	fail, err := testfile.Parse("fail.e2e.yaml", []byte(`name: fail
url: /settle/never
steps:
  - click: the Ready button
  - expect: { visible: the Launch rocket button }
`))
	if err != nil {
		t.Fatal(err)
	}
	rep := e.runSuite([]*testfile.Test{pass, fail}, SuiteOptions{Workers: 2, Screenshots: ScreenshotsOn, Video: VideoFailures})
	if rep.Tests[0].Status != "passed" || rep.Tests[1].Status != "failed" {
		t.Fatalf("want the first test to pass and the second to fail:\n%s", e.out.String())
	}
	for _, res := range rep.Tests {
		for _, s := range res.Steps {
			if s.Status == session.StatusSkipped {
				continue
			}
			if s.Screenshot == "" {
				t.Errorf("%s step %d: no screenshot", res.Name, s.Index)
			} else if _, err := os.Stat(rep.Open(s.Screenshot)); err != nil {
				t.Error(err)
			}
		}
	}
	if len(rep.Details[0].Video) != 0 {
		t.Errorf("a passing test kept %d video frames", len(rep.Details[0].Video))
	}
	v := rep.Details[1].Video
	if len(v) < 2 || len(rep.Details[1].VideoMS) != len(v) {
		t.Fatalf("the failed test has %d video frames", len(v))
	}
	b, err := os.ReadFile(rep.Open(v[0]))
	if err != nil || len(b) < 4 || b[0] != 0xff || b[1] != 0xd8 {
		t.Errorf("frame 1 is not a JPEG: %v", err)
	}
	// With screenshots off, not even the failure gets one.
	rep = e.runSuite([]*testfile.Test{fail}, SuiteOptions{Screenshots: ScreenshotsOff})
	if s := rep.Tests[0].Steps[1]; s.Status != session.StatusFailed || s.Screenshot != "" {
		t.Errorf("screenshots off: %+v", s)
	}
}

func TestIsolateGivesEachWorkerItsOwnBrowser(t *testing.T) {
	e := newEnv(t)
	tests := suite(t)[5:8]
	var pids []int
	var mu sync.Mutex
	rep := e.runSuite(tests, SuiteOptions{Workers: 2, Isolate: true, Launch: func(ctx context.Context) (*browser.Browser, error) {
		b, err := browser.Launch(ctx, browser.Options{})
		if err == nil {
			mu.Lock()
			pids = append(pids, b.PID())
			mu.Unlock()
		}
		return b, err
	}})
	if !rep.Passed() {
		t.Fatalf("isolated suite failed:\n%s", e.out.String())
	}
	if len(pids) != 2 || pids[0] == pids[1] || pids[0] == shared.PID() {
		t.Errorf("browsers %v (shared %d)", pids, shared.PID())
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("the browser of a worker (pid %d) is still running", pid)
		}
	}
}
