package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/plural"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
	"github.com/e2e-dev/e2e/tui"
)

type studioFlags struct {
	suiteFlags
	model  modelFlags
	newURL string
	name   string
	out    string
	heals  bool
	step   bool
}

func newStudioCmd(g *globals) *cobra.Command {
	f := &studioFlags{}
	cmd := &cobra.Command{
		Use:   "studio [FILE.e2e.yaml]",
		Short: "The terminal studio: run and step a test, record a new one, review heals",
		Long: `The studio shows a test as it runs: the page's accessibility tree, the steps
the agent proposes (each waits for you: approve, edit, reject with a reason,
approve the rest of the act, or skip) and the trajectory with each step's
cache status. Cached replay steps run without asking unless --step is given.`,
		Example: `  e2e studio tests/cart.e2e.yaml
  e2e studio --step tests/cart.e2e.yaml
  e2e studio --new http://localhost:8080/product --name "add to cart"
  e2e studio --new /product     (a path under baseURL)
  e2e studio --heals`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case f.heals:
				return studioHeals(cmd, f)
			case f.newURL != "":
				if len(args) > 0 {
					return errors.New("studio: give a test file or --new URL, not both")
				}
				return studioNew(cmd, g, f)
			case len(args) == 1:
				return studioTest(cmd, g, f, args[0])
			}
			return errors.New("studio: give a test file, --new URL or --heals")
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.newURL, "new", "", "record a new test starting at this URL, or at this path under baseURL (/product)")
	fl.StringVar(&f.name, "name", "", "the new test's name (default: from the URL's path)")
	fl.StringVar(&f.out, "out", "", "where to write the new test (default: NAME.e2e.yaml beside e2e.yaml)")
	fl.BoolVar(&f.heals, "heals", false, "review staged heals")
	fl.BoolVar(&f.step, "step", false, "hold every step, cached replay too, until you approve it")
	f.suiteFlags.register(cmd, "the test file's directory, else the current one", "relative test URLs")
	f.model.register(cmd, "goals and unsure elements")
	return cmd
}

// appOptions runs the studio on the command's input and output when they
// are not the terminal's (tests).
func appOptions(cmd *cobra.Command) []tui.AppOption {
	in, out := cmd.InOrStdin(), unwrap(cmd.OutOrStdout())
	if in == os.Stdin && out == os.Stdout {
		return nil
	}
	return []tui.AppOption{tui.WithIO(in, out)}
}

// studioConfig loads e2e.yaml from --config, else from dir upwards.
func studioConfig(f *studioFlags, dir string) (*testfile.Config, error) {
	d := f.config
	if d == "" {
		d = dir
	}
	cfg, err := loadConfig(d)
	if err != nil {
		return nil, err
	}
	if f.baseURL != "" {
		cfg.BaseURL = f.baseURL
	}
	if f.db != "" {
		cfg.DB = f.db
	}
	return cfg, nil
}

func studioHeals(cmd *cobra.Command, f *studioFlags) error {
	cfg, err := studioConfig(f, "")
	if err != nil {
		return err
	}
	db, err := openRunStore(cmd.Context(), cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	app := tui.NewApp(tui.Options{Mode: tui.ModeHeals, Heals: db, Reviewer: reviewer()}, appOptions(cmd)...)
	return app.RunContext(cmd.Context())
}

// errorScreen shows why a test cannot be opened, until the engineer quits.
func errorScreen(cmd *cobra.Command, file string, err error) error {
	app := tui.NewApp(tui.Options{Mode: tui.ModeError, File: file, Err: err}, appOptions(cmd)...)
	if rerr := app.RunContext(cmd.Context()); rerr != nil {
		return rerr
	}
	return &exitError{code: exitUsage, err: err}
}

// studioSession is what a studio session wires together: the store, the
// browser, the model and the runner, talking to the studio by events.
type studioSession struct {
	cfg   *testfile.Config
	db    *store.DB
	b     *browser.Browser
	app   *tui.App
	opts  runner.Options
	calls *runCalls
}

// publishCalls records model calls and tells the studio about each.
type publishCalls struct {
	rec session.CallRecorder
	pub session.Events
}

func (p publishCalls) RecordModelCall(ctx context.Context, c *session.ModelCall) error {
	err := p.rec.RecordModelCall(ctx, c)
	p.pub.Publish(session.ModelCalled{Call: *c})
	return err
}

// openStudioSession wires a session on db for app; close closes both
// the browser and db.
func openStudioSession(ctx context.Context, g *globals, f *studioFlags, cfg *testfile.Config, db *store.DB, app *tui.App) (*studioSession, error) {
	s := &studioSession{cfg: cfg, app: app, db: db}
	s.calls = &runCalls{rec: publishCalls{rec: db, pub: app.Publish}}
	m, err := configuredModel(cfg, f.model, s.calls, g.red)
	if err != nil {
		return nil, err
	}
	s.opts = runner.Options{Config: cfg, Store: db, Version: toolVersion(), Variants: f.variants, HealPolicy: runner.HealStage,
		OnRunStart: func(id int64) { s.calls.runID.Store(id) }, Screenshots: filepath.Join(cfg.StateDir(), "screenshots"),
		Events: app.Publish, Gate: app.Gate(), Redactor: g.red}
	if m != nil {
		m.wire(&s.opts)
	}
	bo := runBrowserOptions(g, cfg)
	b, err := launchBrowser(ctx, bo)
	if err != nil {
		return nil, err
	}
	s.b = b
	s.opts.Browser = b
	return s, nil
}

func (s *studioSession) close() {
	s.b.Close()
}

// studioTest opens a test file: it runs at once, and again (or with an act
// re-recorded) when asked.
func studioTest(cmd *cobra.Command, g *globals, f *studioFlags, file string) error {
	if _, err := os.Stat(file); err != nil {
		// Nothing to show on a screen: one line, as e2e run says it.
		return &exitError{code: exitUsage, err: fmt.Errorf("studio: %w", err)}
	}
	t, err := testfile.ParseFile(file)
	if err != nil {
		return errorScreen(cmd, file, err)
	}
	cfg, err := studioConfig(f, filepath.Dir(file))
	if err != nil {
		return errorScreen(cmd, file, err)
	}
	if errs := testfile.LinkFlows(cfg, []*testfile.Test{t}); len(errs) > 0 {
		return errorScreen(cmd, file, errs[0])
	}
	if lists := testfile.Preflight([]*testfile.Test{t}, testfile.PreflightOptions{BaseURL: cfg.BaseURL, CheckKeys: browser.CheckKeys}); len(lists) > 0 {
		return errorScreen(cmd, file, lists[0])
	}
	if err := checkBrowser(g, cfg); err != nil {
		return errorScreen(cmd, file, err)
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	db, err := openRunStore(ctx, cfg, store.WithRedactor(g.red))
	if err != nil {
		return errorScreen(cmd, file, err)
	}
	defer db.Close()
	cmds := make(chan tui.Command, 8)
	app := tui.NewApp(tui.Options{Mode: tui.ModeRun, Title: t.Name, File: file, Gate: tui.NewGate(f.step), Reviewer: reviewer(), Heals: db,
		Control: func(c tui.Command) { send(ctx, cmds, c) }}, appOptions(cmd)...)
	s, err := openStudioSession(ctx, g, f, cfg, db, app)
	if err != nil {
		return errorScreen(cmd, file, err)
	}
	defer s.close()
	var wg sync.WaitGroup
	wg.Add(1)
	app.Go(func() {
		defer wg.Done()
		rerecord := -1
		for {
			opts := s.opts
			if rerecord >= 0 {
				opts.Rerecord = map[int]bool{rerecord: true}
			}
			r, err := runner.New(opts)
			if err == nil {
				_, err = r.Run(ctx, []*testfile.Test{t})
			}
			app.Send(tui.RunDone{Err: err})
			select {
			case <-ctx.Done():
				return
			case c := <-cmds:
				if ra, ok := c.(tui.RunAgain); ok {
					rerecord = ra.Rerecord
				}
			}
		}
	})
	// SIGHUP (the terminal closed) ends ctx, which quits the studio as q does.
	err = app.RunContext(ctx)
	cancel() // stops the run; a held step's gate returns
	wg.Wait()
	return err
}

// send hands c to the session's worker unless the studio is closing.
func send(ctx context.Context, ch chan<- tui.Command, c tui.Command) {
	select {
	case ch <- c:
	case <-ctx.Done():
	}
}

// studioNew records a new test: typed steps run at once, goals go to the
// agent (each proposed step waits for a decision), and w writes the file.
func studioNew(cmd *cobra.Command, g *globals, f *studioFlags) error {
	cfg, err := studioConfig(f, "")
	if err != nil {
		return err
	}
	start, u, err := newTestStart(f.newURL, cfg)
	if err != nil {
		return err
	}
	name := f.name
	if name == "" {
		name = nameFromPath(u.Path)
	}
	out := f.out
	if out == "" {
		out = filepath.Join(cfg.Dir, slugName(name)+".e2e.yaml")
	}
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("studio --new: %s exists; choose another --name or --out", out)
	}
	if err := checkBrowser(g, cfg); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	db, err := openRunStore(ctx, cfg, store.WithRedactor(g.red))
	if err != nil {
		return err
	}
	defer db.Close()
	cmds := make(chan tui.Command, 8)
	app := tui.NewApp(tui.Options{Mode: tui.ModeNew, Title: name, File: out, Gate: tui.NewGate(false), Reviewer: reviewer(), Heals: db,
		Control: func(c tui.Command) { send(ctx, cmds, c) }}, appOptions(cmd)...)
	s, err := openStudioSession(ctx, g, f, cfg, db, app)
	if err != nil {
		return err
	}
	defer s.close()
	var wg sync.WaitGroup
	wg.Add(1)
	app.Go(func() {
		defer wg.Done()
		r, err := runner.New(s.opts)
		if err != nil {
			app.Send(tui.Notice{Text: err.Error(), Err: true})
			return
		}
		live, err := r.Record(ctx, name, out, start)
		if err != nil {
			app.Send(tui.Notice{Text: err.Error(), Err: true})
			return
		}
		defer live.Close(ctx)
		var lines []string // the test file's step lines, as typed
		for {
			var c tui.Command
			select {
			case <-ctx.Done():
				return
			case c = <-cmds:
			}
			switch c := c.(type) {
			case tui.AddStep:
				st, line, err := typedStep(c.Line)
				if err != nil {
					app.Send(tui.Notice{Text: err.Error(), Err: true})
					continue
				}
				sr := live.Step(ctx, st)
				if sr.Status == session.StatusFailed {
					app.Send(tui.Notice{Text: "not kept (it failed): " + oneLine(errors.New(sr.Error)), Err: true})
					continue
				}
				lines = append(lines, line)
				app.Send(tui.Notice{Text: fmt.Sprintf("%s kept; w writes %s", plural.Count(len(lines), "step"), filepath.Base(out))})
			case tui.WriteTest:
				if err := writeNewTest(out, name, start, lines); err != nil {
					app.Send(tui.Notice{Text: err.Error(), Err: true})
					continue
				}
				app.Send(tui.Notice{Text: fmt.Sprintf("wrote %s (%s)", filepath.Base(out), plural.Count(len(lines), "step"))})
			}
		}
	})
	err = app.RunContext(ctx) // SIGHUP (the terminal closed) quits it as q does
	cancel()
	wg.Wait()
	return err
}

// newTestStart is where studio --new starts: the URL as the new test file
// keeps it (a path under the base URL when it is one) and the URL it opens.
// A path (/product) is relative to baseURL; with no baseURL that is a
// configuration error (exit 2), said as the check before a run says it.
// An absolute URL with no baseURL makes its origin the base URL.
func newTestStart(raw string, cfg *testfile.Config) (string, *url.URL, error) {
	base := strings.TrimRight(cfg.BaseURL, "/")
	if testfile.IsRelativeURL(raw) {
		first, _, _ := strings.Cut(strings.TrimPrefix(raw, "/"), "/")
		if !strings.HasPrefix(raw, "/") && strings.Contains(first, ":") { // localhost:8080/product
			return "", nil, fmt.Errorf("studio --new %q: want a URL with its scheme (http://%s) or a path under baseURL (/product)", raw, raw)
		}
		if base == "" {
			return "", nil, &exitError{code: exitUsage, err: fmt.Errorf("studio --new %q is relative but there is no base URL: add baseURL to e2e.yaml or pass --base-url", raw)}
		}
		start := "/" + strings.TrimPrefix(raw, "/")
		u, err := url.Parse(base + start)
		if err != nil || u.Host == "" {
			return "", nil, fmt.Errorf("studio --new %q: baseURL %q and the path do not make a URL", raw, cfg.BaseURL)
		}
		return start, u, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", nil, fmt.Errorf("studio --new %q: want an http(s) URL or a path under baseURL (/product)", raw)
	}
	start := raw
	if base != "" && strings.HasPrefix(start, base+"/") {
		start = strings.TrimPrefix(start, base)
	} else if base == "" {
		cfg.BaseURL = u.Scheme + "://" + u.Host
		start = u.RequestURI()
	}
	return start, u, nil
}

// looksLikeStep says whether a typed line starts like a step of the test
// file form, a lowercase word and a colon ("click: …").
func looksLikeStep(line string) bool {
	i := strings.Index(line, ":")
	if i <= 0 {
		return false
	}
	for _, c := range line[:i] {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// typedStep reads a line typed in a new test: a step in the test-file form
// (click: the Sign in button), or else a goal for the agent. It returns the
// step and its line in the test file.
func typedStep(line string) (testfile.Step, string, error) {
	line = strings.TrimSpace(line)
	src := "name: typed\nsteps:\n  - " + line + "\n"
	t, err := testfile.Parse("typed step", []byte(src))
	if err == nil && len(t.Steps) == 1 {
		return t.Steps[0], line, nil
	}
	if looksLikeStep(line) {
		if list, ok := errors.AsType[testfile.List](err); ok && len(list) > 0 {
			return testfile.Step{}, "", fmt.Errorf("%s", list[0].Msg)
		}
		return testfile.Step{}, "", err
	}
	goal := "act: " + strconv.Quote(line)
	t, err = testfile.Parse("typed goal", []byte("name: typed\nsteps:\n  - "+goal+"\n"))
	if err != nil || len(t.Steps) != 1 || t.Steps[0].Type != step.Act {
		return testfile.Step{}, "", fmt.Errorf("not a step and not a goal: %q", line)
	}
	return t.Steps[0], goal, nil
}

// writeNewTest writes the recorded test, checking first that it parses, in
// one rename so that no half-written file is ever seen.
func writeNewTest(path, name, start string, lines []string) error {
	if len(lines) == 0 {
		return errors.New("nothing to write yet: type a step or a goal first")
	}
	var b strings.Builder
	b.WriteString("name: " + strconv.Quote(name) + "\n")
	b.WriteString("url: " + strconv.Quote(start) + "\n")
	b.WriteString("steps:\n")
	for _, l := range lines {
		b.WriteString("  - " + l + "\n")
	}
	if _, err := testfile.Parse(path, []byte(b.String())); err != nil {
		return fmt.Errorf("the recorded test does not parse: %w", err)
	}
	return testfile.WriteFile(path, []byte(b.String()))
}

// nameFromPath names a test after its URL's path: /product → "product".
func nameFromPath(p string) string {
	p = strings.Trim(p, "/")
	if p == "" {
		return "home"
	}
	return strings.ReplaceAll(p, "/", " ")
}

// slugName turns a name into a file name.
func slugName(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteRune(c)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	if out := strings.Trim(b.String(), "-"); out != "" {
		return out
	}
	return "new-test"
}
