// Package run executes tests: each in a fresh browser context, step by step,
// replaying elements from the cache when their intent still holds and
// locating them again when it does not. Results go to the store and to a
// line-per-step printout.
package run

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/locate"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// Options wire a Runner.
type Options struct {
	Config  *testfile.Config
	Project string // cache namespace; default: the config's project, else its directory's name
	Shard   string // "i/n" when this run is one shard of the suite, recorded with the run
	// Group is the run group recorded with the run (session.Run.Group).
	Group   string
	Store   session.Store
	Browser *browser.Browser
	Locator locate.Locator // default: the local locator
	// Model, when set, is asked once per step when Locator is not sure
	// (an LLM locator); nil means no model is configured.
	Model locate.Locator
	// Judge decides assert steps; nil means they fail with "needs a model".
	Judge Judge
	// Actor reaches act goals with a model; nil means an act with no
	// recorded trajectory fails with "needs a model".
	Actor session.Actor
	// HealPolicy is HealOff, HealStage (the default) or HealAccept.
	HealPolicy string
	// Env looks up {{ env.X }} and {{ secret.X }}; default os.LookupEnv.
	Env func(string) (string, bool)
	// Out receives a line per step and per test; nil prints nothing.
	Out io.Writer
	// Color colours what goes to Out (the zero Palette: plain text).
	Color Palette
	// Screenshots is where failure screenshots go; default .e2e/screenshots
	// under the config directory.
	Screenshots string
	// Traces is where traces go (SuiteOptions.Trace); default: traces
	// beside Screenshots.
	Traces  string
	Version string
	// Variants is appended to every start URL as ?variant=… (for the fixture app).
	Variants string
	// OnRunStart, when set, learns the run's ID once it is recorded (to tag
	// model calls with it).
	OnRunStart func(runID int64)
	// Cache is the cache policy: CacheReadWrite (the default),
	// CacheReadOnly, CacheOff or CacheStrict.
	Cache string
	// App, Target and Agent enter every cache key (session.KeyParts). App
	// defaults to the configured cache.app, else the base URL's origin;
	// Target to the browser's name and major version and the configured
	// viewport.
	App    string
	Target session.Target
	Agent  session.AgentConfig
	// Events, when set, is told what the run does as it happens (the studio).
	Events session.Events
	// Gate, when set, holds steps until they are decided: every step the
	// agent proposes, and the test's own and replayed steps too (a gate
	// lets those through without asking unless it is stepping). See studio.go.
	Gate session.Gate
	// Rerecord lists the act steps (by index in the test) whose recorded
	// trajectory is ignored: the agent records them again from scratch.
	Rerecord map[int]bool
	// Suite says how many tests run at once, retries and captures (parallel.go).
	Suite SuiteOptions
	// OnTarget, when set, is told what each element lookup of a step
	// decided (the ref it resolved to, or why none), after the element is
	// found and before the step acts on it. A drag step looks up two
	// elements, in order: what it drags, then where it drops it.
	OnTarget func(ctx context.Context, e TargetEvent)
	// KeepGoing runs a test's remaining steps after one fails instead of
	// skipping them (the test still fails); the zoo harness measures every
	// step this way.
	KeepGoing bool
	// Redactor learns every secret value as the run meets it (all those the
	// suite uses when Run starts) and redacts them from step errors and
	// notes, heal reasons and what the model is shown. Share it with the
	// store, the reports, the model client and the console so that they
	// redact the same values; default: a redactor of the run's own.
	Redactor *redact.Redactor

	allow    *allowList     // the base URL's origin and allowedOrigins, compiled (New)
	sessions *sessionStates // the run's captured sessions (sessions.go), shared by its workers
}

// TargetEvent is what one element lookup decided (see Options.OnTarget).
type TargetEvent struct {
	Test        string
	Step        int    // the index of the step in the test
	Description string // as resolved (variables filled in)
	// Ref is the element the step acts on, "" when the lookup failed.
	Ref string
	// Via is how Ref was found: "cache", "re-identified" (by its likeness
	// to the cached node), "locate" (the local locator) or "model"; "" when
	// the lookup failed.
	Via string
	// Reason is why no element was found: locate.ReasonNoMatch,
	// locate.ReasonAmbiguous, or "error" (Err says which).
	Reason string
	Err    error
	// Look is what the last look took: the snapshot and the locator (zero
	// for a cache hit).
	Look time.Duration
	// Node is the snapshot node the locator chose and Why its reasons
	// (locate.Candidate); nil for a cache hit or a failed lookup.
	Node *ax.Node
	Why  []string
	// Page is the page the step runs in; Ref is valid in it until the step acts.
	Page *browser.Page
}

// Judge decides a natural-language assertion against a snapshot; a model
// implements it (agent.Asserter). It is never answered from a cache.
type Judge interface {
	Judge(ctx context.Context, s *ax.Snapshot, claim string) (pass bool, reasoning string, calls int, err error)
}

// Runner runs tests.
type Runner struct {
	o   Options
	cap *capture // this test attempt's extras, in a suite (parallel.go)
	// atEnd, when set, is called once a test's steps ran, with its page
	// still open (a session's capture, sessions.go).
	atEnd func(ctx context.Context, tr *testRun, res *session.TestResult)
}

// projectName is the project in c's cache keys: its project key, else the
// name of the directory that holds e2e.yaml.
func projectName(c *testfile.Config) string {
	if c.Project != "" {
		return c.Project
	}
	return filepath.Base(c.Dir)
}

// New returns a Runner; Config, Store and Browser are required.
func New(o Options) (*Runner, error) {
	if o.Config == nil || o.Store == nil || o.Browser == nil {
		return nil, errors.New("run: config, store and browser are required")
	}
	if o.Project == "" {
		o.Project = projectName(o.Config)
	}
	if o.Locator == nil {
		o.Locator = locate.Local{}
	}
	switch o.HealPolicy {
	case "":
		o.HealPolicy = HealStage
	case HealOff, HealStage, HealAccept:
	default:
		return nil, fmt.Errorf("heal policy %q: want off, stage or accept", o.HealPolicy)
	}
	switch o.Cache {
	case "":
		o.Cache = CacheReadWrite
	case CacheReadWrite, CacheReadOnly, CacheOff, CacheStrict:
	default:
		return nil, fmt.Errorf("cache policy %q: want read-write, read-only, off or strict", o.Cache)
	}
	if o.App == "" {
		o.App = appIdentity(o.Config)
	}
	if o.Target == (session.Target{}) {
		o.Target.Browser, o.Target.Major = session.ParseProduct(o.Browser.Version())
		o.Target.Width, o.Target.Height = o.Config.Browser.Viewport.Width, o.Config.Browser.Viewport.Height
	}
	if o.Env == nil {
		o.Env = os.LookupEnv
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	if o.Screenshots == "" {
		o.Screenshots = filepath.Join(o.Config.Dir, ".e2e", "screenshots")
	}
	if o.Traces == "" {
		o.Traces = filepath.Join(filepath.Dir(o.Screenshots), "traces")
	}
	if o.Redactor == nil {
		o.Redactor = redact.New()
	}
	o.allow = newAllowList(o.Config.BaseURL, o.Config.AllowedOrigins)
	o.sessions = &sessionStates{}
	return &Runner{o: o}, nil
}

// Report is what a run did.
type Report struct {
	Run session.Run
	// Dir is the directory that relative paths in Tests (test files,
	// screenshots, video frames) are relative to: the configuration's.
	Dir   string
	Tests []session.TestResult
	// Details are the suite's extras for each of Tests, in the same order.
	Details []TestDetail
}

// Open is the path to open a path of the report with: p joined to Dir when
// p is relative and Dir is set, else p.
func (r *Report) Open(p string) string {
	if p == "" || filepath.IsAbs(p) || r.Dir == "" {
		return p
	}
	return filepath.Join(r.Dir, filepath.FromSlash(p))
}

// Passed reports whether every test passed.
func (r *Report) Passed() bool {
	for _, t := range r.Tests {
		if t.Status != session.TestPassed {
			return false
		}
	}
	return true
}

// Run runs the tests one after another and records the run. It returns an
// error only when the store fails (or an isolated browser cannot start);
// failing tests are in the report. Once started, the run is always
// finished: passed, or failed (also when Run returns an error).
func (r *Runner) Run(ctx context.Context, tests []*testfile.Test) (*Report, error) {
	rep := &Report{Run: session.Run{Project: r.o.Project, StartedAt: time.Now(), Status: "running", Version: r.o.Version, Shard: r.o.Shard, Group: r.o.Group,
		BaseURL: r.o.Config.BaseURL, Variant: r.o.Variants}, Dir: r.o.Config.Dir}
	if l, ok := r.lineage(); ok {
		rep.Run.Branch, rep.Run.Commit = l.Branch, l.Commit
	}
	for _, t := range tests {
		rep.Run.Tests = append(rep.Run.Tests, t.Name)
	}
	r.addSuiteSecrets(tests)
	r.o.sessions = &sessionStates{} // each run signs in afresh
	if err := r.o.Store.StartRun(ctx, &rep.Run); err != nil {
		return nil, err // the store's error says "start run"
	}
	if r.o.OnRunStart != nil {
		r.o.OnRunStart(rep.Run.ID)
	}
	if err := r.runSuite(ctx, rep, tests); err != nil {
		// The run ends all the same, failed: never left "running" in a
		// process that goes on (the MCP server, the studio).
		rep.Run.FinishedAt, rep.Run.Status = time.Now(), "failed"
		return nil, errors.Join(err, r.o.Store.FinishRun(context.WithoutCancel(ctx), &rep.Run))
	}
	rep.Run.FinishedAt = time.Now()
	rep.Run.Status = "passed"
	if !rep.Passed() {
		rep.Run.Status = "failed"
	}
	if err := r.o.Store.FinishRun(context.WithoutCancel(ctx), &rep.Run); err != nil {
		return nil, err // the store's error says "finish run"
	}
	printRunSummary(r.o.Out, r.o.Color, rep)
	return rep, nil
}

// testRun is the state of one test while it runs.
type testRun struct {
	test       *testfile.Test
	page       *browser.Page
	runID      int64
	secrets    []string
	red        *redact.Redactor // the run's: every secret value met so far
	occurrence map[string]int
	unique     func(string) string
	uniques    map[string]string           // prefix → the value unique gave it in this test
	identity   map[session.CacheKey]string // key → the identity it was computed from
	pending    []pendingWrite              // cache writes held until the test passes
	stale      bool                        // a step failed with a StaleError
	index      int                         // the test step running
	look       time.Duration               // the last look (snapshot and locate) of a lookup
	chosen     *locate.Candidate           // what the last lookup located
	post       string                      // the postcondition of the act step running
	proposals  int                         // proposals put to the gate
	live       bool                        // a test recorded as it is typed (Record): authoring
	shots      string                      // the start of its screenshots' names; "" for run<runID>
	edited     bool                        // the step running was edited at the gate: authoring
	weighed    []session.StepCandidate     // what the last step that found no single element weighed (see weigh)
	opened     map[string]bool             // origins the test opened itself (url:, navigate:), see origin.go
	okOrigin   string                      // the origin last found allowed
	flow       *flowScope                  // the flow whose steps run; nil for the test's own
	sub        int                         // the last sub-step number given under the test's use step running
	at         testfile.Pos                // where the step running is, in its file
	answers    []givenAnswer               // the dialog steps run, in order (dialogs.go)
	dialogs    []browser.Dialog            // the dialogs the page answered, in order
	// dialogsChecked is how many of dialogs an expect dialog step has
	// checked: the next one looks only at the others.
	dialogsChecked int
	trace          *tracer // the attempt's trace; nil when the trace is off (trace.go)
}

// flowScope is a flow while its steps run for a use step: its steps are
// keyed under the flow, not the test, with occurrences counted afresh for
// each use, so that every use of it with the same parameters replays the
// same cache entries and trajectories.
type flowScope struct {
	def        *testfile.Flow
	steps      []testfile.Step // as the use step gave them (parameters in place)
	occurrence map[string]int
}

// keyTest and keyFlow are what a step's key is made under: the test, or
// the flow running. owner names it in cache rows, trajectories and heals:
// the test's name, or "flow: NAME".
func (tr *testRun) keyTest() string {
	if tr.flow != nil {
		return ""
	}
	return tr.test.Name
}

func (tr *testRun) keyFlow() string {
	if tr.flow != nil {
		return tr.flow.def.Name
	}
	return ""
}

func (tr *testRun) owner() string {
	if tr.flow != nil {
		return "flow: " + tr.flow.def.Name
	}
	return tr.test.Name
}

// context is the agent context of the steps running: the test's, or the
// flow's own.
func (tr *testRun) context() string {
	if tr.flow != nil {
		return tr.flow.def.Context
	}
	return tr.test.Context
}

// file is the file of the steps running, which their upload paths are
// relative to: the test's, or the flow's.
func (tr *testRun) file() string {
	if tr.flow != nil {
		return tr.flow.def.File
	}
	return tr.test.File
}

// occurrences counts the steps run so far by instruction, in the test, or
// in this use of the flow running.
func (tr *testRun) occurrences() map[string]int {
	if tr.flow != nil {
		return tr.flow.occurrence
	}
	return tr.occurrence
}

// authoring says the step running is being written, not run: a step of a
// test recorded as it is typed (a preview, studio --new) or one edited at
// the gate. A description that matches nothing on a settled page then
// fails at once instead of waiting out the step timeout.
func (tr *testRun) authoring() bool { return tr.live || tr.edited }

// RunTest runs one test in a fresh browser context. A browser failure fails
// this test only.
func (r *Runner) RunTest(ctx context.Context, runID int64, t *testfile.Test) (res session.TestResult) {
	start := time.Now()
	res = session.TestResult{Name: t.Name, File: t.ShownFile(), Status: "passed"}
	fmt.Fprintf(r.o.Out, "%s (%s)\n", t.Name, t.ShownFile())
	defer func() {
		res.DurationMS = time.Since(start).Milliseconds()
		printTestSummary(r.o.Out, r.o.Color, &res)
		r.publish(session.TestFinished{Result: res})
	}()
	if r.o.Events != nil {
		cmds := make([]string, len(t.Steps))
		for i, st := range t.Steps {
			cmds[i] = st.Command()
		}
		r.publish(session.TestStarted{Test: t.Name, File: t.ShownFile(), Steps: cmds, At: start})
	}
	page, err := r.o.Browser.NewPage(ctx)
	if err != nil {
		res.Status, res.Error = "failed", "open a page: "+err.Error()
		return res
	}
	defer page.Close()
	ctx, stopWatch := watchRenderer(ctx, page)
	defer stopWatch()
	r.startVideo(ctx, page)
	defer func() { r.stopVideo(&res) }()
	tr := &testRun{test: t, page: page, runID: runID, occurrence: map[string]int{}, identity: map[session.CacheKey]string{},
		uniques: map[string]string{}, red: r.o.Redactor}
	r.guardSecrets(tr)
	r.startTrace(ctx, tr)
	defer func() { r.endTrace(tr, &res) }()
	gen := testfile.UniqueFor(uniqueSeed(runID, t.Name))
	tr.unique = func(prefix string) string { v := gen(prefix); tr.uniques[prefix] = v; return v }
	if t.Session != "" {
		if err := r.startSession(ctx, tr); err != nil {
			res.Status, res.Error = session.TestFailed, tr.redact(err.Error())
			var nr *notRunError
			if errors.As(err, &nr) {
				res.Status = session.TestNotRun
				if r.cap != nil {
					r.cap.mu.Lock()
					r.cap.detail.NotRun = &nr.f
					r.cap.mu.Unlock()
				}
				fmt.Fprintf(r.o.Out, "  %s not run: %s\n", r.o.Color.Warn("-"), nr.f.Reason())
				for _, st := range t.Steps {
					kind := string(st.Type)
					if st.Use != nil {
						kind = session.KindUse
					}
					res.Steps = append(res.Steps, session.StepResult{Index: len(res.Steps), Line: st.Pos.Line, Command: st.Command(),
						Kind: kind, Status: session.StatusSkipped, Cache: "none"})
				}
				return res
			}
			fmt.Fprintf(r.o.Out, "  ✗ %s\n", res.Error)
			return res
		}
	}
	startURL, secrets, err := testfile.ResolveString(t.URL, r.o.Env, tr.unique)
	tr.addSecrets(secrets)
	if err != nil {
		res.Status, res.Error = "failed", "url: "+tr.redact(err.Error())
		fmt.Fprintf(r.o.Out, "  ✗ %s\n", res.Error)
		return res
	}
	if err := r.openStart(ctx, tr, startURL); err != nil {
		res.Status, res.Error = "failed", tr.redact(err.Error())
		fmt.Fprintf(r.o.Out, "  ✗ open %s: %s\n", r.url(t.URL), res.Error)
		return res
	}
	r.showPage(ctx, tr, "")
	failed := false
	for i, st := range t.Steps {
		tr.sub = -1
		if st.Use != nil {
			r.runUse(ctx, tr, &res, st, 0, i, &failed)
			continue
		}
		pos := len(res.Steps)
		if failed && !r.o.KeepGoing {
			res.Steps = append(res.Steps, session.StepResult{Index: pos, Line: st.Pos.Line, Command: st.Step.String(), Kind: string(st.Type), Status: session.StatusSkipped, Cache: "none"})
			r.finished(tr, &res.Steps[len(res.Steps)-1], i, -1)
			continue
		}
		tr.index, tr.post = i, ""
		r.publish(session.StepStarted{Index: i, Sub: -1, Command: st.Step.String()})
		st, decided := r.gatedStep(ctx, tr, i, st)
		var sr session.StepResult
		if decided != nil {
			sr = *decided
			sr.Index = pos
		} else {
			sr = r.runStep(ctx, tr, pos, st)
			r.showPage(ctx, tr, "")
		}
		r.finished(tr, &sr, i, -1)
		res.Steps = append(res.Steps, sr)
		printStep(r.o.Out, r.o.Color, t.ShownFile(), st, &sr)
		if sr.Status == session.StatusFailed {
			failed = true
			res.Status = "failed"
			res.Error = fmt.Sprintf("step %d (line %d): %s", i+1, st.Pos.Line, sr.Error)
		}
	}
	r.unusedAnswer(tr, &res)
	r.flush(ctx, tr, &res)
	res.Stale = tr.stale
	if r.atEnd != nil {
		r.atEnd(ctx, tr, &res)
	}
	return res
}

// runUse runs a use step, st, at depth (0 for one of the test's own,
// which is test step top): a result for the use itself, then the flow's
// steps, each a result one deeper, keyed under the flow. The use passes
// when all of them do; it is skipped, with them, after a failure (unless
// KeepGoing). Watchers see the flow's steps as sub-steps of test step top,
// numbered in order (as an act's are). failed says a step of the test has
// failed; it is set when one of the flow's does.
func (r *Runner) runUse(ctx context.Context, tr *testRun, res *session.TestResult, st testfile.Step, depth, top int, failed *bool) {
	u := st.Use
	pos := len(res.Steps)
	sr := session.StepResult{Index: pos, Depth: depth, Line: st.Pos.Line, Command: st.Command(), Kind: session.KindUse, Cache: "none"}
	sub := r.subStep(tr, depth)
	tr.index, tr.post = top, ""
	r.publish(session.StepStarted{Index: top, Sub: sub, Command: sr.Command, Depth: depth})
	indent := strings.Repeat("  ", depth)
	if u.Def == nil {
		// A use step typed where no flows are loaded (the studio's prompt).
		sr.Status, sr.Error = session.StatusFailed, fmt.Sprintf("flow %q is not loaded: a use step runs from a test file (e2e run)", u.Flow)
		if *failed && !r.o.KeepGoing {
			sr.Status, sr.Error = session.StatusSkipped, ""
		}
		r.finished(tr, &sr, top, sub)
		res.Steps = append(res.Steps, sr)
		printStep(r.o.Out, r.o.Color, tr.test.ShownFile(), st, &sr)
		if sr.Status == session.StatusFailed {
			*failed, res.Status = true, "failed"
			res.Error = fmt.Sprintf("step %d (line %d): %s", top+1, st.Pos.Line, sr.Error)
		}
		return
	}
	fmt.Fprintf(r.o.Out, "  %s%s %s %s\n", indent, r.o.Color.Dim("▸"), u.Command(), r.o.Color.Dim("("+u.Def.ShownFile()+")"))
	res.Steps = append(res.Steps, sr) // filled in once the flow's steps ran
	start := time.Now()
	before := *failed
	saved := tr.flow
	tr.flow = &flowScope{def: u.Def, steps: u.Steps, occurrence: map[string]int{}}
	defer func() { tr.flow = saved }()
	why := "" // the first of the flow's steps that failed, and how
	where := func(i int, line int) string {
		n := i + 1
		if u.Def.URL != "" {
			n-- // the navigate to the flow's url is not one of its steps
		}
		if n == 0 {
			return fmt.Sprintf("flow %q, its url (%s:%d)", u.Flow, u.Def.ShownFile(), line)
		}
		return fmt.Sprintf("flow %q, step %d (%s:%d)", u.Flow, n, u.Def.ShownFile(), line)
	}
	for i, fst := range u.Steps {
		if fst.Use != nil {
			p := len(res.Steps)
			r.runUse(ctx, tr, res, fst, depth+1, top, failed)
			if nested := res.Steps[p]; nested.Status == session.StatusFailed && why == "" {
				why = where(i, fst.Pos.Line) + ": " + nested.Error
			}
			continue
		}
		p := len(res.Steps)
		sub := r.subStep(tr, depth+1)
		if *failed && !r.o.KeepGoing {
			res.Steps = append(res.Steps, session.StepResult{Index: p, Depth: depth + 1, Line: fst.Pos.Line, Command: fst.Step.String(), Kind: string(fst.Type), Status: session.StatusSkipped, Cache: "none"})
			r.finished(tr, &res.Steps[len(res.Steps)-1], top, sub)
			continue
		}
		tr.index, tr.post = top, ""
		r.publish(session.StepStarted{Index: top, Sub: sub, Command: fst.Step.String(), Depth: depth + 1})
		fsr := r.runStep(ctx, tr, p, fst)
		fsr.Depth = depth + 1
		r.showPage(ctx, tr, "")
		r.finished(tr, &fsr, top, sub)
		res.Steps = append(res.Steps, fsr)
		printStepAt(r.o.Out, r.o.Color, u.Def.ShownFile(), fst, &fsr, depth+1)
		if fsr.Status == session.StatusFailed {
			*failed, res.Status = true, "failed"
			if why == "" {
				why = where(i, fst.Pos.Line) + ": " + fsr.Error
			}
		}
	}
	// The use step: how its flow's steps went, in sum.
	use := &res.Steps[pos]
	use.DurationMS = time.Since(start).Milliseconds()
	use.Status = session.StatusPassed
	for _, fsr := range res.Steps[pos+1:] {
		if fsr.Depth == depth+1 { // a nested use's step counts in its use already
			use.LLMCalls += fsr.LLMCalls
		}
	}
	switch {
	case why != "":
		use.Status, use.Error = session.StatusFailed, why
		if depth == 0 {
			res.Error = fmt.Sprintf("step %d (line %d): %s", top+1, st.Pos.Line, why)
		}
	case before && !r.o.KeepGoing:
		use.Status = session.StatusSkipped
	}
	r.finished(tr, use, top, sub)
}

// subStep is the watcher's number of the next step of a flow run under
// the test's use step (-1 for a test's own step, at depth 0).
func (r *Runner) subStep(tr *testRun, depth int) int {
	if depth == 0 {
		return -1
	}
	tr.sub++
	return tr.sub
}

func (r *Runner) url(u string) string {
	base := strings.TrimRight(r.o.Config.BaseURL, "/")
	if u == "" {
		u = base + "/"
	} else if !strings.Contains(u, "://") {
		if !strings.HasPrefix(u, "/") {
			u = "/" + u
		}
		u = base + u
	}
	if r.o.Variants != "" {
		sep := "?"
		if strings.Contains(u, "?") {
			sep = "&"
		}
		u += sep + "variant=" + r.o.Variants
	}
	return u
}

// openStart opens the test's start URL within a navigate step's time.
func (r *Runner) openStart(ctx context.Context, tr *testRun, u string) error {
	ctx, b, cancel := withBudget(ctx, r.budgetFor(step.Step{Type: step.Navigate}))
	defer cancel()
	return b.explain(r.open(ctx, tr, u))
}

func (r *Runner) open(ctx context.Context, tr *testRun, u string) error {
	if u == "" && r.o.Config.BaseURL == "" {
		return nil
	}
	doing(ctx, doingLoad)
	nctx, cancel := context.WithTimeout(ctx, r.o.Config.Timeouts.Navigation)
	defer cancel()
	tr.opens(r.url(u))
	resp, err := tr.page.Navigate(nctx, r.url(u))
	if err != nil {
		return err
	}
	if resp.Status >= 400 {
		return fmt.Errorf("%s answered HTTP %d", resp.URL, resp.Status)
	}
	// Loading may take timeouts.navigation; settling after it, no more
	// than in any step.
	sctx, scancel := context.WithTimeout(ctx, r.o.Config.Timeouts.Step)
	defer scancel()
	r.settle(sctx, tr)
	return nil
}

// settle waits for the page to be quiet, for timeouts.settleMax and at most
// half the step's time left (see budget.go); a page that never settles does
// not fail the step (the next action waits for its own target).
func (r *Runner) settle(ctx context.Context, tr *testRun) {
	r.settleFor(ctx, tr, r.o.Config.Timeouts.SettleQuiet)
}

// settleFor waits for the page to be quiet for quiet (see settle); it
// reports whether the page settled.
func (r *Runner) settleFor(ctx context.Context, tr *testRun, quiet time.Duration) bool {
	wait := settleWithin(ctx, r.o.Config.Timeouts.SettleMax)
	if wait <= 0 {
		return false
	}
	doing(ctx, doingSettle)
	_, err := tr.page.Settle(ctx, browser.SettleOptions{Quiet: quiet, Max: wait})
	return err == nil
}

// settleBrief follows an action: it waits out navigations, requests and
// short timers the action started, with a short quiet window. The next step
// waits for its own element; a full settle comes only when it must look.
func (r *Runner) settleBrief(ctx context.Context, tr *testRun) {
	r.settleFor(ctx, tr, min(r.o.Config.Timeouts.SettleQuiet, 50*time.Millisecond))
}

// handler runs one kind of step. st has its variables resolved; sr is filled in.
type handler func(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error

// handlers maps each step type to what runs it; a test checks it covers step.Types.
var handlers = map[step.Type]handler{
	step.Navigate:     runNavigate,
	step.Click:        runElement,
	step.DblClick:     runElement,
	step.RightClick:   runElement,
	step.TypeText:     runElement,
	step.Clear:        runElement,
	step.Select:       runElement,
	step.AddOption:    runElement,
	step.RemoveOption: runElement,
	step.Press:        runPress,
	step.Hover:        runElement,
	step.Upload:       runUpload,
	step.Drag:         runDrag,
	step.Check:        runElement,
	step.Uncheck:      runElement,
	step.Scroll:       runScroll,
	step.Wait:         runWait,
	step.Accept:       runDialog,
	step.Dismiss:      runDialog,
	step.Expect:       runExpect,
	step.Assert:       runAssert,
}

// Acts run steps through the table, so they join it once it exists.
func init() { handlers[step.Act] = runAct }

func (r *Runner) runStep(ctx context.Context, tr *testRun, i int, st testfile.Step) session.StepResult {
	start := time.Now()
	ctx = r.stepContext(ctx, i)
	sr := session.StepResult{Index: i, Line: st.Pos.Line, Command: st.Command(), Kind: string(st.Type), Cache: "none"}
	tr.at = st.Pos
	if tr.trace != nil {
		tr.trace.stepStart(i, st)
	}
	resolved, secrets, err := testfile.Resolve(st.Step, r.o.Env, tr.unique)
	tr.addSecrets(secrets)
	if err == nil && st.Use != nil {
		sr.Kind = session.KindUse
		err = fmt.Errorf("flow %q is not loaded here: a use step runs from a test file (e2e run)", st.Use.Flow)
	} else if err == nil {
		h, ok := handlers[st.Type]
		if !ok {
			err = fmt.Errorf("step type %s is not supported", st.Type)
		} else {
			err = r.runHandler(ctx, h, tr, st.Step, resolved, &sr)
		}
	}
	err = tr.noteDialogs(&sr, err)
	if gone := rendererGone(ctx); gone != nil {
		// The renderer died during the step: the step fails with that, not
		// with the timeout or cancellation it caused, even when what it
		// waited on (a settle after a click) does not count as failing.
		err = gone
	}
	sr.DurationMS = time.Since(start).Milliseconds()
	if _, ok := errors.AsType[*StaleError](err); ok {
		tr.stale = true
	}
	if err != nil {
		sr.Status = session.StatusFailed
		sr.Error = tr.redact(err.Error())
		if nf, ok := errors.AsType[*NotFoundError](err); ok {
			sr.Nearest, sr.Narrow = nf.advice(tr.redact)
		}
	} else if sr.Status == "" {
		sr.Status = session.StatusPassed
	}
	if tr.trace != nil {
		tr.trace.stepEnd(ctx, tr, &sr)
	}
	r.afterStep(ctx, tr, i, &sr)
	return sr
}

// timeout is the step's own timeout, else timeouts.step (a wait for a fixed
// time has its wait in Timeout, not a timeout).
func (r *Runner) timeout(st step.Step) time.Duration {
	if st.Timeout > 0 && (st.Type != step.Wait || st.Description != "") {
		return st.Timeout
	}
	return r.o.Config.Timeouts.Step
}

func (r *Runner) screenshot(tr *testRun, i int) string {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	png, err := tr.page.Screenshot(ctx)
	if err != nil {
		return ""
	}
	if err := os.MkdirAll(r.o.Screenshots, 0o755); err != nil {
		return ""
	}
	prefix := tr.shots
	if prefix == "" {
		prefix = fmt.Sprintf("run%d", tr.runID)
	}
	name := fmt.Sprintf("%s-%s-step%d.png", prefix, r.fileSlug(tr.test.Name), i+1)
	path := filepath.Join(r.o.Screenshots, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return ""
	}
	return r.shown(path)
}

// shown is an artifact's path as results keep and reports show it:
// relative to the configuration's directory when it lies under it (see
// testfile.ShownPath); Report.Dir says what it is relative to.
func (r *Runner) shown(path string) string { return testfile.ShownPath(r.o.Config.Dir, path) }

// slug is s in lowercase letters and digits joined by dashes, for file names.
func slug(s string) string { return testfile.Spell(s, testfile.FormSlug) }

// fileSlug is the slug of name for a file name, with every secret value
// (in name, or one the slug happens to spell) as the word "redacted".
func (r *Runner) fileSlug(name string) string {
	red := r.o.Redactor
	s := slug(strings.ReplaceAll(red.String(name), testfile.Redacted, " redacted "))
	return strings.ReplaceAll(red.String(s), testfile.Redacted, "redacted")
}

func runNavigate(r *Runner, ctx context.Context, tr *testRun, _, st step.Step, _ *session.StepResult) error {
	return r.open(ctx, tr, st.Value)
}

func needsModel(_ *Runner, _ context.Context, _ *testRun, raw, _ step.Step, _ *session.StepResult) error {
	kind := strings.ToLower(string(raw.Type))
	return fmt.Errorf("needs a model: %s steps are run by the agent, which is not configured (set a model in e2e.yaml or OPENAI_BASE_URL and E2E_MODEL)", kind)
}

// runAssert asks the model to judge the claim on the page as it is once
// settled. The claim keeps its variables unresolved and the page its
// secrets redacted; the verdict's reasoning is kept with the step.
func runAssert(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	if r.o.Judge == nil {
		return needsModel(r, ctx, tr, raw, st, sr)
	}
	r.settle(ctx, tr)
	doing(ctx, doingSnapshot)
	snap, err := tr.page.Snapshot(ctx, browser.SnapshotOptions{})
	if err != nil {
		return err
	}
	if err := r.pageOffOriginNow(ctx, tr); err != nil {
		return err // the page is not sent where it is not the app's
	}
	redactSnapshot(snap, tr.red)
	doing(ctx, doingModel)
	pass, reasoning, calls, err := r.o.Judge.Judge(ctx, snap, raw.Description)
	sr.LLMCalls += calls
	sr.Note = tr.redact(reasoning)
	if err != nil {
		return err
	}
	if !pass {
		return fmt.Errorf("assertion %q does not hold: %s", raw.Description, sr.Note)
	}
	return nil
}

func runWait(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	if st.Description == "" {
		t := time.NewTimer(st.Timeout)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
			return nil
		}
	}
	_, pending, err := r.target(ctx, tr, raw, st, sr)
	if err != nil {
		return err
	}
	r.remember(tr, pending)
	return nil
}

func runPress(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	if st.Description == "" {
		actx, cancel := context.WithTimeout(ctx, r.timeout(st))
		defer cancel()
		if err := tr.page.Press(actx, "", st.Value, browser.ActOptions{}); err != nil {
			return err
		}
		r.settleBrief(ctx, tr)
		return nil
	}
	return runElement(r, ctx, tr, raw, st, sr)
}

// runUpload reads the step's files relative to its test file, then
// chooses them in the element the step describes.
func runUpload(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	files := step.UploadFiles(st.Value)
	for i, f := range files {
		files[i] = testfile.UploadPath(tr.file(), f)
	}
	st.Value = strings.Join(files, "\n")
	return runElement(r, ctx, tr, raw, st, sr)
}

// runDrag finds the element to drag (the step's description) and the one
// to drop it on (its value, located as a description of its own, with its
// own cache entry), then drags one onto the other.
func runDrag(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	from, pendingFrom, err := r.target(ctx, tr, raw, st, sr)
	if err != nil {
		return err
	}
	rawTo := step.Step{Type: step.Drag, Description: raw.Value, Timeout: raw.Timeout}
	stTo := step.Step{Type: step.Drag, Description: st.Value, Timeout: st.Timeout}
	to, pendingTo, err := r.target(ctx, tr, rawTo, stTo, sr)
	if err != nil {
		return fmt.Errorf("drop target: %w", err)
	}
	r.showPage(ctx, tr, from)
	actx, cancel := context.WithTimeout(ctx, r.timeout(st))
	defer cancel()
	doing(ctx, doingAct)
	if err := tr.page.Drag(actx, from, to, browser.ActOptions{Timeout: r.timeout(st), Revealed: revealedNote(tr, sr)}); err != nil {
		return err
	}
	r.remember(tr, pendingFrom)
	r.remember(tr, pendingTo)
	r.settleBrief(ctx, tr)
	return nil
}

// runScroll scrolls the step's element into view: every scroll box around
// it, then the page, as a person scrolls. With a box (its value, from
// `scroll: { in: the Messages panel, to: the Archive button }`), the box is
// looked up after the element, as a description of its own with its own
// cache entry, and must hold the element.
func runScroll(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	if strings.TrimSpace(st.Value) == "" {
		return runElement(r, ctx, tr, raw, st, sr)
	}
	ref, pending, err := r.target(ctx, tr, raw, st, sr)
	if err != nil {
		return err
	}
	rawIn := step.Step{Type: step.Scroll, Description: raw.Value, Timeout: raw.Timeout}
	stIn := step.Step{Type: step.Scroll, Description: st.Value, Timeout: st.Timeout}
	box, pendingIn, err := r.target(ctx, tr, rawIn, stIn, sr)
	if err != nil {
		return fmt.Errorf("scroll box: %w", err)
	}
	in, err := tr.page.Holds(ctx, box, ref)
	if err != nil {
		return err
	}
	if !in {
		return fmt.Errorf("%q is not inside %q: scroll to it on its own, or name the box that holds it", st.Description, st.Value)
	}
	r.showPage(ctx, tr, ref)
	actx, cancel := context.WithTimeout(ctx, r.timeout(st))
	defer cancel()
	doing(ctx, doingAct)
	if err := tr.page.ScrollIntoView(actx, ref, browser.ActOptions{Timeout: r.timeout(st)}); err != nil {
		return err
	}
	r.remember(tr, pending)
	r.remember(tr, pendingIn)
	r.settleBrief(ctx, tr)
	return nil
}

// elementAction does one step type to the element behind ref.
type elementAction func(ctx context.Context, p *browser.Page, ref, value string, o browser.ActOptions) error

// elementActions maps the step types that act on an element to the browser
// action; a test checks every such type has one.
var elementActions = map[step.Type]elementAction{
	step.Click: func(ctx context.Context, p *browser.Page, ref, _ string, o browser.ActOptions) error {
		return p.Click(ctx, ref, o)
	},
	step.DblClick: func(ctx context.Context, p *browser.Page, ref, _ string, o browser.ActOptions) error {
		return p.DoubleClick(ctx, ref, o)
	},
	step.RightClick: func(ctx context.Context, p *browser.Page, ref, _ string, o browser.ActOptions) error {
		return p.RightClick(ctx, ref, o)
	},
	step.Hover: func(ctx context.Context, p *browser.Page, ref, _ string, o browser.ActOptions) error {
		return p.Hover(ctx, ref, o)
	},
	step.Upload: func(ctx context.Context, p *browser.Page, ref, v string, _ browser.ActOptions) error {
		return p.SetFiles(ctx, ref, step.UploadFiles(v))
	},
	step.Scroll: func(ctx context.Context, p *browser.Page, ref, _ string, o browser.ActOptions) error {
		return p.ScrollIntoView(ctx, ref, o)
	},
	step.Check: func(ctx context.Context, p *browser.Page, ref, _ string, o browser.ActOptions) error {
		return p.SetChecked(ctx, ref, true, o)
	},
	step.Uncheck: func(ctx context.Context, p *browser.Page, ref, _ string, o browser.ActOptions) error {
		return p.SetChecked(ctx, ref, false, o)
	},
	step.TypeText: func(ctx context.Context, p *browser.Page, ref, v string, o browser.ActOptions) error {
		return p.Fill(ctx, ref, v, o)
	},
	step.Clear: func(ctx context.Context, p *browser.Page, ref, _ string, o browser.ActOptions) error {
		return p.Clear(ctx, ref, o)
	},
	step.Select: func(ctx context.Context, p *browser.Page, ref, v string, o browser.ActOptions) error {
		_, err := p.SelectOption(ctx, ref, []string{v}, o)
		return err
	},
	step.AddOption: func(ctx context.Context, p *browser.Page, ref, v string, o browser.ActOptions) error {
		_, err := p.AddOption(ctx, ref, v, o)
		return err
	},
	step.RemoveOption: func(ctx context.Context, p *browser.Page, ref, v string, o browser.ActOptions) error {
		_, err := p.RemoveOption(ctx, ref, v, o)
		return err
	},
	step.Press: func(ctx context.Context, p *browser.Page, ref, v string, o browser.ActOptions) error {
		return p.Press(ctx, ref, v, o)
	},
}

// runElement finds the step's element (cache first) and acts on it.
func runElement(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	ref, pending, err := r.target(ctx, tr, raw, st, sr)
	if err != nil {
		return err
	}
	r.showPage(ctx, tr, ref)
	actx, cancel := context.WithTimeout(ctx, r.timeout(st))
	defer cancel()
	doing(ctx, doingAct)
	act, ok := elementActions[st.Type]
	if !ok {
		return fmt.Errorf("step type %s does not act on an element", st.Type)
	}
	err = act(actx, tr.page, ref, st.Value, browser.ActOptions{Timeout: r.timeout(st), Revealed: revealedNote(tr, sr)})
	if err != nil {
		return err
	}
	r.remember(tr, pending)
	r.settleBrief(ctx, tr)
	return nil
}

// revealedNote is the ActOptions.Revealed of a step: the step's note says
// which container was hovered to show its hidden target (in the page's
// words, so with every secret value redacted).
func revealedNote(tr *testRun, sr *session.StepResult) func(string) {
	return func(what string) {
		sr.Note = strings.TrimPrefix(sr.Note+"; hovered "+tr.redact(what)+" to reveal it", "; ")
	}
}

// actsOn says whether steps of type t act on their element, so that a
// target shown only when its container is hovered is fit for them (the
// action hovers first). For the others (expect, wait) such an element is
// not visible and is not a target.
func actsOn(t step.Type) bool {
	_, ok := elementActions[t]
	return ok || t == step.Drag
}

// withoutHoverOnly drops from s, in place, the nodes shown only when a
// container is hovered, with everything under them.
func withoutHoverOnly(s *ax.Snapshot) {
	var prune func(ns []*ax.Node) []*ax.Node
	prune = func(ns []*ax.Node) []*ax.Node {
		out := ns[:0]
		for _, n := range ns {
			if n.States.HoverOnly {
				continue
			}
			n.Children = prune(n.Children)
			out = append(out, n)
		}
		return out
	}
	s.Root = prune(s.Root)
}

// remember holds a freshly located element for the cache, written when
// the test passes and the policy writes.
func (r *Runner) remember(tr *testRun, e *session.CacheEntry) {
	if e == nil || !r.writes() {
		return
	}
	e.Identity = tr.identity[e.Key]
	scrubEntry(tr.redact, e)
	tr.hold(pendingWrite{write: func(ctx context.Context) error {
		if err := r.o.Store.PutCache(ctx, e); err != nil {
			return fmt.Errorf("save element cache: %w", err)
		}
		return nil
	}})
}

// scrubEntry keeps every secret value out of a cache row before it is
// stored: a selector that names one (the text of a status that shows it)
// is dropped, since a redacted selector would find nothing, and the
// recorded node, its context and the intent are redacted (a row that no
// longer reads as the page does misses, and the element is located again).
func scrubEntry(red func(string) string, e *session.CacheEntry) {
	kept := e.Selectors[:0]
	for _, s := range e.Selectors {
		if red(s.Value) == s.Value {
			kept = append(kept, s)
		}
	}
	e.Selectors = kept
	e.Node.Name, e.Node.Text = red(e.Node.Name), red(e.Node.Text)
	for k, v := range e.Node.Attrs {
		e.Node.Attrs[k] = red(v)
	}
	for i, n := range e.Context.Near {
		e.Context.Near[i] = red(n)
	}
	for i := range e.Context.Path {
		e.Context.Path[i].Name = red(e.Context.Path[i].Name)
	}
	for k, v := range e.Intent.Attributes {
		e.Intent.Attributes[k] = red(v)
	}
	for i := range e.Intent.Related {
		e.Intent.Related[i].Name = red(e.Intent.Related[i].Name)
	}
}

// target returns the ref of the step's element (see findTarget) and tells
// Options.OnTarget what it decided.
func (r *Runner) target(ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) (string, *session.CacheEntry, error) {
	if r.o.OnTarget == nil && tr.trace == nil {
		return r.findTarget(ctx, tr, raw, st, sr)
	}
	calls := sr.LLMCalls
	tr.look, tr.chosen = 0, nil
	ref, pending, err := r.findTarget(ctx, tr, raw, st, sr)
	e := TargetEvent{Test: tr.test.Name, Step: tr.index, Description: st.Description, Ref: ref, Look: tr.look, Page: tr.page, Err: err}
	if err == nil && pending != nil && tr.chosen != nil {
		e.Node, e.Why = tr.chosen.Node, tr.chosen.Why
	}
	switch {
	case err != nil:
		e.Reason = "error"
		if nf, ok := errors.AsType[*NotFoundError](err); ok {
			e.Reason = nf.Reason
		}
	case pending == nil:
		e.Via = "cache"
	case sr.Status == session.StatusReidentified:
		e.Via = "re-identified"
	case sr.LLMCalls > calls:
		e.Via = "model"
	default:
		e.Via = "locate"
	}
	if r.o.OnTarget != nil {
		r.o.OnTarget(ctx, e)
	}
	if tr.trace != nil {
		tr.trace.targetFound(ctx, tr, e)
	}
	return ref, pending, err
}

// findTarget returns the ref of the step's element. A cache entry whose
// selectors agree on an element that still meets the intent is a hit;
// anything else is a miss with a named reason, and the element is located
// from a snapshot (and returned as a pending cache entry to write once the
// step succeeds).
func (r *Runner) findTarget(ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) (string, *session.CacheEntry, error) {
	key := r.key(tr, raw)
	var entry *session.CacheEntry
	if r.reads() {
		var err error
		if entry, err = r.readEntry(ctx, key, sr); err != nil {
			return "", nil, fmt.Errorf("read element cache: %w", err)
		}
	}
	acts := actsOn(st.Type)
	keptRole := false // re-identification's best candidate has the recorded role
	if entry != nil {
		ref, reason := r.replay(ctx, tr, entry, acts)
		if ref == "" && (reason == "no-match" || reason == "hidden" || reason == "selector-conflict" || reason == "place-only") {
			// The page may still be on its way: look again once it is quiet.
			r.settle(ctx, tr)
			ref, reason = r.replay(ctx, tr, entry, acts)
		}
		if err := r.pageOffOrigin(tr); err != nil {
			return "", nil, err // the page went elsewhere while the step looked
		}
		if ref != "" {
			sr.Status, sr.Cache = session.StatusHit, "hit"
			if t, ok := r.o.Store.(interface {
				TouchCache(context.Context, session.CacheKey) error
			}); ok && (r.writes() || r.strict()) {
				_ = t.TouchCache(ctx, key)
			}
			r.adoptEntry(tr, entry)
			return ref, nil, nil
		}
		sr.Cache, sr.MissReason = "miss", reason
		// The selectors missed: the element may still be there, changed.
		var pending *session.CacheEntry
		if ref, pending, keptRole = r.reidentify(ctx, tr, raw, entry, acts, sr); ref != "" {
			return ref, pending, nil
		}
	}
	if r.strict() {
		why := "no entry"
		if sr.MissReason != "" {
			why = sr.MissReason
		}
		return "", nil, &StaleError{What: raw.Description, Reason: why}
	}
	deadline := stepDeadline(ctx, r.timeout(st))
	settled := r.settleFor(ctx, tr, r.o.Config.Timeouts.SettleQuiet)
	askedModel := false
	var modelErr error      // the model's failure: the step keeps looking without it
	var last *locate.Result // the last look, for the error when time runs out
	var lastSnap *ax.Snapshot
	for {
		doing(ctx, doingSnapshot)
		lookStart := time.Now()
		snap, err := tr.page.Snapshot(ctx, browser.SnapshotOptions{TextBoxes: locate.Positional(st.Description)})
		if err != nil {
			// Time ran out while looking again (the page call's own bound can
			// end a moment before the step's): the step failed for what its
			// last look found, not for the look it could not finish.
			if last != nil && (ctx.Err() != nil || errors.Is(err, browser.ErrTimeout) || errors.Is(err, context.DeadlineExceeded)) {
				return "", nil, notFound(lastSnap, st.Description, last).withModel(modelErr)
			}
			return "", nil, err
		}
		if err := r.pageOffOrigin(tr); err != nil {
			return "", nil, err // the page went elsewhere while the step looked
		}
		if !acts {
			withoutHoverOnly(snap)
		}
		res, err := r.o.Locator.Locate(ctx, snap, st.Description)
		tr.look = time.Since(lookStart)
		sr.LLMCalls += res.ModelCalls
		if err != nil {
			// Time ran out while this look was being read: the step failed
			// for what its last finished look found, as above.
			if last != nil && (ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded)) {
				return "", nil, notFound(lastSnap, st.Description, last).withModel(modelErr)
			}
			return "", nil, err
		}
		if keptRole && res.Target != nil && locate.LooseRole(st.Description, entry.Node.Role, res.Target.Node) {
			// Re-located to an element the description's role word fits
			// only loosely, where it fit the recorded one fully and the
			// page still holds one like it of that role (re-identification
			// declined it): another element, not the one the test meant.
			// (A page rebuilt with other roles, say clickable divs for
			// buttons, has none, and the loose fit is all there is.)
			n := res.Target.Node
			res = locate.Result{Candidates: res.Candidates, Intent: res.Intent, Reason: locate.ReasonNoMatch, ModelCalls: res.ModelCalls,
				Detail: fmt.Sprintf("%q was recorded on a %s; %s fits its role word only loosely", st.Description, entry.Node.Role, n.Line())}
		}
		if res.Target == nil && r.o.Model != nil && !askedModel {
			// The local locator is not sure: the model is asked, once a step.
			askedModel = true
			if err := r.pageOffOriginNow(ctx, tr); err != nil {
				return "", nil, err // the page is not sent where it is not the app's
			}
			// The model sees the description with its variables unresolved
			// and a page in which no secret value appears.
			redactSnapshot(snap, tr.red)
			doing(ctx, doingModel)
			mres, err := r.o.Model.Locate(ctx, snap, raw.Description)
			sr.LLMCalls += mres.ModelCalls
			switch {
			case err != nil && ctx.Err() != nil:
				return "", nil, fmt.Errorf("%q: %w", st.Description, err) // the model's error says "locate with the model"
			case err != nil:
				// The model failed (unreachable, 5xx after its retries):
				// the element may still appear, so the local locator keeps
				// looking until the step's time is up, and the miss then
				// says what the model did.
				modelErr = err
			case mres.Target != nil:
				res = mres
			}
		}
		if res.Target != nil {
			if sr.Cache == "miss" {
				sr.Status = session.StatusRelocated
			} else {
				sr.Status = session.StatusLocated
			}
			ref := res.Target.Node.Ref
			tr.chosen = res.Target
			c, err := tr.page.Capture(ctx, ref, r.o.Config.BannedAttributes)
			if err != nil {
				return "", nil, err
			}
			if res.Target.Node.Role == "text" {
				c.Node.Role = "text" // a run of text its element owns
			}
			return ref, &session.CacheEntry{Key: key, Project: r.o.Project, Test: tr.owner(), Description: raw.Description,
				Selectors: c.Selectors, Node: c.Node, Context: c.Context, Intent: r.slotIntent(tr, raw, res.Intent)}, nil
		}
		if settled && tr.authoring() && res.Reason == locate.ReasonNoMatch {
			// Authoring (a preview, studio --new, an edited step): the page
			// has settled and nothing on it matches; the person typing is
			// told at once rather than after the step timeout, which stays
			// for runs, where the element may still be on its way.
			nf := notFound(snap, st.Description, &res)
			nf.Settled = true
			return "", nil, nf
		}
		if (res.Reason == locate.ReasonAmbiguous && (r.o.Model == nil || askedModel)) || time.Now().After(deadline) || ctx.Err() != nil {
			return "", nil, notFound(snap, st.Description, &res).withModel(modelErr)
		}
		// Not there yet: wait for the page to change, then look again.
		last, lastSnap = &res, snap
		doing(ctx, doingWait)
		waitChange(ctx, tr.page, deadline)
	}
}

// replay resolves a cache entry in the page and checks its intent. It
// returns the ref on a hit, else the miss reason. An element shown only
// when its container is hovered is a hit for a step that acts on it (acts),
// which hovers first, and hidden for any other.
func (r *Runner) replay(ctx context.Context, tr *testRun, e *session.CacheEntry, acts bool) (ref, reason string) {
	res, err := tr.page.ResolveCached(ctx, e.Selectors)
	if err != nil {
		return "", "error: " + err.Error()
	}
	if res.Reason == "" && res.Place != nil && !keptAtPlace(res.Place, e.Node) {
		// Found by its place alone, and nothing of the recorded element's
		// own is left there: its text, tag and class names all changed (a
		// notice where a status message stood). Never a hit.
		res.Reason = "place-only"
	}
	if res.Reason == "place-only" && res.Node != nil {
		// Only its place found it: never a hit, but when the element there
		// no longer meets the intent, that is the better reason.
		if _, why := r.checkCached(ctx, tr, res, e, acts); why != "" {
			return "", why
		}
	}
	if res.Reason != "" {
		return "", res.Reason
	}
	return r.checkCached(ctx, tr, res, e, acts)
}

// keptAtPlace says whether the element found at a cache row's place
// (its other selectors finding nothing) keeps something of the recorded
// node besides its place: the same tag and, when either has class names a
// person wrote, one of them in common. A row recorded before nodes were
// kept keeps the place's word.
func keptAtPlace(p *browser.Place, rec session.NodeSnapshot) bool {
	if rec.Tag == "" {
		return true
	}
	if p.Tag != rec.Tag {
		return false
	}
	now, was := strings.Fields(p.Class), strings.Fields(rec.Attrs["class"])
	if len(now) == 0 && len(was) == 0 {
		return true
	}
	for _, c := range now {
		if slices.Contains(was, c) {
			return true
		}
	}
	return false
}

// checkCached checks that res, the element the cache found for e, is
// visible (or shown by hovering, for a step that acts) and still meets e's
// intent. It returns res's ref, else why not.
func (r *Runner) checkCached(ctx context.Context, tr *testRun, res *browser.Resolved, e *session.CacheEntry, acts bool) (ref, reason string) {
	if !res.Visible && !(acts && res.HoverOnly) {
		return "", "hidden"
	}
	snap := &ax.Snapshot{}
	node := res.Node
	intent := r.resolveIntent(tr, e.Intent)
	text := intent.Attributes["role"] == "text"
	if needsLayout(intent) || text || locate.NeedsPage(res.Ancestors, intent) || locate.Renamed(node, intent) {
		s, err := tr.page.Snapshot(ctx, browser.SnapshotOptions{TextBoxes: positional(intent)})
		if err != nil {
			return "", "error: " + err.Error()
		}
		snap = s
		if text {
			// A text target is one of the runs of text its element owns,
			// read as the locator read it.
			return replayText(s, res, intent)
		}
		if n := s.Find(res.Ref); n != nil {
			node = n
		}
	}
	if ok, why := locate.Check(snap, node, res.Ancestors, intent); !ok {
		return "", why
	}
	return res.Ref, ""
}

// Re-identification accepts its best candidate only when it is this alike
// to the recorded node and this far ahead of the next (see
// TestVersionPairs and BENCHMARKS.md for how they were set).
const (
	reidMinScore = 0.5
	reidMargin   = 0.1
)

// reidentify looks for e's element by its likeness to the node recorded
// with the row, after its selectors missed. The best candidate is the
// step's element when it is clearly ahead of the next and still meets the
// intent; the row is then rewritten (new selectors and node, the intent
// kept) when the test passes. It returns "" when no candidate is taken,
// with why in the step's note; kept says the best candidate, taken or not,
// has the recorded role (the element may still be there, changed).
func (r *Runner) reidentify(ctx context.Context, tr *testRun, raw step.Step, e *session.CacheEntry, acts bool, sr *session.StepResult) (string, *session.CacheEntry, bool) {
	if e.Node.Tag == "" {
		return "", nil, false
	}
	doing(ctx, doingReidentify)
	found, err := tr.page.Reidentify(ctx, e.Node, e.Context)
	if err != nil || found == nil {
		return "", nil, false
	}
	kept := found.Best.Node != nil && found.Best.Node.Role == e.Node.Role && found.Score >= reidMinScore
	why := ""
	switch {
	case found.Score < reidMinScore:
		why = fmt.Sprintf("no element like it (best %.2f)", found.Score)
	case found.Second != nil && found.Score-found.SecondScore < reidMargin:
		why = fmt.Sprintf("%s (%.2f) and %s (%.2f) are alike", line(found.Best), found.Score, line(found.Second), found.SecondScore)
	}
	renamed := ""
	if why == "" {
		if ref, reason := r.checkCached(ctx, tr, found.Best, e, acts); ref == "" {
			why = fmt.Sprintf("%s (%.2f) does not fit: %s", line(found.Best), found.Score, reason)
			if ok, rwhy := r.checkRenamed(ctx, tr, found, e, acts); ok {
				why, renamed = "", strings.TrimPrefix(reason, locate.ReasonAttributeChanged+": ")
			} else if rwhy != "" {
				why += "; " + rwhy
			}
		}
	}
	if why != "" {
		sr.Note = strings.TrimPrefix(sr.Note+"; not re-identified: "+tr.redact(why), "; ")
		return "", nil, kept
	}
	ref := found.Best.Ref
	c, err := tr.page.Capture(ctx, ref, r.o.Config.BannedAttributes)
	if err != nil {
		return "", nil, kept
	}
	if e.Node.Role == "text" {
		c.Node.Role = "text"
	}
	sr.Status = session.StatusReidentified
	sr.Reidentified = &session.Reidentification{Score: found.Score}
	if renamed != "" {
		sr.Note = strings.TrimPrefix(sr.Note+"; "+tr.redact("renamed ("+renamed+"): update the step's description"), "; ")
	}
	if found.Second != nil {
		sr.Reidentified.RunnerUp, sr.Reidentified.Second = found.SecondScore, tr.redact(line(found.Second))
	}
	return ref, &session.CacheEntry{Key: e.Key, Project: r.o.Project, Test: tr.owner(), Description: raw.Description,
		Selectors: c.Selectors, Node: c.Node, Context: c.Context, Intent: e.Intent}, kept
}

// checkRenamed says whether found's best candidate, which failed the
// intent check, is the recorded element renamed (locate.CheckRenamed):
// re-identified clearly, anchored by more than its text, of the recorded
// role, and no other element named by the description. why is set when it
// was weighed and refused. Only a step that acts takes a renamed element:
// an expectation (or a wait) checks that the thing described is there, and
// an element that no longer reads as described is not it.
func (r *Runner) checkRenamed(ctx context.Context, tr *testRun, found *browser.Reidentified, e *session.CacheEntry, acts bool) (ok bool, why string) {
	if !acts {
		return false, "not renamed: an expectation checks the element its description names"
	}
	b := found.Best
	if !found.Anchored || b.Node == nil || b.Node.Role != e.Node.Role || e.Node.Role == "text" || (!b.Visible && !(acts && b.HoverOnly)) {
		return false, ""
	}
	// An element that reads as a neighbour recorded beside the element is
	// that neighbour, moved into the place of a removed one.
	for _, t := range e.Context.Near {
		if strings.EqualFold(strings.Join(strings.Fields(t), " "), strings.Join(strings.Fields(b.Node.Name), " ")) {
			return false, fmt.Sprintf("not renamed: %q was its neighbour when recorded", b.Node.Name)
		}
	}
	intent := r.resolveIntent(tr, e.Intent)
	s, err := tr.page.Snapshot(ctx, browser.SnapshotOptions{TextBoxes: positional(intent)})
	if err != nil {
		return false, ""
	}
	node := b.Node
	if n := s.Find(b.Ref); n != nil {
		node = n
	}
	if ok, why := locate.CheckRenamed(s, node, b.Ancestors, intent); !ok {
		return false, "not renamed: " + why
	}
	return true, ""
}

// line is a found element as a snapshot line.
func line(res *browser.Resolved) string {
	if res == nil || res.Node == nil {
		return "(none)"
	}
	return res.Node.Line()
}

// replayText checks a cached text target: the element the selectors found
// must own a run of text in the snapshot that meets the intent. It returns
// the ref on a hit, else why not (the first run's reason).
func replayText(s *ax.Snapshot, res *browser.Resolved, intent session.Intent) (ref, reason string) {
	reason = locate.ReasonAttributeChanged + ": no text"
	first := true
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if ref != "" {
			return false
		}
		if n.Role != "text" || n.Ref != res.Ref {
			return true
		}
		ok, why := locate.Check(s, n, nil, intent)
		if ok {
			ref = res.Ref
		} else if first {
			reason, first = why, false
		}
		return true
	})
	if ref != "" {
		return ref, ""
	}
	return "", reason
}

// positional says an intent places its element against another: checking
// it needs the boxes of text runs too.
func positional(in session.Intent) bool {
	for _, rel := range in.Related {
		switch rel.Relation {
		case "next to", "above", "below", "left of", "right of":
			return true
		}
	}
	return false
}

// needsLayout says whether checking the intent needs the whole page (the
// position of other elements), not only the element and its ancestors.
func needsLayout(in session.Intent) bool {
	for _, rel := range in.Related {
		if rel.Relation != "in" {
			return true
		}
	}
	return false
}

// waitChange returns when the page changes or settles again, or at deadline.
func waitChange(ctx context.Context, p *browser.Page, deadline time.Time) {
	left := time.Until(deadline)
	if left <= 0 {
		return
	}
	wctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	_, _ = p.Settle(wctx, browser.SettleOptions{Quiet: 100 * time.Millisecond, Max: min(left, time.Second)})
	if _, err := p.Settle(wctx, browser.SettleOptions{Quiet: 50 * time.Millisecond, Max: min(left, 250*time.Millisecond)}); err == nil {
		// settled: give the page a beat before the next look
		t := time.NewTimer(min(left, 100*time.Millisecond))
		defer t.Stop()
		select {
		case <-wctx.Done():
		case <-t.C:
		}
	}
}

// NotFoundError says a description matched nothing, or several elements equally.
type NotFoundError struct {
	Description string
	Reason      string // locate.ReasonNoMatch or locate.ReasonAmbiguous
	Detail      string
	// Settled says the look that matched nothing was made, while
	// authoring, on a page that had settled, and was not repeated until
	// the step's timeout: the answer came at once.
	Settled    bool
	Candidates []locate.Candidate
	// Nearest (for no match) and Narrow (for an ambiguity) are advice for
	// the person reading the failure; the runner never acts on them.
	Nearest []locate.Near
	Narrow  []locate.Narrowing
	// Model is the model's failure when it was asked and could not answer
	// (the local locator went on looking without it); nil otherwise.
	Model error
}

// withModel is e with the model's failure beside the miss.
func (e *NotFoundError) withModel(err error) *NotFoundError {
	e.Model = err
	return e
}

// Unwrap returns the model's failure, if any.
func (e *NotFoundError) Unwrap() error { return e.Model }

// notFound is the error of a look that found no target in snap, with its
// advice: the elements nearest the description when nothing matched, how
// to narrow it when several did. It is computed only here, once a step has
// failed, never on the way to a target.
func notFound(snap *ax.Snapshot, description string, res *locate.Result) *NotFoundError {
	e := &NotFoundError{Description: description, Reason: res.Reason, Detail: res.Detail, Candidates: res.Candidates}
	if res.Reason == locate.ReasonAmbiguous {
		e.Narrow = locate.Narrow(snap, description, *res)
	} else {
		e.Nearest = locate.Nearest(snap, description)
	}
	return e
}

// narrowShown is how many narrowings a message lists.
const narrowShown = 3

// Error ends with the advice: `; nearest: button "Sign in" (0.87)`, or
// `; add "in the Alice row" or "in the Bob row"` (`; say "the second Menu
// button" …` when an ordinal tells them apart).
func (e *NotFoundError) Error() string {
	var b strings.Builder
	if e.Reason == locate.ReasonAmbiguous {
		fmt.Fprintf(&b, "%q matches several elements equally", e.Description)
	} else {
		fmt.Fprintf(&b, "no element matches %q", e.Description)
		if e.Settled {
			b.WriteString(" on the settled page")
		}
	}
	if e.Detail != "" && e.Reason == locate.ReasonAmbiguous {
		// The locator's detail names the description again ("5 equal
		// candidates for "the Menu button": …"): said once is enough.
		b.WriteString(": " + strings.Replace(e.Detail, " candidates for "+strconv.Quote(e.Description)+": ", " candidates: ", 1))
	}
	if len(e.Nearest) > 0 {
		b.WriteString("; nearest: ")
		for i, n := range e.Nearest {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n.Label)
			if n.Count > 1 {
				fmt.Fprintf(&b, " ×%d", n.Count)
			}
			fmt.Fprintf(&b, " (%.2f)", n.Score)
		}
	}
	if len(e.Narrow) > 0 {
		verb, clauses := "add", true
		for _, n := range e.Narrow {
			clauses = clauses && n.Add != ""
		}
		if !clauses {
			verb = "say"
		}
		var says []string
		for i, n := range e.Narrow {
			if i == narrowShown {
				break
			}
			say := n.Description
			if clauses {
				say = n.Add
			}
			if strings.Contains(say, `"`) {
				says = append(says, "`"+say+"`") // `the "Save" button`, not "the \"Save\" button"
			} else {
				says = append(says, `"`+say+`"`)
			}
		}
		b.WriteString("; " + verb + " ")
		if len(says) > 1 {
			b.WriteString(strings.Join(says[:len(says)-1], ", ") + " or ")
		}
		b.WriteString(says[len(says)-1])
		if len(e.Narrow) > narrowShown {
			fmt.Fprintf(&b, " (%d of %d)", narrowShown, len(e.Narrow))
		}
	}
	if e.Model != nil {
		b.WriteString("; the model could not help: " + e.Model.Error())
	}
	return b.String()
}

// advice is the error's advice for a step result, through redact.
func (e *NotFoundError) advice(redact func(string) string) ([]session.NearElement, []session.Narrowing) {
	var near []session.NearElement
	for _, n := range e.Nearest {
		near = append(near, session.NearElement{Element: redact(n.Label), Ref: n.Node.Ref, Score: n.Score, Count: n.Count})
	}
	var narrow []session.Narrowing
	for _, n := range e.Narrow {
		narrow = append(narrow, session.Narrowing{Element: redact(n.Label), Ref: n.Node.Ref, Add: redact(n.Add), Description: redact(n.Description)})
	}
	return near, narrow
}

// redactSnapshot replaces every form of every secret value in the
// snapshot's title, URL, names, texts and states (hints too) with a
// placeholder, in place.
func redactSnapshot(s *ax.Snapshot, red *redact.Redactor) {
	if red.Len() == 0 {
		return
	}
	s.Title = redactCut(red, s.Title)
	s.URL = redactCut(red, s.URL)
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		f := red.String
		if n.Cut {
			f = func(v string) string { return redactCut(red, v) }
		}
		n.Name = f(n.Name)
		n.Text = f(n.Text)
		n.States.Value = f(n.States.Value)
		n.States.Placeholder = f(n.States.Placeholder)
		n.States.URL = f(n.States.URL)
		n.States.Hint = f(n.States.Hint)
		return true
	})
}

// redactCut redacts v; when the snapshot's text caps cut v short, the start
// of a secret the cut ends in is redacted too ([redact.Redactor.Cut]).
func redactCut(red *redact.Redactor, v string) string {
	kept, more, ok := ax.CutPrefix(v)
	if !ok {
		return red.String(v)
	}
	return fmt.Sprintf("%s… %d more characters", red.Cut(kept), more)
}

// redact is s with every secret value known to the run redacted.
func (tr *testRun) redact(s string) string { return tr.red.String(s) }

// addSuiteSecrets gives the redactor the value of every secret the tests
// use, so that no output written before a test resolves its secrets (a
// parallel worker's, a failure in the URL) holds one.
func (r *Runner) addSuiteSecrets(tests []*testfile.Test) {
	for _, t := range tests {
		vars, _ := t.Vars() // a test whose variables do not parse fails on them when it runs
		for _, v := range vars {
			if v.Kind != testfile.VarSecret {
				continue
			}
			if val, ok := r.o.Env(v.Name); ok {
				r.o.Redactor.Add(val)
			}
		}
		// The secrets of the test's session: those it gives its flow and
		// those of the flow's own steps.
		if s := r.o.Config.Session(t.Session); s != nil {
			vars, _ := (&testfile.Test{Steps: []testfile.Step{{Kind: testfile.UseKind, Use: &s.Use}}}).Vars()
			for _, v := range vars {
				if val, ok := r.o.Env(v.Name); ok && v.Kind == testfile.VarSecret {
					r.o.Redactor.Add(val)
				}
			}
		}
	}
}
