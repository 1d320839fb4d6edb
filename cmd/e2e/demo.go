package main

import (
	"context"
	"errors"
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
	var keep, addr string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the bundled examples against the fixture app: cold, warm and on changed versions of the app",
		Example: `  e2e demo
  e2e demo --keep demo     # leave the project, its database and heals in ./demo
  cd demo && e2e demo serve`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var k *keptProject
			if keep == "" && cmd.Flags().Changed("addr") {
				return errors.New("demo --addr says where a kept project expects the fixture app; it needs --keep DIR")
			}
			if keep != "" {
				var err error
				if k, err = newKeptProject(keep, addr); err != nil {
					return err
				}
			}
			return demo(cmd.Context(), g, cmd.OutOrStdout(), cmd.ErrOrStderr(), verbose, k)
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print every step of every run")
	cmd.Flags().StringVar(&keep, "keep", "", "leave a working project in this new or empty directory: the tests, e2e.yaml, the database with the demo's staged heal, the scripted model's playbook")
	cmd.Flags().StringVar(&addr, "addr", demoAddr, "with --keep: where the kept project expects the fixture app and the scripted model (e2e demo serve listens there)")
	cmd.AddCommand(newDemoServeCmd())
	return cmd
}

// demo runs the examples; with keep set, in the kept directory, whose
// database stays. The tables go to out; a line as each run starts and
// ends goes to progress, so that out stays the README's block.
func demo(ctx context.Context, g *globals, out, progress io.Writer, verbose bool, keep *keptProject) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: fixture.Handler(fixture.Options{}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	dir, dbPath, shots, project := "", "", "", "examples"
	if keep != nil {
		dir, dbPath, shots, project = keep.dir, keep.dbPath(), keep.screenshots(), "" // the project is the kept directory's, as for e2e run there
	} else {
		d, err := os.MkdirTemp("", "e2e-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir, dbPath, shots = d, filepath.Join(d, "e2e.db"), filepath.Join(d, "screenshots")
	}
	cfg, tests, err := demoSuite(dir, base)
	if err != nil {
		return err
	}
	cfg.DB = dbPath
	if keep != nil {
		cfg.Cache.App = demoApp
	}
	var db *store.DB
	if keep != nil {
		// With the checkout's lineage, as e2e run in the kept directory
		// opens it: in a git repository its heals and trajectories are
		// those of the branch.
		db, err = openRunStore(ctx, cfg, store.WithRedactor(g.red))
	} else {
		db, err = store.Open(ctx, dbPath, store.WithRedactor(g.red))
	}
	if err != nil {
		return err
	}
	defer db.Close()
	// A kept project's e2e run has a model, which enters the cache keys:
	// the plain examples are keyed so too, to replay there.
	var agentCfg session.AgentConfig
	if keep != nil {
		m, err := configuredModel(cfg, modelFlags{}, &runCalls{rec: db}, g.red)
		if err != nil {
			return err
		}
		agentCfg = demoAgentConfig(m)
	}
	b, err := launchBrowser(ctx, g.browserOptions())
	if err != nil {
		return err
	}
	defer b.Close()
	fmt.Fprintf(out, "fixture app on %s, %s, %s, cache in a fresh database\n\n", base, b.Version(), plural.Count(len(tests), "example test"))
	pr := &demoProgress{w: progress, total: len(demoPhases) + len(agentPhases), start: time.Now()}
	pr.begin()

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
		r, err := runner.New(runner.Options{Config: cfg, Project: project, Store: db, Browser: b, Out: w, Env: env,
			Agent: agentCfg, Variants: ph.variants, Version: toolVersion(), Screenshots: shots, Redactor: g.red})
		if err != nil {
			return err
		}
		pr.started(ph.name, len(tests))
		rep, err := r.Run(ctx, tests)
		if err != nil {
			return err
		}
		pr.finished(ph.name, rep)
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
	if err := demoAgent(ctx, out, pr, verbose, dir, base, b, db, env, g.red, keep); err != nil {
		return err
	}
	pr.end()
	return nil
}

// demoProgress says, on its writer (stderr), what the demo is doing: one
// line as each run starts and one as it ends, so that its minutes are not
// silent. A nil *demoProgress or writer says nothing.
type demoProgress struct {
	w     io.Writer
	n     int // runs started
	total int
	start time.Time
	run   time.Time
}

func (p *demoProgress) begin() {
	if p == nil || p.w == nil {
		return
	}
	fmt.Fprintf(p.w, "demo: %d runs of the examples against the fixture app (about 2 minutes on a 2-core machine)\n", p.total)
}

func (p *demoProgress) started(name string, tests int) {
	if p == nil || p.w == nil {
		return
	}
	p.n++
	p.run = time.Now()
	fmt.Fprintf(p.w, "demo: run %d/%d, %s: %s…\n", p.n, p.total, name, plural.Count(tests, "test"))
}

func (p *demoProgress) finished(name string, rep *runner.Report) {
	if p == nil || p.w == nil {
		return
	}
	passed := 0
	for _, t := range rep.Tests {
		if t.Status == "passed" {
			passed++
		}
	}
	fmt.Fprintf(p.w, "demo: run %d/%d, %s: %d/%d passed in %s\n", p.n, p.total, name, passed, len(rep.Tests),
		time.Since(p.run).Round(100*time.Millisecond))
}

func (p *demoProgress) end() {
	if p == nil || p.w == nil {
		return
	}
	fmt.Fprintf(p.w, "demo: done in %s\n", time.Since(p.start).Round(time.Second))
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
