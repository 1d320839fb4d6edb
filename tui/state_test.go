package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/e2e-dev/e2e/session"
)

// TestRunAgainStartsItsOwnFigures: a new run starts at 0 model calls and
// an empty decided list (its proposals are numbered from #1 again).
func TestRunAgainStartsItsOwnFigures(t *testing.T) {
	m := sessionModel(t, 160, 48, ModeRun)
	m = update(m, EventMsg{Event: session.TestStarted{Test: "add to cart", Steps: []string{`--step-type NAVIGATE --value "/product"`}}})
	v := m.View()
	if !strings.Contains(v, "model 0 calls · 0 tok · $0.0000") {
		t.Errorf("the replay carries the last run's figures:\n%s", lastLines(v, 2))
	}
	if strings.Contains(v, "decided") || strings.Contains(v, "#1 ✗ rejected") {
		t.Errorf("the decided list keeps the last run's decisions:\n%s", v)
	}
}

// TestSteppingRunDoesNotSayPaused: with p on, a step that runs reads
// running, not paused.
func TestSteppingRunDoesNotSayPaused(t *testing.T) {
	m := New(Options{Mode: ModeRun, Title: "t", Gate: NewGate(true)})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m = update(m, EventMsg{Event: session.TestStarted{Test: "t", Steps: []string{`--step-type CLICK --description "x"`}}})
	m = update(m, EventMsg{Event: session.StepStarted{Index: 0, Sub: -1, Command: `--step-type CLICK --description "x"`}})
	if bar := lastLines(m.View(), 2); strings.Contains(bar, "paused") || !strings.Contains(bar, "running") {
		t.Errorf("status bar while a step runs: %s", bar)
	}
}

func plainProposal(m Model) Model {
	return update(m, proposalMsg{p: session.Proposal{ID: 1, Kind: session.ProposedStep, Index: 0, Command: `--step-type CLICK --description "the Save button"`},
		reply: make(chan session.Decision, 1)})
}

// TestPlainStepOffersOnlyWhatItDoes: a test's own step held by p is
// approved, edited or skipped: r (which tells the agent, and failed the
// test) and A (the rest of an act) are neither offered nor answered.
func TestPlainStepOffersOnlyWhatItDoes(t *testing.T) {
	m := New(Options{Mode: ModeRun, Title: "t", Gate: NewGate(true)})
	m = update(m, tea.WindowSizeMsg{Width: 160, Height: 48})
	m = plainProposal(m)
	v := m.View()
	for _, no := range []string{"r reject", "A approve rest", "A rest", "esc"} {
		if strings.Contains(v, no) {
			t.Errorf("a plain step offers %q:\n%s", no, v)
		}
	}
	if !strings.Contains(v, "a approve · e edit · s skip") || !strings.Contains(v, "a approve • e edit • s skip") {
		t.Errorf("a plain step's keys:\n%s", v)
	}
	if m2 := keys(m, "r"); m2.mode != inputNone || m2.ses.pending == nil {
		t.Error("r on a plain step asked for a reason")
	}
	if m2 := keys(m, "A"); m2.ses.pending == nil {
		t.Error("A decided a plain step")
	}
	// An agent's step in an act offers both.
	v = sessionModel(t, 160, 48, ModeRun).View()
	if !strings.Contains(v, "r reject") || !strings.Contains(v, "A approve rest of act") {
		t.Errorf("an agent step lacks r or A:\n%s", lastLines(v, 1))
	}
}

// TestEscOnlyWhereItWorks: the heal list opened by e2e studio --heals has
// nowhere to go back to, and lists no esc.
func TestEscOnlyWhereItWorks(t *testing.T) {
	if v := healModel(t, 160, 48).View(); strings.Contains(lastLines(v, 1), "esc") {
		t.Errorf("esc listed on the heal list of --heals: %s", lastLines(v, 1))
	}
	m := keys(sessionModel(t, 160, 48, ModeRun), "/", "M", "enter")
	if v := m.View(); !strings.Contains(lastLines(v, 1), "esc clear filter") {
		t.Errorf("esc not listed with a filter on: %s", lastLines(v, 1))
	}
}

// TestHealIsDecidedOpenAndConfirmed: y and n do nothing on the list; on
// the open heal one y asks, a second decides, any other key cancels.
func TestHealIsDecidedOpenAndConfirmed(t *testing.T) {
	m := healModel(t, 160, 48)
	if _, cmd := m.Update(keyMsg("y")); cmd != nil {
		t.Fatal("y on the list decided a heal")
	}
	m = keys(m, "enter", "y")
	if !strings.Contains(m.View(), "press y again to accept it") {
		t.Errorf("one y does not ask:\n%s", lastLines(m.View(), 2))
	}
	if _, cmd := keys(m, "down").Update(keyMsg("y")); cmd != nil {
		t.Error("y after another key decided without asking again")
	}
	nm, cmd := m.Update(keyMsg("y"))
	if cmd == nil {
		t.Fatal("y y did not decide")
	}
	m = update(nm.(Model), cmd())
	if !strings.Contains(m.View(), "heal 7 accepted by ann") {
		t.Errorf("after y y:\n%s", lastLines(m.View(), 2))
	}
}

// TestPaneKeysAndFilterAtNarrowWidth: at 80×24 1, 2 and 3 show their
// panes, and / brings the page forward before filtering it.
func TestPaneKeysAndFilterAtNarrowWidth(t *testing.T) {
	m := sessionModel(t, 80, 24, ModeRun)
	for k, want := range map[string]int{"1": paneTree, "2": paneProposals, "3": paneTrajectory} {
		if got := keys(m, k).ses.focus; got != want {
			t.Errorf("%s shows pane %d", k, got)
		}
	}
	m = keys(m, "3", "/")
	if m.ses.focus != paneTree || m.mode != inputFilter || !strings.Contains(m.View(), "[ 1 Page ]") {
		t.Errorf("/ from the trajectory: focus %d mode %d\n%s", m.ses.focus, m.mode, m.View())
	}
}

// TestLongMessageReadsWhole: a message the status bar would cut reads
// whole on lines above it.
func TestLongMessageReadsWhole(t *testing.T) {
	m := sessionModel(t, 80, 24, ModeRun)
	msg := `not a step: unknown step kind "clik"; did you mean click? write one such as click: the Sign in button`
	m = update(m, Notice{Text: msg, Err: true})
	v := m.View()
	if !strings.Contains(flat(v), msg) {
		t.Errorf("the message is cut:\n%s", v)
	}
	if n := len(strings.Split(v, "\n")); n != 24 {
		t.Errorf("the view is %d lines", n)
	}
}

// TestRefusedTypedLineComesBack: in a new test, a typed line the command
// layer refuses is back on the input line to be fixed.
func TestRefusedTypedLineComesBack(t *testing.T) {
	m := New(Options{Mode: ModeNew, Title: "http://x/", Control: func(Command) {}})
	m = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m = keys(m, "clik: the Buy now button", "enter")
	m = update(m, Notice{Text: `unknown step kind "clik"; did you mean click?`, Err: true})
	if got := m.input.Value(); got != "clik: the Buy now button" {
		t.Errorf("the input line holds %q", got)
	}
}

// TestFocusShowsWithoutColour: side by side, the focused pane's title is
// marked, so focus reads with NO_COLOR too.
func TestFocusShowsWithoutColour(t *testing.T) {
	m := sessionModel(t, 160, 48, ModeRun) // the proposal took the focus
	v := m.View()
	if !strings.Contains(v, "▸ Proposed steps") || strings.Contains(v, "▸ Page") || strings.Contains(v, "▸ Trajectory") {
		t.Errorf("focus mark:\n%s", strings.Split(v, "\n")[1])
	}
}
