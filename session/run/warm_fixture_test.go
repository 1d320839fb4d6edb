package run

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/scripted"
	"github.com/e2e-dev/e2e/examples"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/testfile"
)

// The warm fixture: every example test (examples/*.e2e.yaml and the act
// examples in examples/agent, whose model is the scripted one bundled with
// them) and the tests this package's own tests run on the fixture's pages
// run twice against one store, cold (the cache empty: every element is
// located and, the test passing, recorded) and warm (the strict cache
// policy, as `--cache strict`). On an unchanged page every element lookup
// that passed cold must replay from the cache warm, on the element it found
// cold, every act must replay its trajectory without the model, and every
// test that passed cold passes warm (issue 14).

// warmCase is one test of the warm fixture run.
type warmCase struct {
	From string // where the test comes from: a file, or the test of this package that runs it
	Src  string
	// Actor plays the test's act steps cold; nil when it has none.
	Actor func(t *testing.T) session.Actor
	// Vars are the test's variables and secrets.
	Vars map[string]string
	// Files are written next to the test file before it runs (uploads).
	Files map[string]string
}

// warmLook is one element lookup: how it went and which element it found.
type warmLook struct {
	Via, Reason string
	Element     string // the element's structural selectors and snapshot line
}

// warmCaseRun is one case cold then warm.
type warmCaseRun struct {
	Case       warmCase
	Name       string
	Cold, Warm *Report
	// ColdLooks and WarmLooks are the lookups of each step, in order (an
	// act's steps all under the act's index).
	ColdLooks, WarmLooks map[int][]warmLook
	ColdOut, WarmOut     string
}

// exampleCases reads every example test file but the zoo's. The act
// examples play the scripted model of examples/agent/model.json through the
// real agent and client, as `e2e demo` does.
func exampleCases(t *testing.T) []warmCase {
	t.Helper()
	vars := map[string]string{"E2E_USER": "alice@example.com", "E2E_PASSWORD": "correct-horse"}
	var out []warmCase
	for _, pat := range []string{"*.e2e.yaml", "agent/*.e2e.yaml"} {
		names, err := fs.Glob(examples.FS, pat)
		if err != nil {
			t.Fatal(err)
		}
		// The files on disk, so a new example joins (and one left out of
		// the embed is noticed).
		onDisk, err := filepath.Glob(filepath.Join("../../examples", pat))
		if err != nil {
			t.Fatal(err)
		}
		if len(onDisk) != len(names) {
			t.Fatalf("examples/%s: %d files on disk, %d embedded", pat, len(onDisk), len(names))
		}
		sort.Strings(names)
		for _, n := range names {
			b, err := examples.FS.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			c := warmCase{From: "examples/" + n, Src: string(b), Vars: vars}
			if strings.HasPrefix(n, "agent/") {
				c.Actor = scriptedModel
			}
			out = append(out, c)
		}
	}
	if len(out) < 8 {
		t.Fatalf("%d example tests, want the 5 examples and 3 act examples at least", len(out))
	}
	return out
}

// scriptedModel serves the examples' playbook and returns the real agent
// talking to it.
func scriptedModel(t *testing.T) session.Actor {
	t.Helper()
	b, err := examples.FS.ReadFile("agent/model.json")
	if err != nil {
		t.Fatal(err)
	}
	book, err := scripted.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: scripted.New(book), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	client, err := agent.New(agent.Config{BaseURL: "http://" + ln.Addr().String() + "/v1", Model: "scripted", APIKey: "none", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return &agent.Actor{Client: client}
}

// actorOf plays commands as the scriptedActor of act_test.go does.
func actorOf(commands ...string) func(*testing.T) session.Actor {
	return func(*testing.T) session.Actor { return &scriptedActor{commands: commands} }
}

// packageCases are the tests this package's tests run on the fixture's
// pages and expect to pass (their sources copied where they are inline).
func packageCases() []warmCase {
	cs := []warmCase{
		{From: "run_test.go usersTest", Src: usersTest},
		{From: "run_test.go productTest", Src: productTest},
		{From: "act_test.go actTest", Src: actTest, Actor: actorOf(`--step-type CLICK --description "the Add to cart button"`)},
		{From: "budget_test.go TestSettleCapRunsOnANeverQuietPage", Src: `name: busy
url: /settle/never
steps:
  - click: the Ready button
  - expect: { visible: the Ready button }
`},
		{From: "budget_test.go poll", Src: `name: poll
url: /settle/poll
steps:
  - click: the Ready button
  - expect: { text: { in: the status, is: Clicked } }
`},
		{From: "kinds_test.go TestRunDblclickAndRightclick", Src: `name: step kinds
url: /kinds
steps:
  - dblclick: the oat milk button
  - expect: { text: { in: the Event log, contains: dblclick } }
  - expect: { visible: the Edit oat milk field }
  - rightclick: the Context area
  - expect: { visible: the Context menu }
`},
		{From: "kinds_test.go TestRunUploadRelativeToTestFile", Files: map[string]string{"files/report.txt": "1234567"}, Src: `name: upload
url: /kinds
steps:
  - upload: { into: the Attachment button, files: [files/report.txt] }
  - expect: { text: { in: the Chosen files status, is: "Chosen: report.txt (7 bytes)" } }
`},
		{From: "kinds_test.go drag", Src: `name: drag
url: /kinds
steps:
  - drag: { from: the Charlie option, to: the Alpha option }
  - expect: { text: { in: the Order status, is: "Charlie, Alpha, Bravo" } }
  - drag: { from: the Write report button, to: the Done list }
  - expect: { text: { in: the Event log, is: moved Write report to Done } }
`},
		{From: "kinds_test.go TestAgentUsesNewKinds", Actor: actorOf(
			`--step-type DBLCLICK --description "the oat milk button"`,
			`--step-type RIGHTCLICK --description "the Context area"`,
			`--step-type DRAG --description "the Charlie option" --value "the Alpha option"`,
		), Src: `name: agent kinds
url: /kinds
steps:
  - act: rename oat milk, open the context menu and put Charlie first
  - expect: { visible: the Edit oat milk field }
  - expect: { visible: the Context menu }
  - expect: { text: { in: the Order status, is: "Charlie, Alpha, Bravo" } }
`},
		{From: "a11y frame and shadow root (the export's embedded form)", Src: `name: embedded form
url: /a11y
steps:
  - type: { into: the Frame field, text: hello }
  - click: the Frame button
  - expect: { text: { in: the status, is: "Frame button clicked: hello" } }
  - type: { into: the Shadow field, text: in a shadow root }
  - click: the Shadow button
`},
		{From: "rename_test.go email", Src: `name: email
url: /login
steps:
  - type: { into: the email field, text: a@example.com }
`},
		{From: "unreadable_test.go sign in", Src: `name: sign in button
url: /login
steps:
  - click: the Sign in button
`},
	}
	for i, src := range suite12 {
		cs = append(cs, warmCase{From: fmt.Sprintf("suite_test.go suite12[%d]", i), Src: src})
	}
	return cs
}

// runWarmFixture runs every case cold, then warm under the strict cache
// policy, each case in its own project (fixture server and store).
func runWarmFixture(t *testing.T, cases []warmCase) []warmCaseRun {
	t.Helper()
	runs := make([]warmCaseRun, len(cases))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, c := range cases {
		e := newEnv(t)
		for k, v := range c.Vars {
			e.vars[k] = v
		}
		if c.Actor != nil {
			e.actor = c.Actor(t)
		}
		dir := t.TempDir()
		for name, body := range c.Files {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tt, err := testfile.Parse(filepath.Join(dir, "t.e2e.yaml"), []byte(c.Src))
		if err != nil {
			t.Fatalf("%s: %v", c.From, err)
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			w := &runs[i]
			w.Case, w.Name = c, tt.Name
			w.Cold, w.ColdLooks, w.ColdOut = e.runWarm(t, tt, CacheReadWrite)
			w.Warm, w.WarmLooks, w.WarmOut = e.runWarm(t, tt, CacheStrict)
		}()
	}
	wg.Wait()
	return runs
}

// runWarm runs one test with a cache policy and notes every lookup and the
// element it found. It reports errors with t.Errorf: it runs on another
// goroutine than the test's.
func (e *env) runWarm(t *testing.T, tt *testfile.Test, cache string) (*Report, map[int][]warmLook, string) {
	var mu sync.Mutex
	looks := map[int][]warmLook{}
	onTarget := func(ctx context.Context, ev TargetEvent) {
		l := warmLook{Via: ev.Via, Reason: ev.Reason}
		if ev.Ref != "" {
			l.Element = elementOf(ctx, ev)
		}
		mu.Lock()
		defer mu.Unlock()
		looks[ev.Step] = append(looks[ev.Step], l)
	}
	var out strings.Builder
	r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Out: &out, Actor: e.actor, Cache: cache, OnTarget: onTarget,
		Env: func(k string) (string, bool) { v, ok := e.vars[k]; return v, ok }})
	if err != nil {
		t.Error(err)
		return nil, nil, ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := r.Run(ctx, []*testfile.Test{tt})
	if err != nil {
		t.Error(err)
		return nil, nil, out.String()
	}
	return rep, looks, out.String()
}

// elementOf names the element behind the event's ref: its structural
// selectors (its place in the DOM) and what it looks like, so that the
// warm lookup can be compared with the cold one.
func elementOf(ctx context.Context, ev TargetEvent) string {
	sels, node, err := ev.Page.CaptureElement(ctx, ev.Ref, nil)
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	var where []string
	for _, s := range sels {
		if s.Kind == "structural" || s.Kind == "host" {
			where = append(where, s.Value)
		}
	}
	return fmt.Sprintf("%s %q at %s", node.Role, node.Name, strings.Join(where, " / "))
}

// warmFixtureCounts sums the warm runs.
type warmFixtureCounts struct {
	Tests, Passed int // tests, tests that passed cold
	Lookups       int // element lookups that found an element cold, in a test that passed
	Hits          int // of Lookups, found from the cache warm, on the same element
	Acts, Replays int // act steps that passed cold; of them, replayed warm
	Problems      []string
}

func (c *warmFixtureCounts) add(w warmCaseRun) {
	c.Tests++
	if w.Cold == nil || w.Warm == nil || len(w.Cold.Tests) == 0 || len(w.Warm.Tests) == 0 {
		c.Problems = append(c.Problems, w.Case.From+": did not run")
		return
	}
	cold, warm := w.Cold.Tests[0], w.Warm.Tests[0]
	if cold.Status != "passed" {
		c.Problems = append(c.Problems, fmt.Sprintf("%s: failed cold: %s\n%s", w.Case.From, cold.Error, w.ColdOut))
		return
	}
	c.Passed++
	if warm.Status != "passed" {
		c.Problems = append(c.Problems, fmt.Sprintf("%s: passed cold, fails warm under the strict cache policy: %s\n%s", w.Case.From, warm.Error, w.WarmOut))
	}
	for i, s := range cold.Steps {
		if s.Kind == "ACT" {
			c.Acts++
			if i < len(warm.Steps) && warm.Steps[i].Status == session.StatusHit && warm.Steps[i].LLMCalls == 0 {
				c.Replays++
			} else {
				c.Problems = append(c.Problems, fmt.Sprintf("%s:%d %s: act did not replay warm: %s", w.Case.From, s.Line, s.Command, statusOf(warm.Steps, i)))
			}
		}
		wl := w.WarmLooks[i]
		for j, cl := range w.ColdLooks[i] {
			if cl.Element == "" {
				continue // a lookup that failed cold (an act's refused step)
			}
			c.Lookups++
			switch {
			case j >= len(wl):
				c.Problems = append(c.Problems, fmt.Sprintf("%s:%d %s: lookup %d never ran warm (%s)", w.Case.From, s.Line, s.Command, j+1, statusOf(warm.Steps, i)))
			case wl[j].Via != "cache":
				c.Problems = append(c.Problems, fmt.Sprintf("%s:%d %s: lookup %d missed the cache warm: %s", w.Case.From, s.Line, s.Command, j+1, statusOf(warm.Steps, i)))
			case wl[j].Element != cl.Element:
				c.Problems = append(c.Problems, fmt.Sprintf("%s:%d %s: lookup %d found another element warm: %s, cold %s", w.Case.From, s.Line, s.Command, j+1, wl[j].Element, cl.Element))
			default:
				c.Hits++
			}
		}
	}
}

// statusOf says how step i ended.
func statusOf(steps []session.StepResult, i int) string {
	if i >= len(steps) {
		return "no such step"
	}
	s := steps[i]
	return strings.TrimSuffix(fmt.Sprintf("%s, cache %s %s, %s", s.Status, s.Cache, s.MissReason, s.Error), ", ")
}

// TestWarmFixtureReplay: a warm replay of every example test and of this
// package's fixture tests, on unchanged pages and under --cache strict,
// finds every element from the cache (the same element as cold), replays
// every act without the model, and passes every test that passed cold.
func TestWarmFixtureReplay(t *testing.T) {
	runs := runWarmFixture(t, append(exampleCases(t), packageCases()...))
	var all warmFixtureCounts
	var b strings.Builder
	b.WriteString("| test | from | steps | lookups cold | hits warm | acts replayed |\n|---|---|---|---|---|---|\n")
	for _, w := range runs {
		var c warmFixtureCounts
		c.add(w)
		all.add(w)
		n := 0
		if w.Cold != nil && len(w.Cold.Tests) > 0 {
			n = len(w.Cold.Tests[0].Steps)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d/%d |\n", w.Name, w.Case.From, n, c.Lookups, c.Hits, c.Replays, c.Acts)
	}
	fmt.Fprintf(&b, "| **all** | %d tests | | %d | %d (%.1f%%) | %d/%d |\n", all.Tests, all.Lookups, all.Hits, pct(all.Hits, all.Lookups), all.Replays, all.Acts)
	t.Logf("warm fixture replay (cold: locate and record; warm: replay, --cache strict):\n%s", b.String())
	for _, p := range all.Problems {
		t.Error(p)
	}
	if all.Lookups == 0 || all.Acts == 0 {
		t.Errorf("%d lookups and %d acts passed cold: the cases did not run", all.Lookups, all.Acts)
	}
}
