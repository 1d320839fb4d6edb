package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/export"
	"github.com/e2e-dev/e2e/session/locate"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/redact"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

type exportFlags struct {
	suiteFlags
	out             string
	model           string
	writeConfig     bool
	requireRecorded bool
}

func newExportCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the tests as code for another test runner",
	}
	f := &exportFlags{}
	pw := &cobra.Command{
		Use:   "playwright [paths…]",
		Short: "Write the tests as Playwright Test specs that run without e2e",
		Long: `Writes one *.spec.ts per test file into --out. The tests run once, with the
element cache read-only and no model, so that every element a step finds is
given the Playwright locator that finds it alone on that page (a role and
name first, CSS last). A step with nothing recorded is written from its
description with a TODO comment; --require-recorded makes that an error.`,
		Example: `  e2e export playwright --out e2e-playwright
  e2e export playwright tests/login.e2e.yaml --out pw --playwright-config`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return exportPlaywright(cmd.Context(), g, f, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := pw.Flags()
	fl.StringVar(&f.out, "out", "", "directory to write the specs to (required)")
	fl.BoolVar(&f.writeConfig, "playwright-config", false, "also write playwright.config.ts (base URL, viewport, the installed Chromium)")
	fl.BoolVar(&f.requireRecorded, "require-recorded", false, "fail when a step has nothing recorded instead of guessing its locator")
	f.suiteFlags.register(pw, "the current directory", "relative test URLs")
	fl.StringVar(&f.model, "model", "", "the model the tests were recorded with, which their cache keys name (default: model.name in e2e.yaml, else $E2E_MODEL); it is not called")
	cmd.AddCommand(pw)
	return cmd
}

func exportPlaywright(ctx context.Context, g *globals, f *exportFlags, args []string, out, errOut io.Writer) error {
	if f.out == "" {
		return errors.New("export playwright needs --out DIR")
	}
	cfg, tests, err := loadTests(f.config, args)
	if err != nil {
		return err
	}
	if f.baseURL != "" {
		cfg.BaseURL = f.baseURL
	}
	if f.db != "" {
		cfg.DB = f.db
	}
	if err := preflight(cfg, tests); err != nil {
		return err
	}
	db, err := openRunStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	b, err := launchBrowser(ctx, runBrowserOptions(g, cfg))
	if err != nil {
		return err
	}
	defer b.Close()
	rec := newExportRecorder(tests, cfg.BannedAttributes)
	if rec.elsewhere, err = recordedElsewhere(ctx, db, tests, exportApp(cfg)); err != nil {
		return err
	}
	r, err := runner.New(runner.Options{Config: cfg, Store: db, Browser: b, Version: toolVersion(), Variants: f.variants,
		Cache: runner.CacheReadOnly, HealPolicy: runner.HealOff, KeepGoing: true, Redactor: g.red,
		Screenshots: filepath.Join(cfg.StateDir(), "screenshots"),
		Events:      rec.event, OnTarget: rec.target, Agent: recordedAgent(cfg, f.model)})
	if err != nil {
		return err
	}
	rep, err := r.Run(ctx, tests)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	var specs [][]byte
	var problems []error
	paths := make([]string, len(tests))
	for i, t := range tests {
		paths[i] = specPath(f.out, cfg.Dir, t.File)
		et := rec.export(t, rep.Tests[i])
		if s := cfg.Session(t.Session); s != nil && s.Use.Def != nil {
			et.Session = s
		}
		spec, err := export.Spec(et, export.Options{RequireRecorded: f.requireRecorded, OutDir: filepath.Dir(paths[i])})
		if err != nil {
			problems = append(problems, err)
			continue
		}
		specs = append(specs, spec)
	}
	if len(problems) > 0 {
		// One problem a line: a step each, with why it has nothing recorded.
		n := 0
		for _, p := range problems {
			for _, line := range strings.Split(p.Error(), "\n") {
				if line != "" {
					fmt.Fprintln(errOut, "e2e: "+line)
					n++
				}
			}
		}
		return &exitError{code: exitUsage, err: fmt.Errorf("export: %s with nothing recorded here; no spec written", plural.Count(n, "step"))}
	}
	for i, t := range tests {
		path := paths[i]
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		// A secret's value never enters a spec: variables become
		// process.env, and anything the page showed of one (a name a
		// locator uses), in any form the spec writes it in, is redacted.
		spec := g.red.String(string(specs[i]))
		if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		redacted := ""
		if spec != string(specs[i]) {
			redacted = ", a secret's value the page showed is redacted as " + redact.Marker + ": change those locators by hand"
		}
		fmt.Fprintf(out, "wrote %s (%s%s%s)\n", path, plural.Count(len(t.Steps), "step"), rec.notes(t, rep.Tests[i]), redacted)
	}
	if f.writeConfig {
		path := filepath.Join(f.out, "playwright.config.ts")
		conf := export.Config(export.ConfigOptions{BaseURL: cfg.BaseURL, Width: cfg.Browser.Viewport.Width,
			Height: cfg.Browser.Viewport.Height, Executable: cfg.Browser.Chrome, Headless: cfg.Browser.Headless})
		if err := os.WriteFile(path, conf, 0o644); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		fmt.Fprintf(out, "wrote %s\n", path)
	}
	return nil
}

// specPath is where the spec of the test file at file goes: under out, in
// the directories it has under the project's (so that two login.e2e.yaml in
// different directories do not collide).
func specPath(out, projectDir, file string) string {
	name := export.SpecName(file)
	if a, err := filepath.Abs(file); err == nil {
		if d, err := filepath.Abs(projectDir); err == nil {
			if rel, err := filepath.Rel(d, filepath.Dir(a)); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
				return filepath.Join(out, rel, name)
			}
		}
	}
	return filepath.Join(out, name)
}

// recordedAgent is the agent configuration a run with the configured model
// puts in its cache keys (see model.wire), so that the export reads the
// rows those runs wrote; the model itself is never called by an export.
func recordedAgent(cfg *testfile.Config, name string) session.AgentConfig {
	if name == "" {
		name = cfg.Model.Name
	}
	name = agent.ConfigFromEnv(agent.Config{Model: name}).Model
	if name == "" {
		return session.AgentConfig{}
	}
	return session.AgentConfig{Model: name, Prompt: agent.PromptVersion()}
}

// exportRecorder collects, while the tests run, the Playwright locator of
// every element each step looks up. It is called on the run's goroutine.
type exportRecorder struct {
	banned []string
	// elsewhere holds, by test name and then instruction digest, the other
	// apps (origins) that a step was recorded against.
	elsewhere map[string]map[string][]string
	byFile    map[string]*exportTest // by the path events and results show (Test.ShownFile)
	cur       *exportTest
}

type exportTest struct {
	test  *testfile.Test
	steps []export.Step
	index int // the step running
	sub   int // the act sub-step running, -1 for the step itself
	// path holds, while a use step's flow runs, the records of the use
	// steps it is in (path[0] the test's own); cur is the record of the
	// flow's step running and kind that step, nil when none is.
	path []*export.Step
	cur  *export.Step
	kind step.Step
	page *browser.Page
	// gone holds, for each expect-hidden step, the locator its element had
	// the last time it was on the page before that step.
	gone map[int]export.Target
}

func newExportRecorder(tests []*testfile.Test, banned []string) *exportRecorder {
	r := &exportRecorder{banned: banned, byFile: map[string]*exportTest{}}
	for _, t := range tests {
		r.byFile[t.ShownFile()] = &exportTest{test: t, steps: make([]export.Step, len(t.Steps)), sub: -1, gone: map[int]export.Target{}}
	}
	return r
}

func (r *exportRecorder) event(e session.Event) {
	switch e := e.(type) {
	case session.TestStarted:
		r.cur = r.byFile[e.File]
	case session.StepStarted:
		t := r.cur
		if t == nil || e.Index >= len(t.steps) {
			return
		}
		t.index, t.sub = e.Index, e.Sub
		r.lookAhead(t, e.Index)
		if e.Sub < 0 {
			t.path, t.cur = nil, nil
			if t.test.Steps[e.Index].Use != nil {
				t.path = []*export.Step{&t.steps[e.Index]}
			}
			return
		}
		s, err := step.Parse(e.Command)
		if e.Depth > 0 {
			// A step of a flow: recorded under the use step that ran it.
			if e.Depth > len(t.path) {
				return
			}
			t.path = t.path[:e.Depth]
			parent := t.path[e.Depth-1]
			rec := &export.Step{}
			parent.Flow = append(parent.Flow, rec)
			t.cur, t.kind, t.sub = rec, s, -1
			if err != nil { // a use step, whose flow's steps follow
				t.path = append(t.path, rec)
			}
			return
		}
		if err != nil {
			return
		}
		if t.cur != nil { // a step of an act in a flow
			t.cur.Act = append(t.cur.Act, export.ActStep{Step: s})
			return
		}
		t.steps[e.Index].Act = append(t.steps[e.Index].Act, export.ActStep{Step: s})
	}
}

func (r *exportRecorder) target(ctx context.Context, e runner.TargetEvent) {
	t := r.cur
	if t == nil || e.Ref == "" || t.index >= len(t.steps) {
		return
	}
	t.page = e.Page
	st := &t.steps[t.index]
	kind := t.test.Steps[t.index].Step
	if t.cur != nil {
		st, kind = t.cur, t.kind
	}
	if t.sub >= 0 && len(st.Act) > 0 {
		kind = st.Act[len(st.Act)-1].Step
	}
	hint := export.Hint(e.Description)
	if kind.Type == step.Expect && (kind.Expect == step.ExpectText || kind.Expect == step.ExpectValue) {
		hint.NoText = true
		if resolved, _, err := testfile.ResolveString(kind.Value, func(string) (string, bool) { return "", false }, func(p string) string { return p }); err == nil {
			hint.Avoid = resolved
		} else if !strings.Contains(kind.Value, "{{") {
			hint.Avoid = kind.Value
		}
	}
	tg := export.Target{Cached: e.Via == "cache"}
	loc, err := e.Page.PlaywrightLocator(ctx, e.Ref, hint, r.banned)
	if err != nil {
		// The element was found (in a frame or a shadow root, say) but no
		// locator could be checked for it: the guess says so.
		tg.Locator, tg.Unchecked = export.Guess(e.Description), err.Error()
	} else {
		tg.Locator = loc
	}
	if t.sub >= 0 && len(st.Act) > 0 {
		a := &st.Act[len(st.Act)-1]
		a.Targets = append(a.Targets, tg)
		return
	}
	st.Targets = append(st.Targets, tg)
}

// lookAhead finds, before step i (or a step of its act) acts, the elements
// of the expect-hidden steps soon after it: the element an expect-hidden step checks is gone
// when that step runs, so its locator is taken while it is still there.
func (r *exportRecorder) lookAhead(t *exportTest, i int) {
	if t.page == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var snap *ax.Snapshot
	for j := i + 1; j < len(t.test.Steps) && j <= i+3; j++ {
		st := t.test.Steps[j].Step
		if st.Type != step.Expect || st.Expect != step.ExpectHidden || strings.Contains(st.Description, "{{") {
			continue
		}
		if snap == nil {
			var err error
			if snap, err = t.page.Snapshot(ctx, browser.SnapshotOptions{TextBoxes: true}); err != nil {
				return
			}
		}
		res, err := locate.Local{}.Locate(ctx, snap, st.Description)
		if err != nil || res.Target == nil || res.Target.Node == nil || res.Target.Node.Ref == "" {
			continue
		}
		loc, err := t.page.PlaywrightLocator(ctx, res.Target.Node.Ref, export.Hint(st.Description), r.banned)
		if err != nil {
			continue
		}
		t.gone[j] = export.Target{Locator: loc, Cached: true}
	}
}

// export is what the run recorded for t, as the exporter takes it.
func (r *exportRecorder) export(t *testfile.Test, res session.TestResult) export.Test {
	et := r.byFile[t.ShownFile()]
	steps := make([]export.Step, len(et.steps))
	copy(steps, et.steps)
	for j, tg := range et.gone {
		steps[j].Targets = []export.Target{tg}
	}
	for _, sr := range res.Steps {
		if sr.Index < len(steps) && t.Steps[sr.Index].Type == step.Act && sr.Status == session.StatusFailed {
			if n := len(steps[sr.Index].Act); n > 0 {
				steps[sr.Index].Missing = fmt.Sprintf("did not replay here (step %d: %s)", n, oneLineText(sr.Error))
			}
			steps[sr.Index].Act = nil // a trajectory that did not replay is not one to export
		}
	}
	for i, st := range t.Steps {
		s := &steps[i]
		recorded := s.Act != nil
		if st.Type != step.Act {
			recorded = !st.Step.TargetsElement() || (len(s.Targets) > 0 && s.Targets[0].Cached)
		}
		if recorded || s.Missing != "" || strings.Contains(st.Description, "{{") {
			continue
		}
		if apps := r.elsewhere[t.Name][instructionDigest(st.Description)]; len(apps) > 0 {
			s.Missing = "recorded against " + strings.Join(apps, " and ") + "; pass --base-url to export it"
		}
	}
	return export.Test{Test: t, Steps: steps}
}

func oneLineText(s string) string { return strings.Join(strings.Fields(s), " ") }

// exportApp is the app identity the export run's cache keys name: cache.app
// in e2e.yaml, else the base URL's origin (as the runner's).
func exportApp(cfg *testfile.Config) string {
	if cfg.Cache.App != "" {
		return cfg.Cache.App
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || u.Host == "" {
		return cfg.BaseURL
	}
	return u.Scheme + "://" + u.Host
}

// instructionDigest is how a cache key's identity names an instruction.
func instructionDigest(s string) string {
	sum := sha256.Sum256([]byte(session.Normalize(s)))
	return hex.EncodeToString(sum[:])
}

// recordedElsewhere finds, for each of the tests, the steps recorded
// against an app other than app (a run with another --base-url): by test
// name, then instruction digest, the apps, sorted. A row whose identity
// does not decode is left out.
func recordedElsewhere(ctx context.Context, db *store.DB, tests []*testfile.Test, app string) (map[string]map[string][]string, error) {
	out := map[string]map[string][]string{}
	for _, t := range tests {
		if _, done := out[t.Name]; done {
			continue
		}
		rows, err := db.CacheRows(ctx, store.CacheFilter{Test: t.Name})
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		byStep := map[string][]string{}
		for _, row := range rows {
			var id struct {
				App         string `json:"app"`
				Instruction string `json:"instruction"`
			}
			if json.Unmarshal(row.Identity, &id) != nil || id.App == "" || id.App == app || slices.Contains(byStep[id.Instruction], id.App) {
				continue
			}
			byStep[id.Instruction] = append(byStep[id.Instruction], id.App)
		}
		for _, apps := range byStep {
			slices.Sort(apps)
		}
		out[t.Name] = byStep
	}
	return out, nil
}

// notes says what the spec of t leaves to do: steps written from their
// description, steps that failed in the export run.
func (r *exportRecorder) notes(t *testfile.Test, res session.TestResult) string {
	et := r.export(t, res)
	guessed, failed := 0, 0
	for i, st := range t.Steps {
		s := et.Steps[i]
		switch {
		case st.Type == step.Act && s.Act == nil:
			guessed++
		case st.Step.TargetsElement() && (len(s.Targets) == 0 || !s.Targets[0].Cached || s.Targets[0].Unchecked != ""):
			guessed++
		}
	}
	for _, sr := range res.Steps {
		if sr.Status == session.StatusFailed {
			failed++
		}
	}
	var b strings.Builder
	if guessed > 0 {
		fmt.Fprintf(&b, ", %s to check: see the TODO comments", plural.Count(guessed, "step"))
	}
	if failed > 0 {
		fmt.Fprintf(&b, ", %s failed in the export run", plural.Count(failed, "step"))
	}
	return b.String()
}
