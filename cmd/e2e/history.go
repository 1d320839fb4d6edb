package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/report"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/store"
)

// runHistory is the history of the tests of rep through its run, for the
// HTML report; a store error is printed and leaves the report without
// history.
func runHistory(ctx context.Context, db *store.DB, rep *runner.Report, errOut io.Writer) []session.TestHistory {
	names := make([]string, len(rep.Tests))
	for i, t := range rep.Tests {
		names[i] = t.Name
	}
	hs, err := db.TestHistories(ctx, session.HistoryQuery{Project: rep.Run.Project, Tests: names, Through: rep.Run.ID})
	if err != nil {
		fmt.Fprintf(errOut, "e2e: the HTML report has no run history: %v\n", err)
		return nil
	}
	return hs
}

func newRunsCmd() *cobra.Command {
	var (
		p         projectDB
		limit     int
		asJSON    bool
		showSteps bool
	)
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List recent runs with the counts of their tests (runs show ID: one run and its tests)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 1 {
				return fmt.Errorf("--limit %d: want at least 1", limit)
			}
			err := p.with(cmd, func(d *store.DB) error {
				runs, err := d.RunSummaries(cmd.Context(), limit)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), runsJSON(runs))
				}
				printRuns(cmd.OutOrStdout(), runs)
				return nil
			})
			if errors.Is(err, errNoStore) { // nothing run here yet, and no .e2e/ made
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), []runJSON{})
				}
				fmt.Fprintln(cmd.OutOrStdout(), "no runs ("+oneLine(err)+")")
				return nil
			}
			return err
		},
	}
	p.register(cmd)
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	cmd.Flags().IntVar(&limit, "limit", 20, "how many of the newest runs to list")
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show a run: its status, commit, time and each test with its outcome, time and attempts",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return fmt.Errorf("run id %q: want a number from `e2e runs`", args[0])
			}
			return p.with(cmd, func(d *store.DB) error {
				s, err := d.RunSummary(cmd.Context(), id)
				if errors.Is(err, store.ErrNotFound) {
					return fmt.Errorf("there is no run %d; `e2e runs` lists the runs", id)
				}
				if err != nil {
					return err
				}
				tests, err := d.Tests(cmd.Context(), id)
				if err != nil {
					return err
				}
				names := make([]string, len(tests))
				for i, t := range tests {
					names[i] = t.Name
				}
				hs, err := d.TestHistories(cmd.Context(), session.HistoryQuery{Project: s.Project, Tests: names, Through: id})
				if err != nil {
					return err
				}
				byName := make(map[string]session.TestHistory, len(hs))
				for _, h := range hs {
					byName[h.Name] = h
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), runShowJSON{Run: runsJSON([]session.RunSummary{*s})[0], Tests: testsJSON(tests, byName)})
				}
				printRun(cmd.OutOrStdout(), s, tests, byName)
				if showSteps {
					printSteps(cmd.OutOrStdout(), tests)
				}
				return nil
			})
		},
	}
	show.Flags().BoolVar(&showSteps, "steps", false, "also list each test's steps, a flow's steps under the use step that ran it")
	cmd.AddCommand(show)
	return cmd
}

// runJSON is a run as `e2e runs --json` prints it.
type runJSON struct {
	ID         int64      `json:"id"`
	Project    string     `json:"project"`
	Status     string     `json:"status"`
	StartedAt  time.Time  `json:"startedAt"`
	FinishedAt *time.Time `json:"finishedAt"` // null while running
	MS         int64      `json:"ms"`
	Branch     string     `json:"branch"`
	Commit     string     `json:"commit"`
	Version    string     `json:"version"`
	Shard      string     `json:"shard,omitempty"` // "i/n" for a run of shard i of n
	Tests      int        `json:"tests"`
	Passed     int        `json:"passed"` // flaky and healed tests passed too
	Failed     int        `json:"failed"`
	NotRun     int        `json:"notRun"` // not run: their session's flow failed
	Flaky      int        `json:"flaky"`
	Healed     int        `json:"healed"`
}

type testJSON struct {
	Name     string `json:"name"`
	File     string `json:"file"`
	Status   string `json:"status"`  // passed, failed, or not run (its session's flow failed)
	Outcome  string `json:"outcome"` // passed, failed, flaky, healed, or skipped (not run)
	MS       int64  `json:"ms"`
	Attempts int    `json:"attempts"`
	Error    string `json:"error,omitempty"`
	Steps    int    `json:"steps"`
	// History is the test's outcomes in its last runs through this one,
	// oldest first, as marks (P F ~ H S ·); Flakiness the share of them
	// that were flaky (session.TestHistory.Flakiness).
	History   string  `json:"history"`
	Flakiness float64 `json:"flakiness"`
}

type runShowJSON struct {
	Run   runJSON    `json:"run"`
	Tests []testJSON `json:"tests"`
}

func runsJSON(runs []session.RunSummary) []runJSON {
	out := make([]runJSON, 0, len(runs))
	for _, s := range runs {
		j := runJSON{ID: s.ID, Project: s.Project, Status: s.Status, StartedAt: s.StartedAt, Branch: s.Branch, Commit: s.Commit,
			Version: s.Version, Shard: s.Shard, Tests: s.Tests, Passed: s.Passed, Failed: s.Failed, NotRun: s.NotRun, Flaky: s.Flaky, Healed: s.Healed}
		if !s.FinishedAt.IsZero() {
			f := s.FinishedAt
			j.FinishedAt, j.MS = &f, f.Sub(s.StartedAt).Milliseconds()
		}
		out = append(out, j)
	}
	return out
}

func testsJSON(tests []session.TestResult, hs map[string]session.TestHistory) []testJSON {
	out := make([]testJSON, 0, len(tests))
	for i := range tests {
		t := &tests[i]
		h := hs[t.Name]
		out = append(out, testJSON{Name: t.Name, File: t.File, Status: string(t.Status), Outcome: string(session.OutcomeOf(t)), MS: t.DurationMS,
			Attempts: max(t.Attempts, 1), Error: t.Error, Steps: len(t.Steps), History: historyMarks(h), Flakiness: h.FlakinessRate()})
	}
	return out
}

// historyMarks is a history as letters, oldest first: P passed, F failed,
// ~ flaky, H healed, S skipped, · not in that run (the HTML report's strip).
func historyMarks(h session.TestHistory) string {
	var b strings.Builder
	for _, r := range h.Runs {
		b.WriteString(historyLetter[r.Outcome])
	}
	return b.String()
}

var historyLetter = map[session.Outcome]string{
	session.OutcomePassed: "P", session.OutcomeFailed: "F", session.OutcomeFlaky: "~", session.OutcomeHealed: "H", session.OutcomeSkipped: "S",
	session.OutcomeAbsent: "·",
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printRuns prints runs as a table, newest first.
func printRuns(w io.Writer, runs []session.RunSummary) {
	if len(runs) == 0 {
		fmt.Fprintln(w, "no runs")
		return
	}
	projects, shards := false, false
	for _, s := range runs {
		projects = projects || s.Project != ""
		shards = shards || s.Shard != ""
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "ID\tSTARTED\tSTATUS\tTESTS\tPASSED\tFAILED\tFLAKY\tHEALED\tTIME\tCOMMIT\tBRANCH"
	if shards {
		head += "\tSHARD"
	}
	if projects {
		head += "\tPROJECT"
	}
	fmt.Fprintln(tw, head)
	for _, s := range runs {
		line := fmt.Sprintf("%d\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s", s.ID, s.StartedAt.Local().Format("2006-01-02 15:04"), s.Status,
			s.Tests, s.Passed, s.Failed, s.Flaky, s.Healed, runTime(&s), dash(shortCommit(s.Commit)), dash(s.Branch))
		if shards {
			line += "\t" + dash(s.Shard)
		}
		if projects {
			line += "\t" + dash(s.Project)
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s; `e2e runs show ID` shows one with its tests\n", plural.Count(len(runs), "run"))
}

// printRun prints a run, a line per test, then the errors of the failed
// ones.
func printRun(w io.Writer, s *session.RunSummary, tests []session.TestResult, hs map[string]session.TestHistory) {
	head := []string{fmt.Sprintf("run %d", s.ID), s.Status, "started " + s.StartedAt.Local().Format("2006-01-02 15:04:05"), runTime(s)}
	if s.Commit != "" {
		c := "commit " + shortCommit(s.Commit)
		if s.Branch != "" {
			c += " on " + s.Branch
		}
		head = append(head, c)
	}
	if s.Shard != "" {
		head = append(head, "shard "+s.Shard)
	}
	if s.Project != "" {
		head = append(head, "project "+s.Project)
	}
	if s.Version != "" {
		head = append(head, "e2e "+s.Version)
	}
	fmt.Fprintln(w, strings.Join(head, " · "))
	notRunCount := ""
	if s.NotRun > 0 {
		notRunCount = fmt.Sprintf(", %d not run", s.NotRun)
	}
	fmt.Fprintf(w, "%s: %d passed, %d failed%s, %d flaky, %d healed\n", plural.Count(s.Tests, "test"), s.Passed, s.Failed, notRunCount, s.Flaky, s.Healed)
	if len(tests) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tTEST\tOUTCOME\tTIME\tATTEMPTS\tSTEPS\tLAST RUNS\tFLAKY\tFILE")
	var failed []*session.TestResult
	var notRun []string // why, once each, in order
	notRunTests := map[string][]string{}
	for i := range tests {
		t := &tests[i]
		o := session.OutcomeOf(t)
		shown := string(o)
		switch {
		case t.Status == session.TestNotRun:
			shown = string(t.Status)
			if notRunTests[t.Error] == nil {
				notRun = append(notRun, t.Error)
			}
			notRunTests[t.Error] = append(notRunTests[t.Error], t.Name)
		case o == session.OutcomeFailed:
			failed = append(failed, t)
		}
		h := hs[t.Name]
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%.0f%%\t%s\n", outcomeMark[o], t.Name, shown, fmt.Sprintf("%.1fs", float64(t.DurationMS)/1000),
			max(t.Attempts, 1), len(t.Steps), dash(historyMarks(h)), 100*h.FlakinessRate(), dash(t.File))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nLAST RUNS: oldest to newest, through this run: P passed, F failed, ~ flaky, H healed, S skipped, · not in that run")
	for _, t := range failed {
		fmt.Fprintf(w, "\n✗ %s: %s\n", t.Name, t.Error)
	}
	// A session's failure once, for all the tests it left not run.
	for _, why := range notRun {
		fmt.Fprintf(w, "\n- not run: %s: %s\n", strings.Join(notRunTests[why], ", "), why)
	}
}

// printSteps lists the steps of each test: a line each with its mark,
// line, what it did and how, the steps of a flow indented under the use
// step that ran it (their lines are in the flow's file).
func printSteps(w io.Writer, tests []session.TestResult) {
	for _, t := range tests {
		fmt.Fprintf(w, "\n%s (%s)\n", t.Name, dash(t.File))
		for _, st := range t.Steps {
			status := string(st.Status)
			if st.MissReason != "" {
				status += " (" + st.MissReason + ")"
			}
			fmt.Fprintf(w, "  %s%s line %d: %s [%s] %dms\n", strings.Repeat("  ", st.Depth), report.Mark(string(st.Status)), st.Line,
				report.Describe(st.Command), status, st.DurationMS)
			if st.Error != "" && st.Kind != session.KindUse {
				fmt.Fprintf(w, "  %s    %s\n", strings.Repeat("  ", st.Depth), st.Error)
			}
		}
	}
}

// outcomeMark is the mark of an outcome, as in the HTML report's strips.
var outcomeMark = map[session.Outcome]string{
	session.OutcomePassed: "✓", session.OutcomeFailed: "✗", session.OutcomeFlaky: "~", session.OutcomeHealed: "H", session.OutcomeSkipped: "S",
}

// runTime is how long a finished run took, or what it is.
func runTime(s *session.RunSummary) string {
	if s.FinishedAt.IsZero() {
		return "–"
	}
	return s.FinishedAt.Sub(s.StartedAt).Round(100 * time.Millisecond).String()
}
