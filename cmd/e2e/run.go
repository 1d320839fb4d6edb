package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/plural"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

type runFlags struct {
	suiteFlags
	model   modelFlags
	heal    string
	jsonOut string
	cache   string
	ci      ciFlags // ci.go
}

func newRunCmd(g *globals) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   "run [paths…]",
		Short: "Run tests (files, directories or globs; default: the tests e2e.yaml names)",
		Example: `  e2e run
  e2e run tests/login.e2e.yaml
  e2e run --json results.json 'tests/**/*.e2e.yaml'
  e2e run --ci --workers 4 --shard 1/3 --retries 1 --reporter junit=junit.xml,html=e2e-report`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.ci.prepare(); err != nil {
				return err
			}
			if f.jsonOut != "" {
				f.ci.json = append(f.ci.json, f.jsonOut)
			}
			// The flags and the model are settled first, so that every
			// problem of every file, those the model's absence makes
			// (assert steps) among them, is reported at once.
			calls := &runCalls{} // its recorder is the store, once open
			var m *model
			var merr error
			cfg, tests, err := loadChecked(f.config, args, func(cfg *testfile.Config) testfile.PreflightOptions {
				if f.baseURL != "" {
					cfg.BaseURL = f.baseURL
				}
				if f.db != "" {
					cfg.DB = f.db
				}
				m, merr = configuredModel(cfg, f.model, calls, g.red)
				return testfile.PreflightOptions{BaseURL: cfg.BaseURL, CheckKeys: browser.CheckKeys, NoModel: m == nil && merr == nil}
			})
			if err != nil {
				return err
			}
			if err := checkBrowser(g, cfg); err != nil {
				return err
			}
			if merr != nil {
				return merr
			}
			if err := checkApp(cmd.Context(), g, cfg, f.baseURL != ""); err != nil {
				return err
			}
			rep, err := runTests(cmd.Context(), g, cfg, tests, f, m, calls, cmd)
			if err != nil {
				return err
			}
			if rep.Stale() {
				return &exitError{code: exitStale}
			}
			if code := f.ci.exitCode(rep); code != exitOK {
				return &exitError{code: code}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	f.suiteFlags.register(cmd, "the current directory", "relative test URLs")
	fl.StringVar(&f.jsonOut, "json", "", "write the results as JSON to this file")
	fl.StringVar(&f.cache, "cache", runner.CacheReadWrite, "cache policy: read-write, read-only, off, or strict (a missing or stale entry fails the test with exit code 4 instead of calling the model)")
	fl.StringVar(&f.heal, "heal", "stage", "when a recorded act no longer replays: off (fail), stage (heal, pass, keep the heal for review) or accept (heal and replace)")
	f.model.register(cmd, "descriptions the local locator cannot resolve")
	f.ci.register(cmd)
	return cmd
}

// loadTests reads the configuration and every test file; any problem in any
// file is reported, all of them, before a browser starts.
func loadTests(dir string, args []string) (*testfile.Config, []*testfile.Test, error) {
	return loadChecked(dir, args, nil)
}

// loadChecked is loadTests that also checks each file with
// testfile.Preflight, with the options prepare returns once the
// configuration is read (prepare may change it, for the flags), so that
// the problems of every file, the parser's and those of the steps that did
// parse (unset variables, relative URLs with no base URL, press keys,
// assert steps with no model), are reported at once, in file order: as a
// *parseErrors (exit code 2), before a browser starts or anything is
// written. A nil prepare checks nothing more.
func loadChecked(dir string, args []string, prepare func(*testfile.Config) testfile.PreflightOptions) (*testfile.Config, []*testfile.Test, error) {
	cfg, err := loadConfig(dir)
	if err != nil {
		return nil, nil, err
	}
	var opts *testfile.PreflightOptions
	if prepare != nil {
		o := prepare(cfg)
		opts = &o
	}
	paths, err := testfile.Discover(cfg, args)
	if err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("no test files found (looked for %v under %s)", cfg.Tests, cfg.Dir)
	}
	var tests []*testfile.Test
	problems := &parseErrors{}
	flows := loadFlows(cfg, problems)
	if l := flows.LinkSessions(cfg); len(l) > 0 {
		problems.addConfig(l)
	}
	used := map[*testfile.Flow]bool{}
	var named []*testfile.Test // every test that parsed, for the sessions they name
	for _, p := range paths {
		// Problems name the file as a terminal opens it from here; reports,
		// as the same on every machine.
		t, err := testfile.ParseFileAll(testfile.NearPath(p))
		var list testfile.List
		if err != nil && !errors.As(err, &list) {
			problems.add(err) // the file could not be read
			continue
		}
		if t != nil {
			list = append(slices.Clip(list), flows.LinkTest(t)...)
			list = append(list, testfile.CheckSession(cfg, t)...)
			markUsed(t.Steps, used)
			if s := cfg.Session(t.Session); s != nil && s.Use.Def != nil {
				used[s.Use.Def] = true
				markUsed(s.Use.Steps, used)
			}
			named = append(named, t)
		}
		if t != nil && opts != nil {
			for _, l := range testfile.Preflight([]*testfile.Test{t}, *opts) {
				list = append(slices.Clip(list), l...)
			}
		}
		slices.SortStableFunc(list, func(a, b *testfile.Error) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Col - b.Col
		})
		if len(list) > 0 {
			problems.add(list) // keeps at most testfile.MaxShown of them all
			continue
		}
		t.Shown = testfile.ShownPath(cfg.Dir, p)
		tests = append(tests, t)
	}
	if opts != nil {
		// The flows the tests use, each once, in file order.
		var fs []*testfile.Flow
		for _, f := range flows.All() {
			if used[f] {
				fs = append(fs, f)
			}
		}
		for _, l := range testfile.PreflightFlows(fs, *opts) {
			problems.addFlow(l)
		}
		if l := testfile.PreflightSessions(testfile.UsedSessions(cfg, named), *opts); len(l) > 0 {
			problems.addConfig(l)
		}
	}
	if problems.any() {
		return nil, nil, problems
	}
	return cfg, tests, nil
}

// loadFlows reads the flow files e2e.yaml names and checks them: their
// own problems, two flows with one name, a flow that uses itself, and use
// steps in flows that name no flow or give the wrong parameters, each
// added to problems. The flows that parsed are returned all the same, for
// the tests to be linked against.
func loadFlows(cfg *testfile.Config, problems *parseErrors) *testfile.Flows {
	flows, errs := testfile.LoadFlows(cfg)
	for _, err := range errs {
		problems.addFlow(err)
	}
	for _, l := range flows.Check() {
		problems.addFlow(l)
	}
	for _, l := range flows.CheckFlowUses() {
		problems.addFlow(l)
	}
	return flows
}

// markUsed marks the flows that steps use, and those they use in turn.
func markUsed(steps []testfile.Step, used map[*testfile.Flow]bool) {
	for _, s := range steps {
		if s.Use != nil && s.Use.Def != nil {
			used[s.Use.Def] = true
			markUsed(s.Use.Steps, used)
		}
	}
}

// checkBrowser reports, before anything starts, a browser the run cannot
// launch because of the configuration, blamed at its line in e2e.yaml
// (exit 2) rather than on a flag that was not given: browser.chrome that is
// not an executable, and browser.headless: false with no display; then a
// browser that cannot be found at all (--chrome, $E2E_CHROME, PATH).
func checkBrowser(g *globals, cfg *testfile.Config) error {
	if g.browserURL != "" {
		return nil
	}
	if g.chrome == "" && cfg.Browser.Chrome != "" {
		if _, err := exec.LookPath(cfg.Browser.Chrome); err != nil {
			return cfg.Problem("browser.chrome", fmt.Sprintf("%s is not an executable; name a Chrome or Chromium binary, or remove the key to look one up on PATH (or pass --chrome)", cfg.Browser.Chrome))
		}
	}
	if !g.headed && !cfg.Browser.Headless && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return cfg.Problem("browser.headless", "false needs a display, and there is none (DISPLAY is unset): set it to true, or run under xvfb-run")
	}
	// --chrome, $E2E_CHROME or PATH with no browser: said before the app
	// is checked, as a launch would say it.
	if _, err := browser.FindChrome(runBrowserOptions(g, cfg).Chrome); err != nil {
		return err
	}
	return nil
}

// preflight runs testfile.Preflight over the tests of a run, before any
// browser starts or anything is written: every problem, each at its
// file:line:col, as a *parseErrors (exit code 2), or nil.
func preflight(cfg *testfile.Config, tests []*testfile.Test) error {
	lists := testfile.Preflight(tests, testfile.PreflightOptions{BaseURL: cfg.BaseURL, CheckKeys: browser.CheckKeys})
	if len(lists) == 0 {
		return nil
	}
	problems := &parseErrors{}
	for _, l := range lists {
		problems.add(l)
	}
	return problems
}

// parseErrors holds the first testfile.MaxShown problems over all test
// files and counts the rest, so that memory stays bounded however many
// files have problems; it prints them, then exits 2.
type parseErrors struct {
	files  int     // test files with problems
	shown  []error // each a testfile.List or another error of one file
	n      int     // problems in shown
	hidden int     // problems left out
	// flows are the flow files with problems (by path, or by the error
	// that kept one from being read), which may come in several lists.
	flows map[string]bool
	// config says e2e.yaml has problems found once it was read (its
	// sessions).
	config bool
}

// addConfig records problems of e2e.yaml found after it was read.
func (p *parseErrors) addConfig(err error) {
	p.config = true
	p.keep(err)
}

// add records the problems of one test file.
func (p *parseErrors) add(err error) {
	p.files++
	p.keep(err)
}

// addFlow records problems of a flow file.
func (p *parseErrors) addFlow(err error) {
	if p.flows == nil {
		p.flows = map[string]bool{}
	}
	var list testfile.List
	if errors.As(err, &list) && len(list) > 0 {
		p.flows[list[0].File] = true
	} else {
		p.flows[err.Error()] = true
	}
	p.keep(err)
}

// keep keeps the problems of one file, as many as there is room for.
func (p *parseErrors) keep(err error) {
	var list testfile.List
	if !errors.As(err, &list) {
		list = nil
	}
	budget := testfile.MaxShown - p.n
	switch {
	case list == nil && budget > 0:
		p.shown = append(p.shown, err)
		p.n++
	case list == nil:
		p.hidden++
	default:
		keep := min(len(list), budget)
		if keep > 0 {
			kept := make(testfile.List, keep)
			for i, e := range list[:keep] {
				c := *e
				c.Source = strings.Clone(e.Source) // not the whole file's text
				kept[i] = &c
			}
			p.shown = append(p.shown, kept)
		}
		p.n += keep
		p.hidden += len(list) - keep
	}
}

func (p *parseErrors) Error() string {
	flows := len(p.flows)
	if p.config {
		var parts []string
		if p.files > 0 {
			parts = append(parts, plural.Count(p.files, "test file"))
		}
		if flows > 0 {
			parts = append(parts, plural.Count(flows, "flow file"))
		}
		if len(parts) == 0 {
			return testfile.ConfigFile + " has problems"
		}
		return strings.Join(parts, ", ") + " and " + testfile.ConfigFile + " have problems"
	}
	switch {
	case flows == 0:
		return fmt.Sprintf("%s %s problems", plural.Count(p.files, "test file"), plural.Word(p.files, "has", "have"))
	case p.files == 0:
		return fmt.Sprintf("%s %s problems", plural.Count(flows, "flow file"), plural.Word(flows, "has", "have"))
	}
	return fmt.Sprintf("%s and %s have problems", plural.Count(p.files, "test file"), plural.Count(flows, "flow file"))
}

// any says whether a file has problems.
func (p *parseErrors) any() bool { return p.files > 0 || len(p.flows) > 0 || p.config }

// print writes the problems kept, with their excerpts, and then how many
// more there are.
func (p *parseErrors) print(w io.Writer) {
	for _, err := range p.shown {
		fmt.Fprintln(w, strings.TrimRight(err.Error(), "\n"))
	}
	if p.hidden > 0 {
		fmt.Fprintln(w, testfile.More(p.hidden))
	}
}

// runTests runs the tests with m, the configured model or nil, whose calls
// are recorded through calls in the store it opens.
func runTests(ctx context.Context, g *globals, cfg *testfile.Config, tests []*testfile.Test, f *runFlags, m *model, calls *runCalls, cmd *cobra.Command) (*runner.Report, error) {
	db, err := openRunStore(ctx, cfg, store.WithRedactor(g.red))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	calls.rec = db
	if why := db.ReadOnly(); why != "" {
		fmt.Fprintf(cmd.OutOrStdout(), "store: read-only, %s: this run records no results and writes no cache rows or heals\n", why)
	}
	if tests, err = f.ci.selectTests(ctx, db, tests); err != nil {
		return nil, err
	}
	opts := runner.Options{Config: cfg, Store: db, Out: cmd.OutOrStdout(), Version: toolVersion(), Variants: f.variants,
		HealPolicy: f.heal, Cache: f.cache, OnRunStart: func(id int64) { calls.runID.Store(id) }, Screenshots: filepath.Join(cfg.StateDir(), "screenshots"),
		Traces:   filepath.Join(cfg.StateDir(), "traces"),
		Redactor: g.red}
	opts.Group = f.ci.runGroup
	if f.ci.shardN > 1 {
		opts.Shard = fmt.Sprintf("%d/%d", f.ci.shardI, f.ci.shardN)
	}
	if m != nil {
		m.wire(&opts)
		fmt.Fprintf(cmd.OutOrStdout(), "model: %s (for new act goals, assert steps, and elements the local locator is not sure of)\n\n", m.about)
	}
	bo := runBrowserOptions(g, cfg)
	b, err := launchBrowser(ctx, bo)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	opts.Browser = b
	f.ci.apply(ctx, &opts, func(ctx context.Context) (*browser.Browser, error) { return launchBrowser(ctx, bo) }, cmd.OutOrStdout())
	defer f.ci.stop()
	r, err := runner.New(opts)
	if err != nil {
		return nil, err
	}
	rep, err := r.Run(ctx, tests)
	if err != nil {
		return nil, err
	}
	if err := f.ci.report(ctx, db, rep, cmd.OutOrStdout(), cmd.ErrOrStderr()); err != nil {
		return nil, err
	}
	if err := db.Failure(); err != nil {
		// The store itself failed during the run (a damaged page, a lock
		// held too long, a full disk): the failed tests are its doing;
		// exit as the store's commands do, with what to do (oneLine).
		return nil, fmt.Errorf("the store failed during the run: %w", err)
	}
	return rep, nil
}

// unwrapPath returns the cause of a *fs.PathError ("no such file or
// directory"), which the caller names the path of itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// loadConfig finds e2e.yaml from dir ("" is the current directory) upwards.
func loadConfig(dir string) (*testfile.Config, error) {
	if dir == "" {
		dir = "."
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("--config %s: %w", dir, unwrapPath(err))
	}
	return testfile.LoadConfig(dir)
}
