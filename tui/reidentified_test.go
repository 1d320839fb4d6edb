package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/e2e-dev/e2e/session"
)

// TestTrajectoryShowsReidentified: a re-identified step reads as such in
// the trajectory pane, and the commands of every row stay lined up
// although its label is the widest.
func TestTrajectoryShowsReidentified(t *testing.T) {
	c := &clock{now: t0}
	m := New(Options{Mode: ModeRun, Title: "save", Now: c.Now, Gate: NewGate(false)})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	nav := `--step-type NAVIGATE --value "/users"`
	save := `--step-type CLICK --description "the Save button"`
	edit := `--step-type CLICK --description "the Edit button"`
	for _, e := range []session.Event{
		session.TestStarted{Test: "save", File: "tests/save.e2e.yaml", At: t0, Steps: []string{nav, edit, save}},
		session.StepFinished{Index: 0, Sub: -1, Command: nav, Status: session.StatusPassed, Cache: session.CacheNone},
		session.StepFinished{Index: 1, Sub: -1, Command: edit, Status: session.StatusHit, Cache: session.CacheHit},
		session.StepFinished{Index: 2, Sub: -1, Command: save, Status: session.StatusReidentified,
			Cache: session.CacheStatusOf(session.StepResult{Status: session.StatusReidentified})},
	} {
		m = update(m, EventMsg{Event: e})
	}
	v := keys(m, "tab", "tab").View()
	col := map[string]int{}
	for _, l := range strings.Split(v, "\n") {
		for _, what := range []string{"navigate:", "click: the Edit", "click: the Save"} {
			if i := strings.Index(l, what); i >= 0 {
				col[what] = lipgloss.Width(l[:i])
				if what == "click: the Save" && !strings.Contains(l, "3 ✓ re-identified "+what) {
					t.Errorf("the re-identified row reads %q", l)
				}
			}
		}
	}
	if len(col) != 3 || col["navigate:"] != col["click: the Save"] || col["click: the Edit"] != col["click: the Save"] {
		t.Errorf("commands start at columns %v, want one column:\n%s", col, v)
	}
}
