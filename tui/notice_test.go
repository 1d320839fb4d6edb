package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/e2e-dev/e2e/session"
)

// TestNoticeBelongsToItsScreen: R on a plain step raises a notice on the
// session screen; H opens the heals and the notice is gone there. At 80×24
// every key bar ends with ? help • q quit.
func TestNoticeBelongsToItsScreen(t *testing.T) {
	m := New(Options{Mode: ModeRun, Heals: sampleHeals(), Now: (&clock{now: t0}).Now, Gate: NewGate(false)})
	m = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = update(m, EventMsg{Event: session.TestStarted{Test: "t", Steps: []string{`--step-type CLICK --description "x"`, `--step-type ACT --description "goal"`}}})
	m = update(m, EventMsg{Event: session.TestFinished{Result: session.TestResult{Status: "passed"}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	for _, k := range []string{"tab", "tab", "R"} {
		tm.Send(keyMsg(k))
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("select an act step")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	if v := lastLine(update(m, keyMsg("q")).View()); !strings.HasSuffix(strings.TrimRight(v, " "), "? help • q quit") {
		t.Errorf("session key bar at 80×24 does not end with ? help • q quit: %q", v)
	}
	tm.Send(keyMsg("H"))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("search flights")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	tm.Send(keyMsg("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	v := fm.View()
	if strings.Contains(v, "select an act step") {
		t.Errorf("the session's notice is still shown on the heals screen:\n%s", v)
	}
	if l := lastLine(v); !strings.HasSuffix(strings.TrimRight(l, " "), "? help • q quit") {
		t.Errorf("heals key bar at 80×24 does not end with ? help • q quit: %q", l)
	}
}

func lastLine(v string) string { return v[strings.LastIndex(v, "\n")+1:] }

// TestStatusBarNamesTheFailedStep: a run that failed at step 1 of 3 and
// skipped the rest says step 1/3, not the last step it skipped.
func TestStatusBarNamesTheFailedStep(t *testing.T) {
	m := New(Options{Mode: ModeRun, Now: (&clock{now: t0}).Now, Gate: NewGate(false)})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	cmds := []string{`--step-type CLICK --description "the Menu button"`, `--step-type CLICK --description "Archive"`, `--step-type CLICK --description "Save"`}
	m = update(m, EventMsg{Event: session.TestStarted{Test: "menu", Steps: cmds}})
	m = update(m, EventMsg{Event: session.StepStarted{Index: 0, Sub: -1, Command: cmds[0]}})
	m = update(m, EventMsg{Event: session.StepFinished{Index: 0, Sub: -1, Command: cmds[0], Status: session.StatusFailed, Error: "ambiguous"}})
	for i := 1; i < 3; i++ {
		m = update(m, EventMsg{Event: session.StepStarted{Index: i, Sub: -1, Command: cmds[i]}})
		m = update(m, EventMsg{Event: session.StepFinished{Index: i, Sub: -1, Command: cmds[i], Status: session.StatusSkipped}})
	}
	m = update(m, EventMsg{Event: session.TestFinished{Result: session.TestResult{Status: "failed", Error: "step 1: ambiguous"}}})
	if v := m.View(); !strings.Contains(v, "step 1/3") || strings.Contains(v, "step 3/3") {
		t.Errorf("status bar after failing at step 1:\n%s", lastLines(v, 2))
	}
}

func lastLines(v string, n int) string {
	l := strings.Split(strings.TrimRight(v, "\n"), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}
