package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1 // a test failed
	exitUsage  = 2 // usage, configuration or environment error
	exitStale  = 4 // the strict cache policy found a missing or stale entry
	exitStore  = 5 // the database failed at run time: locked past the busy timeout, damaged, disk full, I/O error
)

// globals are the flags every command shares.
type globals struct {
	chrome     string
	browserURL string
	headed     bool
	// red is the process's one redactor: the console, the store, the
	// reports and the model client all redact the secret values a run
	// gives it.
	red *redact.Redactor
}

func (g *globals) browserOptions() browser.Options {
	return browser.Options{Chrome: g.chrome, BrowserURL: g.browserURL, Headed: g.headed}
}

// run executes the e2e command line and returns the process exit code.
// Everything it prints passes through one redactor.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	red := redact.New()
	rout, rerr := red.Writer(stdout), red.Writer(stderr)
	defer func() { _, _ = rout.Flush(), rerr.Flush() }()
	stdout, stderr = rout, rerr
	root := newRoot(stdout, stderr, red)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	if strings.HasPrefix(err.Error(), "unknown command ") {
		fmt.Fprintln(stderr, "e2e: "+unknownCommand(err.Error()))
		return exitUsage
	}
	var pe *parseErrors
	if errors.As(err, &pe) {
		pe.print(stderr)
		fmt.Fprintln(stderr, "e2e: "+pe.Error())
		return exitUsage
	}
	var list testfile.List
	if errors.As(err, &list) { // a malformed e2e.yaml: every problem, with its excerpt
		fmt.Fprintln(stderr, strings.TrimRight(list.Error(), "\n"))
		return exitUsage
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "e2e: "+oneLine(ee.err))
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "e2e: "+oneLine(err))
	if store.IsFailure(err) {
		return exitStore
	}
	return exitUsage
}

// unknownCommand puts cobra's "unknown command … Did you mean this?" on
// one line: unknown command "rnu" for "e2e"; did you mean "run"?
func unknownCommand(msg string) string {
	head, rest, _ := strings.Cut(msg, "\n")
	_, names, found := strings.Cut(rest, "Did you mean this?")
	if !found {
		return strings.TrimSpace(head)
	}
	var quoted []string
	for _, n := range strings.Fields(names) {
		quoted = append(quoted, fmt.Sprintf("%q", n))
	}
	if len(quoted) == 0 {
		return strings.TrimSpace(head)
	}
	return strings.TrimSpace(head) + "; did you mean " + strings.Join(quoted, " or ") + "?"
}

// unknownFlag adds to pflag's "unknown flag: --worker" the nearest flag c
// has, when one is close: did you mean --workers?
func unknownFlag(c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	best := step.Closest(name, names)
	if best == "" {
		return err
	}
	return fmt.Errorf("%w; did you mean --%s?", err, best)
}

// exitError carries an exit code other than the usage default.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// oneLine is the single place that decides how an error reads to a user.
func oneLine(err error) string {
	msg := err.Error()
	switch {
	case errors.Is(err, browser.ErrNoBrowser):
		// the message already says what to install
	case errors.Is(err, browser.ErrNoDisplay):
		msg = "no display: run headless (drop --headed) or under xvfb-run"
	case errors.Is(err, context.Canceled):
		msg = "interrupted"
	case store.IsCorrupt(err):
		msg += ": keep a copy of the file, then either recover what it holds with `sqlite3 FILE .recover | sqlite3 NEW.db` " +
			"and use NEW.db (--db, or db: in e2e.yaml), or move the file aside and let e2e start an empty one (the cache is learnt again)"
	}
	return strings.Join(strings.Fields(argsInWords(msg)), " ")
}

// argsInWords says cobra's argument counts ("accepts 1 arg(s), received 0")
// in words: "accepts 1 argument, received 0".
func argsInWords(msg string) string {
	const unit = " arg(s)"
	var b strings.Builder
	for {
		i := strings.Index(msg, unit)
		if i < 0 {
			return b.String() + msg
		}
		j := i
		for j > 0 && '0' <= msg[j-1] && msg[j-1] <= '9' {
			j--
		}
		if n, err := strconv.Atoi(msg[j:i]); err == nil && (j == 0 || !isWordByte(msg[j-1])) {
			b.WriteString(msg[:j] + plural.Count(n, "argument"))
		} else {
			b.WriteString(msg[:i+len(unit)])
		}
		msg = msg[i+len(unit):]
	}
}

func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// newRoot builds the command tree; red is the redactor its output already
// passes through (nil: none).
func newRoot(stdout, stderr io.Writer, red *redact.Redactor) *cobra.Command {
	g := &globals{red: red}
	root := &cobra.Command{
		Use:   "e2e",
		Short: "Browser end-to-end tests written as intent",
		Long: `e2e runs browser end-to-end tests written as intent: goals and plain steps.
An agent works out how to do them once; later runs replay the recorded
trajectory without a model, and heal it when the app changes.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(unknownFlag)
	root.SetOut(stdout)
	root.SetErr(stderr)
	pf := root.PersistentFlags()
	pf.StringVar(&g.chrome, "chrome", "", "browser binary (default: $E2E_CHROME, then chromium, chromium-browser, google-chrome on PATH)")
	pf.StringVar(&g.browserURL, "browser-url", "", "connect to a running browser (ws://… or http://host:port) instead of launching one")
	pf.BoolVar(&g.headed, "headed", false, "show the browser window instead of running headless")
	root.AddCommand(newSnapshotCmd(g), newRunCmd(g), newHealsCmd(), newRunsCmd(), newCacheCmd(), newFixtureCmd(), newVersionCmd(), newDemoCmd(g), newStudioCmd(g), newExportCmd(g), newStoreCmd(), newMCPCmd(g), newInitCmd(), newReportCmd(g), newShowTraceCmd(g))
	return root
}
