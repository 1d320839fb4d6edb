package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

func newHealsCmd() *cobra.Command {
	var p projectDB
	// withHeal parses a heal id, opens the database and runs fn.
	withHeal := func(cmd *cobra.Command, arg string, fn func(d *store.DB, id int64) error) error {
		id, err := healID(arg)
		if err != nil {
			return err
		}
		return p.with(cmd, func(d *store.DB) error { return fn(d, id) })
	}
	cmd := &cobra.Command{
		Use:   "heals",
		Short: "Review trajectories the agent healed: list, show, accept, reject",
	}
	p.register(cmd)
	var all bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List staged heals (--all: every heal)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			none := "no staged heals"
			if all {
				none = "no heals"
			}
			err := p.with(cmd, func(d *store.DB) error {
				status := "staged"
				if all {
					status = ""
				}
				heals, err := d.Heals(cmd.Context(), status)
				if err != nil {
					return err
				}
				out := cmd.OutOrStdout()
				if len(heals) == 0 {
					fmt.Fprintln(out, none)
					return nil
				}
				tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tSTATUS\tTEST\tGOAL\tSTEPS\tREASON")
				for _, h := range heals {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d → %d\t%s\n", h.ID, h.Status, h.Test, h.Goal, len(h.OldSteps), len(h.NewSteps), clip(h.Reason, 60))
				}
				return tw.Flush()
			})
			if errors.Is(err, errNoStore) { // nothing run here yet: no heals, and no .e2e/ made
				fmt.Fprintln(cmd.OutOrStdout(), none+" ("+oneLine(err)+")")
				return nil
			}
			return err
		},
	}
	list.Flags().BoolVar(&all, "all", false, "include accepted and rejected heals")
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show a heal: the old and new trajectories side by side, changes marked",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withHeal(cmd, args[0], func(d *store.DB, id int64) error {
				h, err := d.Heal(cmd.Context(), id)
				if err != nil {
					return err
				}
				printHeal(cmd.OutOrStdout(), h)
				return nil
			})
		},
	}
	decide := func(accept bool) *cobra.Command {
		verb := map[bool]string{true: "accept", false: "reject"}[accept]
		help := map[bool]string{true: "Accept a staged heal: its trajectory replaces the old one",
			false: "Reject a staged heal: the old trajectory stays and the test heals again next run"}[accept]
		return &cobra.Command{
			Use:   verb + " ID",
			Short: help,
			Args:  cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return withHeal(cmd, args[0], func(d *store.DB, id int64) error {
					h, err := d.DecideHeal(cmd.Context(), id, accept, reviewer())
					if err != nil {
						return err
					}
					fmt.Fprintf(cmd.OutOrStdout(), "heal %d %s by %s\n", h.ID, h.Status, h.DecidedBy)
					return nil
				})
			},
		}
	}
	cmd.AddCommand(list, show, decide(true), decide(false))
	return cmd
}

func healID(s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, fmt.Errorf("heal id %q: want a number from `e2e heals list`", s)
	}
	return id, nil
}

// reviewer is who decides a heal: $E2E_REVIEWER, else the user name.
func reviewer() string {
	if r := os.Getenv("E2E_REVIEWER"); r != "" {
		return r
	}
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return "unknown"
}

func clip(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// printHeal shows old and new steps side by side with a diff: "-" only in
// the old trajectory, "+" only in the new one, "~" changed, "=" in both.
func printHeal(w io.Writer, h *session.Heal) {
	fmt.Fprintf(w, "heal %d · %s · test %q · goal %q\n", h.ID, h.Status, h.Test, h.Goal)
	fmt.Fprintf(w, "why: %s\n", h.Reason)
	if h.Seen > 1 {
		fmt.Fprintf(w, "proposed by %s, the last at %s\n", plural.Count(h.Seen, "run"), h.LastSeenAt.Local().Format("2006-01-02 15:04"))
	}
	if h.SupersededBy != 0 {
		fmt.Fprintf(w, "superseded by heal %d\n", h.SupersededBy)
	}
	if h.DecidedBy != "" {
		fmt.Fprintf(w, "decided by %s at %s\n", h.DecidedBy, h.DecidedAt.Format("2006-01-02 15:04"))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tOLD\tNEW")
	for _, d := range session.DiffSteps(h.OldSteps, h.NewSteps) {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Op, clip(session.StepText(d.Old), 70), clip(session.StepText(d.New), 70))
	}
	tw.Flush()
	if h.Postcondition != "" {
		fmt.Fprintf(w, "\npostcondition: %s\n", h.Postcondition)
	}
	printPageChange(w, h.PageBefore, h.PageAfter, 40)
}

// printPageChange prints the lines of the page outline that changed between
// the failed replay and the end of the heal, two lines of context around
// each change ("-" before only, "+" after only), at most limit lines.
func printPageChange(w io.Writer, before, after string, limit int) {
	if before == "" && after == "" {
		return
	}
	fmt.Fprintln(w, "\npage when the replay failed → page when the heal ended:")
	lines := session.PageChange(before, after, 2)
	if lines == nil {
		fmt.Fprintln(w, "  (the outline did not change)")
		return
	}
	for i, l := range lines {
		if i == limit {
			fmt.Fprintln(w, "  … (more changes)")
			return
		}
		switch l.Op {
		case session.DiffGap:
			fmt.Fprintln(w, "  ⋯")
		case session.DiffDelete:
			fmt.Fprintf(w, "- %s\n", l.Old)
		case session.DiffInsert:
			fmt.Fprintf(w, "+ %s\n", l.New)
		default:
			fmt.Fprintf(w, "  %s\n", l.Old)
		}
	}
}

// projectDB is the --config and --db flags of the commands that work on a
// project's database (heals, cache).
// errNoStore: the project has no database yet; commands that read it do
// not create one.
var errNoStore = errors.New("there is no store yet")

type projectDB struct{ config, db string }

func (p *projectDB) register(cmd *cobra.Command) {
	cmd.PersistentFlags().StringVar(&p.config, "config", "", "directory to look for e2e.yaml from (default: the current directory)")
	cmd.PersistentFlags().StringVar(&p.db, "db", "", "the store: a SQLite file or a postgres:// URL (default: from e2e.yaml)")
}

// with opens the database --db names, else the one of the e2e.yaml found
// from --config, runs fn on it and closes it. It does not create the
// project's database: a project with none yet is errNoStore.
func (p *projectDB) with(cmd *cobra.Command, fn func(d *store.DB) error) error {
	return p.open(cmd, false, fn)
}

// withNew is with, creating the project's database when there is none.
func (p *projectDB) withNew(cmd *cobra.Command, fn func(d *store.DB) error) error {
	return p.open(cmd, true, fn)
}

func (p *projectDB) open(cmd *cobra.Command, create bool, fn func(d *store.DB) error) error {
	path := p.db
	var cfg *testfile.Config // known when the store is the project's
	if path == "" {
		var err error
		if cfg, err = loadConfig(p.config); err != nil {
			return err
		}
		path = cfg.DBPath()
		if _, err := os.Stat(path); !create && !testfile.IsDatabaseURL(path) && errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w at %s (e2e run creates it); pass --config DIR or --db FILE for another project", errNoStore, path)
		}
	}
	d, err := openStore(cmd.Context(), path, cfg, nil)
	if err != nil {
		return err
	}
	defer d.Close()
	return fn(d)
}
