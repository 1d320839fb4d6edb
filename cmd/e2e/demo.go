package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/examples"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/plural"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// demoPhases are the runs the demo makes, in order, on one cache.
var demoPhases = []struct{ name, variants string }{
	{"cold (empty cache)", ""},
	{"warm (same app)", ""},
	{"random-attrs", "random-attrs"},
	{"shuffle", "shuffle"},
	{"recolor", "recolor"},
	{"redesign", "redesign"},
}

// newDemoCmd is the README's first command: the bundled example suite run
// against the fixture app cold, warm and against changed variants of it.
func newDemoCmd(g *globals) *cobra.Command {
	var verbose bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the bundled examples against the fixture app: cold, warm and on changed versions of the app",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return demo(cmd.Context(), g, cmd.OutOrStdout(), verbose)
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print every step of every run")
	return cmd
}

func demo(ctx context.Context, g *globals, out io.Writer, verbose bool) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: fixture.Handler(fixture.Options{}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	dir, err := os.MkdirTemp("", "e2e-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg, tests, err := demoSuite(dir, base)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, filepath.Join(dir, "e2e.db"), store.WithRedactor(g.red))
	if err != nil {
		return err
	}
	defer db.Close()
	b, err := browser.Launch(ctx, g.browserOptions())
	if err != nil {
		return err
	}
	defer b.Close()
	fmt.Fprintf(out, "fixture app on %s, %s, %s, cache in a fresh database\n\n", base, b.Version(), plural.Count(len(tests), "example test"))

	// The examples sign in as the fixture's demo user.
	env := func(k string) (string, bool) {
		if v, ok := os.LookupEnv(k); ok {
			return v, true
		}
		v, ok := map[string]string{"E2E_USER": "alice@example.com", "E2E_PASSWORD": "correct-horse"}[k]
		return v, ok
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\ttests passed\tsteps\tcache hits\tre-identified\tlocated\tre-located\tfailed\tmedian ms/step\t")
	var coldMS, warmMS float64
	var failures []string
	for i, ph := range demoPhases {
		w := io.Discard
		if verbose {
			fmt.Fprintf(out, "── %s\n", ph.name)
			w = out
		}
		r, err := runner.New(runner.Options{Config: cfg, Project: "examples", Store: db, Browser: b, Out: w, Env: env,
			Variants: ph.variants, Version: toolVersion(), Screenshots: filepath.Join(dir, "screenshots"), Redactor: g.red})
		if err != nil {
			return err
		}
		rep, err := r.Run(ctx, tests)
		if err != nil {
			return err
		}
		passed := 0
		for _, t := range rep.Tests {
			if t.Status == "passed" {
				passed++
			}
		}
		c := runner.Count(rep.Tests)
		med := runner.MedianMS(rep.Tests, func(s session.StepResult) bool { return s.Status != session.StatusSkipped })
		switch i {
		case 0:
			coldMS = med
		case 1:
			warmMS = med
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.0f\t\n", ph.name, passed, len(rep.Tests), c.Steps, c.Hits, c.Reidentified,
			c.Located, c.Relocated, c.Failed, med)
		for _, t := range rep.Tests {
			if t.Status != "passed" {
				failures = append(failures, fmt.Sprintf("  %s — %s: %s", ph.name, t.Name, t.Error))
			}
		}
	}
	tw.Flush()
	if warmMS > 0 {
		fmt.Fprintf(out, "\nmedian step: %.0f ms cold, %.0f ms warm (%.1f× faster from the cache)\n", coldMS, warmMS, coldMS/warmMS)
	}
	if len(failures) > 0 {
		fmt.Fprintln(out, "\nfailed tests — expected: under recolor \"the blue button\" is another button, and the cart check")
		fmt.Fprintln(out, "catches it; redesign renames fields and splits the login form, which plain steps cannot follow")
		fmt.Fprintln(out, "until the agent heals them:")
		for _, f := range failures {
			fmt.Fprintln(out, f)
		}
	}
	return demoAgent(ctx, out, verbose, dir, base, b, db, env, g.red)
}

// demoSuite writes nothing: it reads the embedded examples and points them
// at the in-process fixture.
func demoSuite(dir, base string) (*testfile.Config, []*testfile.Test, error) {
	src, err := fs.ReadFile(examples.FS, "e2e.yaml")
	if err != nil {
		return nil, nil, err
	}
	cfg, err := testfile.ParseConfig("examples/e2e.yaml", src)
	if err != nil {
		return nil, nil, err
	}
	cfg.Dir, cfg.BaseURL, cfg.DB = dir, base, filepath.Join(dir, "e2e.db")
	names, err := fs.Glob(examples.FS, "*.e2e.yaml")
	if err != nil {
		return nil, nil, err
	}
	var tests []*testfile.Test
	for _, n := range names {
		b, err := fs.ReadFile(examples.FS, n)
		if err != nil {
			return nil, nil, err
		}
		t, err := testfile.Parse("examples/"+n, b)
		if err != nil {
			return nil, nil, err
		}
		tests = append(tests, t)
	}
	if len(tests) == 0 {
		return nil, nil, fmt.Errorf("no examples bundled")
	}
	return cfg, tests, nil
}
