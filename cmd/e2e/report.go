package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session/report"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/store"
)

// ciRunIDs are the environment variables that hold a CI system's own id of
// the run (or pipeline) in progress, the same for every job of it, in the
// order they are looked at; --run-group defaults to the first one set.
var ciRunIDs = []string{
	"GITHUB_RUN_ID",      // GitHub Actions
	"CI_PIPELINE_ID",     // GitLab CI
	"BUILDKITE_BUILD_ID", // Buildkite
	"CIRCLE_WORKFLOW_ID", // CircleCI
	"BUILD_BUILDID",      // Azure Pipelines
	"BITBUCKET_PIPELINE_UUID",
	"TRAVIS_BUILD_ID",
	"DRONE_BUILD_NUMBER",
	"BUILD_TAG", // Jenkins
}

var ciRunIDNames = strings.Join(ciRunIDs[:4], ", ") + ", …"

// ciRunID is the CI's own run id (see ciRunIDs), or "" outside CI.
func ciRunID() string {
	for _, k := range ciRunIDs {
		if v := strings.TrimSpace(os.Getenv(k)); v != "" {
			return v
		}
	}
	return ""
}

// reportFlags are the outputs of `e2e report`: the reporters of e2e run
// but line (the summary is always printed).
type reportFlags struct {
	reporters []string
	junit     []string
	json      []string
	html      []string
}

func (f *reportFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringSliceVar(&f.reporters, "reporter", nil, "reports to write, repeatable or comma-separated: junit=FILE, json=FILE, html=DIR (default: html=e2e-report)")
}

func (f *reportFlags) prepare() error {
	for _, r := range f.reporters {
		kind, arg, _ := strings.Cut(strings.TrimSpace(r), "=")
		switch {
		case kind == "junit" && arg != "":
			f.junit = append(f.junit, arg)
		case kind == "json" && arg != "":
			f.json = append(f.json, arg)
		case kind == "html" && arg != "":
			f.html = append(f.html, arg)
		default:
			return fmt.Errorf("--reporter %q: want junit=FILE, json=FILE or html=DIR", r)
		}
	}
	if len(f.reporters) == 0 {
		f.html = []string{"e2e-report"}
	}
	return nil
}

// write prints the merged report's summary and notes, and writes its
// reports; it returns the exit code a run of those tests would have had.
func (f *reportFlags) write(in *report.Input, notes []string, out, errOut io.Writer) error {
	for _, n := range notes {
		fmt.Fprintln(errOut, "e2e: "+n)
	}
	report.Final(out, runner.Palette{}, in)
	for _, p := range f.junit {
		if err := report.WriteJUnit(p, in); err != nil {
			return err
		}
	}
	for _, p := range f.json {
		if err := report.WriteJSON(p, in); err != nil {
			return err
		}
	}
	for _, d := range f.html {
		index, err := report.WriteHTML(d, in)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "HTML report: %s\n", index)
	}
	if !in.Report.Passed() {
		return &exitError{code: exitFailed}
	}
	return nil
}

func newReportCmd(g *globals) *cobra.Command {
	var (
		p     projectDB
		f     reportFlags
		group string
	)
	cmd := &cobra.Command{
		Use:   "report --run-group ID",
		Short: "One report (JSON, JUnit, HTML) of the shards of a run: from the store by run group, or from their JSON reports (report merge)",
		Long: `e2e report builds one report out of the runs of a run group: the shards of
one CI run share a group (e2e run --run-group, by default the CI's own run id),
and with a store they all write to (PostgreSQL) the report is built from it.
Without a shared store, e2e report merge reads the shards' JSON reports.
It exits 1 when a test failed, as the run would have.`,
		Example: `  e2e report --run-group "$GITHUB_RUN_ID" --reporter html=e2e-report,junit=junit.xml
  e2e report merge shards/ --reporter json=e2e.json,html=e2e-report`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.prepare(); err != nil {
				return err
			}
			if group == "" {
				group = ciRunID()
			}
			if group == "" {
				return fmt.Errorf("--run-group: give the group of the runs to report (no CI run id in the environment: %s)", ciRunIDNames)
			}
			return p.with(cmd, func(db *store.DB) error {
				parts, err := groupParts(cmd.Context(), db, group, cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				if cfg, err := loadConfig(p.config); err == nil {
					for _, part := range parts {
						part.Report.Dir = cfg.Dir // screenshots are relative to it
					}
				}
				in, notes, err := report.Merge(parts)
				if err != nil {
					return err
				}
				in.Group, in.Redactor = group, g.red
				return f.write(in, notes, cmd.OutOrStdout(), cmd.ErrOrStderr())
			})
		},
	}
	p.register(cmd)
	f.register(cmd)
	cmd.Flags().StringVar(&group, "run-group", "", "the run group to report (default: the CI's run id, "+ciRunIDNames+")")

	var mf reportFlags
	merge := &cobra.Command{
		Use:   "merge PATH…",
		Short: "Merge the JSON reports of shards (files, or directories searched for them) into one report",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := mf.prepare(); err != nil {
				return err
			}
			parts, err := report.ReadParts(args)
			if err != nil {
				return err
			}
			in, notes, err := report.Merge(parts)
			if err != nil {
				return err
			}
			in.Redactor = g.red
			return mf.write(in, notes, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	mf.register(merge)
	cmd.AddCommand(merge)
	return cmd
}

// groupParts reads the runs of group from db as parts of one report: each
// run's tests, model use and history.
func groupParts(ctx context.Context, db *store.DB, group string, errOut io.Writer) ([]report.Part, error) {
	runs, err := db.RunGroup(ctx, group)
	if err != nil {
		return nil, err
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("--run-group %s: no run of that group in the store (e2e run --run-group, or the CI's run id, names it)", group)
	}
	var parts []report.Part
	for _, r := range runs {
		tests, err := db.Tests(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		rep := &runner.Report{Run: r, Tests: tests}
		for _, t := range tests {
			rep.Details = append(rep.Details, runner.TestDetail{Attempts: max(t.Attempts, 1), Flaky: t.Status == "passed" && t.Attempts > 1})
		}
		part := report.Part{Source: fmt.Sprintf("run %d", r.ID), Report: rep, Shard: r.Shard}
		calls, err := db.ModelCalls(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		for _, c := range calls {
			part.Model.Calls++
			part.Model.TokensIn += c.TokensIn
			part.Model.TokensOut += c.TokensOut
			part.Model.Cost += c.Cost
		}
		part.History = runHistory(ctx, db, rep, errOut)
		parts = append(parts, part)
	}
	return parts, nil
}
