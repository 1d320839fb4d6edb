package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/store"
)

// defaultExpiry is how long an unused cache row lives: e2e cache prune
// removes rows not used for this long.
const defaultExpiry = 90 * 24 * time.Hour

func newCacheCmd() *cobra.Command {
	var p projectDB
	cmd := &cobra.Command{
		Use:   "cache",
		Short: "Inspect and manage the element cache and trajectories: stats, ls, show, rm, prune, export, import",
	}
	p.register(cmd)

	var runs int
	stats := &cobra.Command{
		Use:   "stats",
		Short: "Hit rate over recent runs, model calls saved, rows by branch and version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return p.with(cmd, func(d *store.DB) error {
				if err := d.Check(cmd.Context()); err != nil {
					return err
				}
				s, err := d.CacheStatistics(cmd.Context(), runs)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				saved := fmt.Sprintf("about %.1f model calls saved", s.Saved)
				if s.Saved == 0 && s.Hits+s.Reidentified > 0 {
					// Locating these steps never called a model: the cache
					// saved the locator's time, not model calls.
					saved = "no model calls saved (the local locator found these steps' elements without one)"
				}
				fmt.Fprintf(out, "last %s: %d of %s hit (%.0f%%), %d re-identified (%.0f%%); %d of %d (%.0f%%) with no locate and no model call, %s\n",
					plural.Count(s.Runs, "run"), s.Hits, plural.Count(s.Lookups, "lookup"), 100*s.HitRate, s.Reidentified, 100*rate(s.Reidentified, s.Lookups),
					s.Hits+s.Reidentified, s.Lookups, 100*s.ServedRate, saved)
				if len(s.ByBranch) == 0 {
					fmt.Fprintln(out, "the cache is empty")
					return nil
				}
				tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "BRANCH\tVERSION\tELEMENTS\tTRAJECTORIES")
				for _, b := range s.ByBranch {
					fmt.Fprintf(tw, "%s\t%s\t%d\t%d\n", dash(b.Branch), dash(b.Version), b.Elements, b.Trajectories)
				}
				return tw.Flush()
			})
		},
	}
	stats.Flags().IntVar(&runs, "runs", 20, "how many recent runs the hit rate covers")

	var filter store.CacheFilter
	ls := &cobra.Command{
		Use:   "ls",
		Short: "List cache rows (--test, --branch to filter)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return p.with(cmd, func(d *store.DB) error {
				rows, err := d.CacheRows(cmd.Context(), filter)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if len(rows) == 0 {
					fmt.Fprintln(out, "no cache rows")
					return nil
				}
				tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "KEY\tKIND\tTEST\tDESCRIPTION OR GOAL\tBRANCH\tCOMMIT\tVERSION\tHITS\tUSED")
				for _, r := range rows {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\n", r.Key[:min(12, len(r.Key))], r.Kind, r.Test, clip(r.Text, 50),
						dash(r.Branch), dash(shortCommit(r.Commit)), dash(r.Version), r.Hits, r.UsedAt.Local().Format("2006-01-02 15:04"))
				}
				return tw.Flush()
			})
		},
	}
	ls.Flags().StringVar(&filter.Test, "test", "", "only rows of this test")
	ls.Flags().StringVar(&filter.Branch, "branch", "", "only rows written on this branch")

	show := &cobra.Command{
		Use:   "show KEY",
		Short: "Show a key's identity, its trajectory or element, evidence and history (a unique prefix of the key will do)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.with(cmd, func(d *store.DB) error {
				rows, err := rowsOfKey(cmd, d, args[0])
				if err != nil {
					return err
				}
				return printCacheKey(cmd, d, rows)
			})
		},
	}

	rm := &cobra.Command{
		Use:   "rm KEY",
		Short: "Remove every row of a key, on every branch (a unique prefix of the key will do)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.with(cmd, func(d *store.DB) error {
				rows, err := rowsOfKey(cmd, d, args[0])
				if err != nil {
					return err
				}
				n, err := d.DeleteCache(cmd.Context(), rows[0].Key)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "removed %s of %s\n", plural.Count(int(n), "row"), rows[0].Key)
				return nil
			})
		},
	}

	var days int
	prune := &cobra.Command{
		Use:   "prune",
		Short: "Remove rows not used for 90 days (--days)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if days < 1 {
				return fmt.Errorf("--days %d: want at least 1", days)
			}
			return p.with(cmd, func(d *store.DB) error {
				cutoff := time.Now().Add(-time.Duration(days) * 24 * time.Hour)
				n, err := d.PruneCache(cmd.Context(), cutoff)
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "pruned %s unused since %s\n", plural.Count(int(n), "row"), cutoff.Local().Format("2006-01-02"))
				return nil
			})
		},
	}
	prune.Flags().IntVar(&days, "days", int(defaultExpiry/(24*time.Hour)), "remove rows unused for this many days")

	export := &cobra.Command{
		Use:   "export FILE",
		Short: "Write every cache row to FILE as JSON lines (- for standard output)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return p.with(cmd, func(d *store.DB) error {
				if args[0] == "-" {
					_, err := d.ExportCache(cmd.Context(), cmd.OutOrStdout())
					return err
				}
				n, err := exportFile(cmd, d, args[0])
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "exported %s to %s\n", plural.Count(int(n), "row"), args[0])
				return nil
			})
		},
	}

	imp := &cobra.Command{
		Use:   "import FILE",
		Short: "Read cache rows from FILE (JSON lines from export; - for standard input); a bad line imports nothing",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, done, err := importSource(cmd, args[0])
			if err != nil {
				return err
			}
			defer done()
			return p.withNew(cmd, func(d *store.DB) error {
				n, err := d.ImportCache(cmd.Context(), in)
				if ie, ok := errors.AsType[*store.ImportError](err); ok {
					name := args[0]
					if name == "-" {
						name = "<stdin>"
					}
					return importProblem{path: name, err: ie, written: n}
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "imported %s\n", plural.Count(int(n), "row"))
				return nil
			})
		},
	}
	cmd.AddCommand(stats, ls, show, rm, prune, export, imp)
	return cmd
}

// rowsOfKey returns the rows of the one key that prefix starts; no key or
// several are errors.
func rowsOfKey(cmd *cobra.Command, d *store.DB, prefix string) ([]store.CacheRow, error) {
	if len(prefix) < 4 {
		return nil, fmt.Errorf("key %q: give at least 4 characters of it", prefix)
	}
	rows, err := d.CacheRows(cmd.Context(), store.CacheFilter{Key: prefix})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no cache key starts with %q", prefix)
	}
	keys := map[string]bool{}
	for _, r := range rows {
		keys[r.Key] = true
	}
	if len(keys) > 1 {
		return nil, fmt.Errorf("%q starts %d keys; give more of it", prefix, len(keys))
	}
	return rows, nil
}

// printCacheKey prints what a key is made of, the row a checkout of each
// branch would read first (newest per branch), and the key's history.
func printCacheKey(cmd *cobra.Command, d *store.DB, rows []store.CacheRow) error {
	out := cmd.OutOrStdout()
	newest := slices.MaxFunc(rows, func(a, b store.CacheRow) int { return a.CreatedAt.Compare(b.CreatedAt) })
	fmt.Fprintf(out, "key       %s\nkind      %s\ntest      %s\n", newest.Key, newest.Kind, newest.Test)
	if newest.Kind == store.KindTrajectory {
		fmt.Fprintf(out, "goal      %s\n", newest.Text)
	} else {
		fmt.Fprintf(out, "element   %s\n", newest.Text)
	}
	var identity map[string]any
	if err := json.Unmarshal(newest.Identity, &identity); err == nil && len(identity) > 0 {
		fmt.Fprintln(out, "\nidentity (what the key is made of):")
		names := make([]string, 0, len(identity))
		for k := range identity {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			v, _ := json.Marshal(identity[k])
			fmt.Fprintf(out, "  %-12s %s\n", k, v)
		}
	}
	fmt.Fprintf(out, "\nnewest row (%s @ %s, %s):\n", dash(newest.Branch), dash(shortCommit(newest.Commit)), dash(newest.Version))
	if newest.Kind == store.KindTrajectory {
		var steps []string
		_ = json.Unmarshal(newest.Steps, &steps)
		for i, s := range steps {
			fmt.Fprintf(out, "  %d. %s\n", i+1, session.StepText(s))
		}
		fmt.Fprintf(out, "  postcondition: %s\n", newest.Postcondition)
		var gaps []session.Gap
		_ = json.Unmarshal(newest.Gaps, &gaps)
		for _, g := range gaps {
			fmt.Fprintf(out, "  gap: %q, read after step %d from %s %q…%q (#%d)\n", g.Value, g.At, g.Role, g.Before, g.After, g.Nth+1)
		}
		var ev session.Evidence
		if err := json.Unmarshal(newest.Evidence, &ev); err == nil {
			fmt.Fprintf(out, "  evidence: route %s", dash(ev.Route))
			if len(ev.Appeared) > 0 {
				fmt.Fprintf(out, "; appeared %s", strings.Join(ev.Appeared, ", "))
			}
			if len(ev.Vanished) > 0 {
				fmt.Fprintf(out, "; vanished %s", strings.Join(ev.Vanished, ", "))
			}
			fmt.Fprintln(out)
		}
	} else {
		fmt.Fprintf(out, "  selectors: %s\n  node: %s\n  intent: %s\n", newest.Selectors, newest.Node, newest.Intent)
		if len(newest.Context) > 0 && string(newest.Context) != "{}" {
			fmt.Fprintf(out, "  context: %s\n", newest.Context)
		}
	}
	fmt.Fprintln(out, "\nhistory:")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  BRANCH\tCOMMIT\tVERSION\tCREATED\tUSED\tHITS")
	slices.SortFunc(rows, func(a, b store.CacheRow) int { return b.CreatedAt.Compare(a.CreatedAt) })
	for _, r := range rows {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%d\n", dash(r.Branch), dash(shortCommit(r.Commit)), dash(r.Version),
			r.CreatedAt.Local().Format("2006-01-02 15:04"), r.UsedAt.Local().Format("2006-01-02 15:04"), r.Hits)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	heals, err := d.Heals(cmd.Context(), "")
	if err != nil {
		return err
	}
	for _, h := range heals {
		if string(h.Key) == newest.Key {
			fmt.Fprintf(out, "  heal %d: %s on %s, %d → %s: %s\n", h.ID, h.Status, dash(h.Branch), len(h.OldSteps), plural.Count(len(h.NewSteps), "step"), clip(h.Reason, 70))
		}
	}
	return nil
}

// rate is n over of, 0 when of is 0.
func rate(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

func shortCommit(c string) string { return c[:min(8, len(c))] }

// dash shows an empty value as "-".
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// exportFile writes the cache to path through a temporary file beside it,
// renamed into place once complete.
func exportFile(cmd *cobra.Command, d *store.DB, path string) (int, error) {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return 0, fmt.Errorf("export: %w", err)
	}
	n, err := d.ExportCache(cmd.Context(), f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("export: %w", cerr)
	}
	if err == nil {
		if err = os.Rename(tmp, path); err != nil {
			err = fmt.Errorf("export: %w", err)
		}
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	return n, nil
}

// importSource opens what `cache import` reads, which it reads twice:
// the file, or standard input copied to a temporary file (never to
// memory). done closes and removes what it opened.
func importSource(cmd *cobra.Command, path string) (io.ReadSeeker, func(), error) {
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("import: %w", err)
		}
		return f, func() { f.Close() }, nil
	}
	f, err := os.CreateTemp("", "e2e-import-*.jsonl")
	if err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	done := func() { f.Close(); os.Remove(f.Name()) }
	if _, err := io.Copy(f, cmd.InOrStdin()); err != nil {
		done()
		return nil, nil, fmt.Errorf("import: read standard input: %w", err)
	}
	return f, done, nil
}

// importProblem is a bad line of an import file, as file:line:column.
type importProblem struct {
	path    string
	err     *store.ImportError
	written int // rows written before it (the file changed during the import)
}

func (p importProblem) Error() string {
	msg := fmt.Sprintf("%s:%d", p.path, p.err.Line)
	if p.err.Column > 0 {
		msg += fmt.Sprintf(":%d", p.err.Column)
	}
	msg += ": " + p.err.Err.Error()
	if p.err.More > 0 {
		msg += fmt.Sprintf(" (and %s)", plural.Count(p.err.More, "more bad line"))
	}
	if p.written == 0 {
		msg += "; nothing was imported"
	}
	return msg
}
