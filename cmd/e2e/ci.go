package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/report"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// exitHealed: every test passed, some only through staged heals, and
// --fail-on-heal asked for that to fail the job.
const exitHealed = 3

// ciFlags are the flags of headless CI runs: parallelism, selection,
// retries, captures and reporters.
type ciFlags struct {
	ci          bool
	workers     int
	isolate     bool
	shard       string
	retries     int
	grep        string
	grepInvert  string
	reporters   []string
	failOnHeal  bool
	screenshots string
	video       string
	color       string
	runGroup    string
	trace       string

	// set by prepare
	shardI, shardN int
	junit, json    []string
	html           []string
	line           bool
	pal            runner.Palette   // set by apply
	red            *redact.Redactor // set by apply: the run's, for the reports
	stopTicks      func()           // set by apply: ends the progress's clock
	// set by report
	stagedHeals int
}

func (c *ciFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.BoolVar(&c.ci, "ci", false, "headless CI mode: one line per test and per failure, a final summary, no TUI (also on when CI=true)")
	fl.IntVar(&c.workers, "workers", runtime.NumCPU(), "tests to run at once, each in its own browser context")
	fl.BoolVar(&c.isolate, "isolate", false, "give every worker a browser of its own instead of a browser context")
	fl.StringVar(&c.shard, "shard", "", "run shard i of n (i/n) of the suite, balanced by the durations the database remembers")
	fl.IntVar(&c.retries, "retries", 0, "run a failed test again up to N times; one that then passes is reported flaky")
	fl.StringVar(&c.grep, "grep", "", "run only the tests whose name matches this regular expression")
	fl.StringVar(&c.grepInvert, "grep-invert", "", "skip the tests whose name matches this regular expression")
	fl.StringSliceVar(&c.reporters, "reporter", nil, "reports to write, repeatable or comma-separated: line, junit=FILE, json=FILE, html=DIR (default: line with --ci)")
	fl.BoolVar(&c.failOnHeal, "fail-on-heal", false, "exit 3 when every test passed but some only through staged heals")
	fl.StringVar(&c.screenshots, "screenshots", runner.ScreenshotsFailures, "screenshots: on (after every step), failures (of the failing step) or off")
	fl.StringVar(&c.video, "video", runner.VideoOff, "screencast video: failures (keep the frames of failed tests, shown in the HTML report) or off")
	fl.StringVar(&c.runGroup, "run-group", "", "the group this run belongs to, shared by the shards of one CI run so that `e2e report --run-group ID` makes one report of them (default: the CI's run id, "+ciRunIDNames+")")
	fl.StringVar(&c.trace, "trace", "", "record a trace of every step (page before and after, the lookup's decision, network, console), shown in the HTML report: on, off or retain-on-failure (default: trace: in e2e.yaml, else retain-on-failure with --ci, else off)")
	fl.StringVar(&c.color, "color", "auto", "colour the output: auto (on a terminal, not in CI mode, unless NO_COLOR is set; FORCE_COLOR turns it on), always or never")
}

// prepare checks the flags; a bad value is a usage error (exit 2).
func (c *ciFlags) prepare() error {
	if !c.ci && strings.EqualFold(os.Getenv("CI"), "true") {
		c.ci = true
	}
	if c.runGroup == "" {
		c.runGroup = ciRunID()
	}
	if c.workers < 1 {
		return fmt.Errorf("--workers %d: want at least 1", c.workers)
	}
	if c.retries < 0 {
		return fmt.Errorf("--retries %d: want 0 or more", c.retries)
	}
	if c.shard != "" {
		i, n, err := runner.ParseShard(c.shard)
		if err != nil {
			return fmt.Errorf("--shard: %w", err)
		}
		c.shardI, c.shardN = i, n
	}
	switch c.screenshots {
	case runner.ScreenshotsOn, runner.ScreenshotsFailures, runner.ScreenshotsOff:
	default:
		return fmt.Errorf("--screenshots %q: want on, failures or off", c.screenshots)
	}
	switch c.video {
	case runner.VideoOff, runner.VideoFailures:
	default:
		return fmt.Errorf("--video %q: want failures or off", c.video)
	}
	switch c.trace {
	case "", runner.TraceOn, runner.TraceOff, runner.TraceRetainOnFailure:
	default:
		return fmt.Errorf("--trace %q: want on, off or retain-on-failure", c.trace)
	}
	switch c.color {
	case "auto", "always", "never":
	default:
		return fmt.Errorf("--color %q: want auto, always or never", c.color)
	}
	for _, r := range c.reporters {
		kind, arg, hasArg := strings.Cut(strings.TrimSpace(r), "=")
		switch {
		case kind == "line" && !hasArg:
			c.line = true
		case kind == "junit" && arg != "":
			c.junit = append(c.junit, arg)
		case kind == "json" && arg != "":
			c.json = append(c.json, arg)
		case kind == "html" && arg != "":
			c.html = append(c.html, arg)
		default:
			return fmt.Errorf("--reporter %q: want line, junit=FILE, json=FILE or html=DIR", r)
		}
	}
	if c.ci && len(c.reporters) == 0 {
		c.line = true
	}
	for _, re := range []string{c.grep, c.grepInvert} {
		if _, err := regexp.Compile(re); err != nil {
			return fmt.Errorf("--grep: %w", err)
		}
	}
	return nil
}

// selectTests applies --grep, --grep-invert and --shard.
func (c *ciFlags) selectTests(ctx context.Context, db *store.DB, tests []*testfile.Test) ([]*testfile.Test, error) {
	var grep, invert *regexp.Regexp
	var err error
	if c.grep != "" {
		if grep, err = regexp.Compile(c.grep); err != nil {
			return nil, fmt.Errorf("--grep: %w", err)
		}
	}
	if c.grepInvert != "" {
		if invert, err = regexp.Compile(c.grepInvert); err != nil {
			return nil, fmt.Errorf("--grep-invert: %w", err)
		}
	}
	tests = runner.Filter(tests, grep, invert)
	if c.shardN > 1 {
		// Durations from before this run's group: its shards, which may
		// start one after another on a shared store, agree on the split.
		durations, err := db.DurationsBefore(ctx, c.runGroup)
		if err != nil {
			return nil, err
		}
		tests = runner.Shard(tests, c.shardI, c.shardN, durations)
	}
	return tests, nil
}

// apply sets the suite options of a run and, in CI mode, replaces the
// step-by-step printout with a line per test (or a progress bar on a
// terminal) and a line for each test still running; stop ends the clock
// of those lines (it is also stopped when ctx ends).
func (c *ciFlags) apply(ctx context.Context, opts *runner.Options, launch func(context.Context) (*browser.Browser, error), out io.Writer) {
	opts.Suite = runner.SuiteOptions{Workers: c.workers, Isolate: c.isolate, Launch: launch, Retries: c.retries,
		Screenshots: c.screenshots, Video: c.video, Trace: c.tracePolicy(opts.Config)}
	c.pal = c.palette(out)
	opts.Color = c.pal
	c.red = opts.Redactor
	if !c.ci && !c.line {
		return
	}
	opts.Out = io.Discard
	var tick func(time.Time)
	if isTerminal(out) && !strings.EqualFold(os.Getenv("GITHUB_ACTIONS"), "true") {
		bar := &report.ProgressBar{W: out, Color: c.pal}
		if f, ok := unwrap(out).(*os.File); ok {
			bar.Cols = termColumns(f)
		}
		if bar.Cols == 0 {
			bar.Cols, _ = strconv.Atoi(os.Getenv("COLUMNS")) // else 80
		}
		opts.Suite.OnTestStart, opts.Suite.OnTestDone, tick = bar.Start, bar.Update, bar.Tick
	} else {
		lp := &report.LineProgress{W: out, Color: c.pal}
		opts.Suite.OnTestStart, opts.Suite.OnTestDone, tick = lp.Start, lp.Update, lp.Tick
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				tick(now)
			}
		}
	}()
	c.stopTicks = func() { cancel(); <-done }
}

// tracePolicy is --trace, else trace: in e2e.yaml, else retain-on-failure
// in CI mode and off outside it.
func (c *ciFlags) tracePolicy(cfg *testfile.Config) string {
	switch {
	case c.trace != "":
		return c.trace
	case cfg != nil && cfg.Trace != "":
		return cfg.Trace
	case c.ci:
		return runner.TraceRetainOnFailure
	}
	return runner.TraceOff
}

// stop ends the clock apply started, if it did; it may be called again.
func (c *ciFlags) stop() {
	if c.stopTicks != nil {
		c.stopTicks()
		c.stopTicks = nil
	}
}

// palette says whether output to out is coloured: --color always or never,
// else (auto) FORCE_COLOR turns it on, NO_COLOR and CI mode keep it off,
// and otherwise a terminal that is not TERM=dumb gets colour.
func (c *ciFlags) palette(out io.Writer) runner.Palette {
	switch c.color {
	case "always":
		return runner.Palette{On: true}
	case "never":
		return runner.Palette{}
	}
	if v := os.Getenv("FORCE_COLOR"); v != "" && v != "0" {
		return runner.Palette{On: true}
	}
	if os.Getenv("NO_COLOR") != "" || c.ci || os.Getenv("TERM") == "dumb" {
		return runner.Palette{}
	}
	return runner.Palette{On: isTerminal(out)}
}

// isTerminal says whether w (or the writer a redacting writer writes to)
// is an interactive terminal.
func isTerminal(w io.Writer) bool {
	f, ok := unwrap(w).(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// report writes the reporters, GitHub annotations and step summary, and
// counts staged heals for --fail-on-heal.
func (c *ciFlags) report(ctx context.Context, db *store.DB, rep *runner.Report, out, errOut io.Writer) error {
	c.stop() // no "still running" line among the reports
	in := &report.Input{Report: rep, Shard: c.shard, Workers: c.workers, Heals: map[int64]*session.Heal{}, Redactor: c.red}
	calls, err := db.ModelCalls(ctx, rep.Run.ID)
	if err != nil {
		return err
	}
	in.Calls = calls
	for _, d := range rep.Details {
		for _, id := range d.Heals {
			h, err := db.Heal(ctx, id)
			if err != nil {
				fmt.Fprintf(errOut, "e2e: heal %d: %v\n", id, err)
				continue
			}
			in.Heals[id] = h
			if h.Status == "staged" {
				c.stagedHeals++
			}
		}
	}
	if len(c.html) > 0 || len(c.json) > 0 {
		// The JSON report carries it too, for `e2e report merge`.
		in.History = runHistory(ctx, db, rep, errOut) // history.go
	}
	in.Group = rep.Run.Group
	if c.ci || c.line {
		report.Final(out, c.pal, in)
	}
	for _, p := range c.junit {
		if err := report.WriteJUnit(p, in); err != nil {
			return err
		}
	}
	for _, p := range c.json {
		if err := report.WriteJSON(p, in); err != nil {
			return err
		}
	}
	for _, d := range c.html {
		index, err := report.WriteHTML(d, in)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "HTML report: %s\n", index)
	}
	if strings.EqualFold(os.Getenv("GITHUB_ACTIONS"), "true") {
		report.WriteGitHubAnnotations(out, in)
		if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
			if err := report.AppendGitHubSummary(p, in); err != nil {
				return err
			}
		}
	}
	return nil
}

// exitCode maps a finished run to the process exit code.
func (c *ciFlags) exitCode(rep *runner.Report) int {
	switch {
	case !rep.Passed():
		return exitFailed
	case c.failOnHeal && c.stagedHeals > 0:
		return exitHealed
	}
	return exitOK
}

// unwrap is the writer a redacting writer writes to, else w: the studio
// draws the terminal itself and the console asks it whether it is one.
func unwrap(w io.Writer) io.Writer {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		return u.Unwrap()
	}
	return w
}
