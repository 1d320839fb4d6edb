package run

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/locate"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

var shared *browser.Browser

// TestMain launches the shared browser, except under -short, where the
// tests that need it skip (browserTest).
func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run())
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	b, err := browser.Launch(ctx, browser.Options{})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "run tests need Chromium:", err)
		os.Exit(1)
	}
	shared = b
	code := m.Run()
	closeColdZoo()
	b.Close()
	os.Exit(code)
}

func TestHandlersCoverEveryStepType(t *testing.T) {
	for typ := range step.Types {
		if _, ok := handlers[typ]; !ok {
			t.Errorf("no handler for %s", typ)
		}
	}
	// every step type that runElement handles acts through the table
	for typ := range step.Types {
		switch typ {
		case step.Click, step.DblClick, step.RightClick, step.Upload, step.Hover, step.Scroll, step.Check, step.Uncheck, step.TypeText, step.Clear, step.Select, step.AddOption, step.RemoveOption, step.Press:
			if _, ok := elementActions[typ]; !ok {
				t.Errorf("no element action for %s", typ)
			}
		}
	}
}

// env is a project: a fixture server, a database and a runner on them.
// newEnv makes its test parallel (see browserTest).
type env struct {
	t     *testing.T
	cfg   *testfile.Config
	db    *store.DB
	srv   *httptest.Server
	out   bytes.Buffer
	vars  map[string]string
	dbDir string
	actor session.Actor
	judge Judge
	model locate.Locator // the LLM locator; nil: none
	// locator, when set, stands in for the local locator.
	locator locate.Locator
	heal    string
	// gate and events, when set, watch and steer the run (studio_test.go).
	gate   session.Gate
	events session.Events
	cache  string // the cache policy; "" is the default
	red    *redact.Redactor
}

func newEnv(t *testing.T) *env {
	t.Helper()
	browserTest(t)
	e := &env{t: t, vars: map[string]string{}}
	e.srv = httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(e.srv.Close)
	e.dbDir = t.TempDir()
	e.cfg = testfile.DefaultConfig(e.dbDir)
	e.cfg.BaseURL = e.srv.URL
	e.cfg.Timeouts.Step = 30 * time.Second
	db, err := store.Open(context.Background(), filepath.Join(e.dbDir, "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e.db = db
	return e
}

// findsNothing is for a test whose next run has a step that is to find
// nothing: its steps get a short time (newEnv's is generous, so that a
// loaded machine only makes a passing step slower).
func (e *env) findsNothing() { e.cfg.Timeouts.Step = 3 * time.Second }

// run runs the YAML tests against the fixture with the given variants.
func (e *env) run(variants string, srcs ...string) *Report {
	e.t.Helper()
	var tests []*testfile.Test
	for i, src := range srcs {
		tt, err := testfile.Parse(fmt.Sprintf("t%d.e2e.yaml", i), []byte(src))
		if err != nil {
			e.t.Fatal(err)
		}
		tests = append(tests, tt)
	}
	e.out.Reset()
	r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Out: &e.out, Variants: variants, Actor: e.actor, Locator: e.locator, Model: e.model, Cache: e.cache, Redactor: e.red, Judge: e.judge, HealPolicy: e.heal, Gate: e.gate, Events: e.events,
		Env: func(k string) (string, bool) { v, ok := e.vars[k]; return v, ok }})
	if err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := r.Run(ctx, tests)
	if err != nil {
		e.t.Fatal(err)
	}
	return rep
}

// key is the cache key the env's runner gives the first occurrence of an
// instruction using the variables params in a test with the given agent
// context.
func (e *env) key(test, instruction, context string, params ...string) session.CacheKey {
	e.t.Helper()
	r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared})
	if err != nil {
		e.t.Fatal(err)
	}
	return session.Key(session.KeyParts{Project: "fixture", Test: test, Target: r.o.Target, App: r.o.App, Instruction: instruction, Params: params, Context: context})
}

func steps(rep *Report) []session.StepResult {
	var out []session.StepResult
	for _, t := range rep.Tests {
		out = append(out, t.Steps...)
	}
	return out
}

const usersTest = `name: archive alice
url: /users
steps:
  - click: the Menu button in the Alice row
  - click: Archive in the row menu
  - expect: { hidden: the Alice row }
  - expect: { text: { in: the status message, contains: Alice archived } }
`

const productTest = `name: cart
url: /product
steps:
  - click: the blue button
  - click: the Add to cart button
  - expect: { text: { in: the cart status, contains: "2 items" } }
`

func TestWarmRunIsAllHits(t *testing.T) {
	e := newEnv(t)
	cold := e.run("", usersTest, productTest)
	if !cold.Passed() {
		t.Fatalf("cold run failed:\n%s", e.out.String())
	}
	for _, s := range steps(cold) {
		if s.Status == session.StatusHit {
			t.Errorf("cold run had a hit: %+v", s)
		}
	}
	for _, variants := range []string{"", "random-attrs"} {
		warm := e.run(variants, usersTest, productTest)
		if !warm.Passed() {
			t.Fatalf("warm run (%s) failed:\n%s", variants, e.out.String())
		}
		c := Count(warm.Tests)
		if c.Relocated != 0 || c.Located != 0 || c.Misses != 0 {
			t.Errorf("warm run (%q): %+v\n%s", variants, c, e.out.String())
		}
		for _, s := range steps(warm) {
			if s.Kind != "EXPECT" && s.Status != session.StatusHit {
				t.Errorf("warm (%q) step %d: %s %s", variants, s.Index, s.Status, s.MissReason)
			}
		}
	}
}

func TestShuffleNeverActsOnTheWrongRow(t *testing.T) {
	e := newEnv(t)
	if rep := e.run("", usersTest); !rep.Passed() {
		t.Fatalf("cold:\n%s", e.out.String())
	}
	for i := 0; i < 3; i++ {
		rep := e.run("shuffle", usersTest)
		// The status message proves which row was archived: Alice's.
		if !rep.Passed() {
			t.Fatalf("shuffled run %d failed:\n%s", i, e.out.String())
		}
		first := rep.Tests[0].Steps[0]
		if first.Status != session.StatusHit && first.Status != session.StatusRelocated {
			t.Errorf("shuffled run %d: first step %s", i, first.Status)
		}
	}
}

func TestRecolorMissesTheBlueButtonOnly(t *testing.T) {
	e := newEnv(t)
	if rep := e.run("", productTest); !rep.Passed() {
		t.Fatalf("cold:\n%s", e.out.String())
	}
	rep := e.run("recolor", `name: cart
url: /product
steps:
  - click: the blue button
  - expect: { text: { in: the cart status, is: "Cart: 0 items" } }
  - click: the Add to cart button
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
`)
	s := rep.Tests[0].Steps
	if s[0].Status != session.StatusRelocated || !strings.HasPrefix(s[0].MissReason, "attribute-changed") || !strings.Contains(s[0].MissReason, "color") {
		t.Errorf("the blue button: %s %q\n%s", s[0].Status, s[0].MissReason, e.out.String())
	}
	if s[2].Status != session.StatusHit {
		t.Errorf("the Add to cart button: %s %q", s[2].Status, s[2].MissReason)
	}
	if !rep.Passed() {
		t.Fatalf("recolor run failed:\n%s", e.out.String())
	}
}

func TestAmbiguousDescriptionFailsListingCandidates(t *testing.T) {
	e := newEnv(t)
	rep := e.run("", `name: ambiguous
url: /rows?n=5
steps:
  - click: the Delete button
`)
	if rep.Passed() {
		t.Fatal("an ambiguous description passed")
	}
	s := rep.Tests[0].Steps[0]
	if s.Status != session.StatusFailed || !strings.Contains(s.Error, "several elements") || !strings.Contains(s.Error, "Item 1") || !strings.Contains(s.Error, "Item 2") {
		t.Errorf("error: %s", s.Error)
	}
	if s.Screenshot == "" {
		t.Error("no screenshot on failure")
	} else if _, err := os.Stat(rep.Open(s.Screenshot)); err != nil {
		t.Error(err)
	}
}

func TestNotFoundNamesNearestAndSkipsRest(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 1500 * time.Millisecond // room for the first look on a loaded machine
	rep := e.run("", `name: missing
url: /login
steps:
  - click: the Launch rocket button
  - click: the Sign in button
`)
	s := rep.Tests[0].Steps
	if s[0].Status != session.StatusFailed || !strings.Contains(s[0].Error, `no element matches "the Launch rocket button"`) {
		t.Errorf("step 1: %s %s", s[0].Status, s[0].Error)
	}
	if s[1].Status != session.StatusSkipped {
		t.Errorf("step 2: %s", s[1].Status)
	}
}

func TestActNeedsAModel(t *testing.T) {
	e := newEnv(t)
	rep := e.run("", `name: act
url: /login
steps:
  - act: sign in as alice
`)
	if rep.Passed() || !strings.Contains(rep.Tests[0].Steps[0].Error, "needs a model") {
		t.Errorf("act: %+v", rep.Tests[0].Steps[0])
	}
}

func TestSecretsStayOutOfStoreReportAndOutput(t *testing.T) {
	e := newEnv(t)
	const secret = "correct-horse"
	e.vars["E2E_PASSWORD"] = secret
	src := `name: sign in
url: /login
steps:
  - type: { into: the email field, text: alice@example.com }
  - type: { into: the password field, text: "{{ secret.E2E_PASSWORD }}" }
  - click: the Sign in button
  - expect: { visible: the Users heading }
  - expect: { title: "{{ secret.E2E_PASSWORD }}" }
`
	e.cfg.Timeouts.Step = 2 * time.Second // a step bounds its settle too: room to load the next page
	rep := e.run("", src)
	if len(rep.Tests[0].Steps) != 5 || rep.Tests[0].Steps[3].Status == session.StatusFailed {
		t.Fatalf("sign in failed:\n%s", e.out.String())
	}
	// The last step fails and its error mentions the expected title: redacted.
	// Everything the reports are made from (session/report writes them).
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	jsonPath := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(jsonPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	e.db.Close()
	for name, path := range map[string]string{"json": jsonPath, "db": filepath.Join(e.dbDir, "e2e.db"), "wal": filepath.Join(e.dbDir, "e2e.db-wal")} {
		b, _ := os.ReadFile(path)
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the secret is in the %s", name)
		}
	}
	if strings.Contains(e.out.String(), secret) {
		t.Errorf("the secret is in the output:\n%s", e.out.String())
	}
	if !strings.Contains(e.out.String(), "{{ secret.E2E_PASSWORD }}") {
		t.Errorf("the output should name the secret:\n%s", e.out.String())
	}
}

// TestDialogsDoNotBlockATest: the page's confirm is answered OK, the test
// goes on, and the step says what was answered.
func TestDialogsDoNotBlockATest(t *testing.T) {
	e := newEnv(t)
	rep := e.run("", `name: delete the draft
url: /dialogs
steps:
  - click: the Delete the draft button
  - expect: { text: { in: the status, is: Draft deleted } }
`)
	if !rep.Passed() {
		t.Fatalf("the test failed:\n%s", e.out.String())
	}
	if note := rep.Tests[0].Steps[0].Note; note != `the page's confirm "Delete the draft?" was answered OK` {
		t.Errorf("step note %q", note)
	}
	if !strings.Contains(e.out.String(), `confirm "Delete the draft?" was answered OK`) {
		t.Errorf("the output does not say so:\n%s", e.out.String())
	}
}

// TestVariablesNeverReplayTheRecordedValue: a step whose description holds
// a variable is cached once for every value; the cached element, recorded
// for Alice, is checked against this run's value (Bob), so it is not
// replayed onto Alice's row but located again in Bob's.
func TestVariablesNeverReplayTheRecordedValue(t *testing.T) {
	e := newEnv(t)
	const test = `name: archive someone
url: /users
steps:
  - click: the Menu button in the {{ env.E2E_WHO }} row
  - click: the Archive menu item
  - expect: { hidden: "the {{ env.E2E_WHO }} row" }
`
	e.vars["E2E_WHO"] = "Alice"
	if rep := e.run("", test); !rep.Passed() {
		t.Fatalf("record:\n%s", e.out.String())
	}
	entry, err := e.db.Cache(context.Background(), e.key("archive someone", "the Menu button in the {{ env.E2E_WHO }} row", "", "{{ env.E2E_WHO }}"))
	if err != nil || entry == nil {
		t.Fatalf("cache entry: %+v %v", entry, err)
	}
	if b, _ := json.Marshal(entry.Intent); strings.Contains(string(b), "Alice") || !strings.Contains(string(b), "{{ env.E2E_WHO }}") {
		t.Errorf("the intent holds the recorded value: %s", b)
	}
	e.vars["E2E_WHO"] = "Bob"
	rep := e.run("", test)
	if !rep.Passed() {
		t.Fatalf("with another value the cached element was replayed onto the recorded row:\n%s", e.out.String())
	}
	if s := rep.Tests[0].Steps[0]; s.Status == session.StatusHit {
		t.Errorf("the first step hit the cache recorded for Alice: %+v", s)
	}
	e.vars["E2E_WHO"] = "Bob" // the same value again: the cache serves it
	if rep := e.run("", test); !rep.Passed() || rep.Tests[0].Steps[0].Status != session.StatusHit {
		t.Errorf("the same value again did not hit:\n%s", e.out.String())
	}
}
