package main

import (
	"fmt"
	"io"
	"os"
	"os/user"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/store"
)

func newHealsCmd() *cobra.Command {
	var config, db string
	open := func(cmd *cobra.Command) (*store.DB, error) {
		path := db
		if path == "" {
			cfg, err := loadConfig(config)
			if err != nil {
				return nil, err
			}
			path = cfg.DBPath()
		}
		return store.Open(cmd.Context(), path)
	}
	// withHeal parses a heal id, opens the database and runs fn.
	withHeal := func(cmd *cobra.Command, arg string, fn func(d *store.DB, id int64) error) error {
		id, err := healID(arg)
		if err != nil {
			return err
		}
		d, err := open(cmd)
		if err != nil {
			return err
		}
		defer d.Close()
		return fn(d, id)
	}
	cmd := &cobra.Command{
		Use:   "heals",
		Short: "Review trajectories the agent healed: list, show, accept, reject",
	}
	cmd.PersistentFlags().StringVar(&config, "config", "", "directory to look for e2e.yaml from (default: the current directory)")
	cmd.PersistentFlags().StringVar(&db, "db", "", "SQLite database (default: from e2e.yaml)")
	var all bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List staged heals (--all: every heal)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := open(cmd)
			if err != nil {
				return err
			}
			defer d.Close()
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
				fmt.Fprintln(out, "no staged heals")
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tTEST\tGOAL\tSTEPS\tREASON")
			for _, h := range heals {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d → %d\t%s\n", h.ID, h.Status, h.Test, h.Goal, len(h.OldSteps), len(h.NewSteps), clip(h.Reason, 60))
			}
			return tw.Flush()
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
// the old trajectory, "+" only in the new one, "=" in both.
func printHeal(w io.Writer, h *session.Heal) {
	fmt.Fprintf(w, "heal %d · %s · test %q · goal %q\n", h.ID, h.Status, h.Test, h.Goal)
	fmt.Fprintf(w, "why: %s\n", h.Reason)
	if h.DecidedBy != "" {
		fmt.Fprintf(w, "decided by %s at %s\n", h.DecidedBy, h.DecidedAt.Format("2006-01-02 15:04"))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\tOLD\tNEW")
	for _, d := range diffSteps(h.OldSteps, h.NewSteps) {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.mark, clip(stepText(d.old), 70), clip(stepText(d.new), 70))
	}
	tw.Flush()
	if h.Postcondition != "" {
		fmt.Fprintf(w, "\npostcondition: %s\n", h.Postcondition)
	}
	printPageChange(w, h.PageBefore, h.PageAfter, 40)
}

// stepText drops the cache id, which says nothing to a reader.
func stepText(cmd string) string {
	if i := strings.Index(cmd, " --cache-id"); i >= 0 {
		return cmd[:i]
	}
	return cmd
}

type diffLine struct{ mark, old, new string }

// diffSteps aligns two step lists by their longest common subsequence
// (cache ids ignored).
func diffSteps(a, b []string) []diffLine { return diffBy(a, b, stepText) }

// diffBy aligns a and b by their longest common subsequence of key(line).
// A common head and tail are matched first, so that two long page outlines
// that differ in a few lines cost little.
func diffBy(a, b []string, key func(string) string) []diffLine {
	var head, tail []diffLine
	for len(a) > 0 && len(b) > 0 && key(a[0]) == key(b[0]) {
		head = append(head, diffLine{"=", a[0], b[0]})
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && key(a[len(a)-1]) == key(b[len(b)-1]) {
		tail = append([]diffLine{{"=", a[len(a)-1], b[len(b)-1]}}, tail...)
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if key(a[i]) == key(b[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []diffLine
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && key(a[i]) == key(b[j]):
			out = append(out, diffLine{"=", a[i], b[j]})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, diffLine{"-", a[i], ""})
			i++
		default:
			out = append(out, diffLine{"+", "", b[j]})
			j++
		}
	}
	return append(append(head, out...), tail...)
}

// pageContext is how many unchanged outline lines are shown around a change.
const pageContext = 2

// printPageChange prints the lines of the page outline that changed between
// the failed replay and the end of the heal, with a little context, as a
// unified diff ("-" before only, "+" after only), at most limit lines.
func printPageChange(w io.Writer, before, after string, limit int) {
	if before == "" && after == "" {
		return
	}
	d := diffBy(strings.Split(strings.TrimRight(before, "\n"), "\n"), strings.Split(strings.TrimRight(after, "\n"), "\n"),
		func(s string) string { return s })
	show := make([]bool, len(d))
	changed := false
	for i, l := range d {
		if l.mark == "=" {
			continue
		}
		changed = true
		for j := max(0, i-pageContext); j <= min(len(d)-1, i+pageContext); j++ {
			show[j] = true
		}
	}
	fmt.Fprintln(w, "\npage when the replay failed → page when the heal ended:")
	if !changed {
		fmt.Fprintln(w, "  (the outline did not change)")
		return
	}
	printed, gap := 0, false
	for i, l := range d {
		if !show[i] {
			gap = true
			continue
		}
		if gap && printed > 0 {
			fmt.Fprintln(w, "  ⋯")
		}
		gap = false
		if printed == limit {
			fmt.Fprintln(w, "  … (more changes)")
			return
		}
		switch l.mark {
		case "=":
			fmt.Fprintf(w, "  %s\n", l.old)
		case "-":
			fmt.Fprintf(w, "- %s\n", l.old)
		case "+":
			fmt.Fprintf(w, "+ %s\n", l.new)
		}
		printed++
	}
}
