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

const (
	menuStep   = `--step-type CLICK --description "the Menu button in the row of the user whose email address ends in example.com"`
	menuError  = `"the Menu button in the row of the user whose email address ends in example.com" matches several elements equally: 3 equal candidates for "the Menu button": button "Menu" [e30] in row "Alice …", button "Menu" [e35] in row "Bob …", button "Menu" [e40] in row "Carol …"`
	statusStep = `--step-type EXPECT --expect text --description "the status line under the users table that counts the archived users" --value "2 archived"`
)

// detailModel is a finished run: a navigation, an act (one step hit, one
// re-identified), a click that failed as ambiguous with its candidates,
// and a skipped check after it.
func detailModel(t *testing.T, w, h int) Model {
	t.Helper()
	c := &clock{now: t0}
	m := New(Options{Mode: ModeRun, Title: "users menu", Now: c.Now, Reviewer: "ann", Gate: NewGate(false)})
	m = update(m, tea.WindowSizeMsg{Width: w, Height: h})
	nav := `--step-type NAVIGATE --value "/users"`
	act := `--step-type ACT --description "open the first user's menu and close it again"`
	sub1 := `--step-type CLICK --description "the Menu button in the Alice row"`
	sub2 := `--step-type CLICK --description "the Close button"`
	for _, e := range []session.Event{
		session.TestStarted{Test: "users menu", File: "tests/users.e2e.yaml", At: t0, Steps: []string{nav, act, menuStep, statusStep}},
		session.StepStarted{Index: 0, Sub: -1, Command: nav},
		session.StepFinished{Index: 0, Sub: -1, Command: nav, Status: session.StatusPassed, Cache: session.CacheNone, Line: 4, DurationMS: 412},
		session.StepStarted{Index: 1, Sub: -1, Command: act},
		session.StepStarted{Index: 1, Sub: 0, Command: sub1},
		session.StepFinished{Index: 1, Sub: 0, Command: sub1, Status: session.StatusHit, Cache: session.CacheHit, DurationMS: 96},
		session.StepStarted{Index: 1, Sub: 1, Command: sub2},
		session.StepFinished{Index: 1, Sub: 1, Command: sub2, Status: session.StatusReidentified, Cache: session.CacheReidentified, DurationMS: 230,
			MissReason: "no-match", Reidentified: &session.Reidentification{Score: 0.82, RunnerUp: 0.41, Second: `button "Cancel"`}},
		session.StepFinished{Index: 1, Sub: -1, Command: act, Status: session.StatusHit, Cache: session.CacheHit, Line: 5, DurationMS: 1890,
			Postcondition: "the users table shows no open menu"},
		session.StepStarted{Index: 2, Sub: -1, Command: menuStep},
		session.StepFinished{Index: 2, Sub: -1, Command: menuStep, Status: session.StatusFailed, Cache: session.CacheFailed, Line: 6, DurationMS: 3012,
			MissReason: "no-match", LLMCalls: 1, Error: menuError, Candidates: []session.StepCandidate{
				{Element: `button "Menu" [expanded=false] [ref=e30]`, Container: `row "Alice alice@example.com Admin Menu"`, Score: 0.91},
				{Element: `button "Menu" [expanded=false] [ref=e35]`, Container: `row "Bob bob@example.com Editor Menu"`, Score: 0.91},
				{Element: `button "Menu" [expanded=false] [ref=e40]`, Container: `row "Carol carol@example.com Viewer Menu"`, Score: 0.91},
			}},
		session.StepFinished{Index: 3, Sub: -1, Command: statusStep, Status: session.StatusSkipped, Cache: session.CacheSkipped, Line: 7},
		session.TestFinished{Result: session.TestResult{Status: "failed", Error: "step 3 (line 6): " + menuError}},
	} {
		m = update(m, EventMsg{Event: e})
	}
	c.add(6 * time.Second)
	return m
}

// flat is the text of a view with the box borders gone and runs of
// spaces made one, so that wrapped text reads as one line.
func flat(v string) string {
	var words []string
	for _, l := range strings.Split(v, "\n") {
		l = strings.NewReplacer("│", " ", "╭", " ", "╮", " ", "╰", " ", "╯", " ", "─", " ").Replace(l)
		words = append(words, strings.Fields(l)...)
	}
	return strings.Join(words, " ")
}

// TestSelectedStepWrapsInTheTrajectoryPane: at 80×24 the selected step
// reads whole, its command and its error wrapped; a step that is not
// selected stays cut with …, and is whole once selected.
func TestSelectedStepWrapsInTheTrajectoryPane(t *testing.T) {
	m := keys(detailModel(t, 80, 24), "tab", "tab")
	v := m.View()
	f := flat(v)
	for _, whole := range []string{`click: the Menu button in the row of the user whose email address ends in example.com`,
		`button "Menu" [e40] in row "Carol …"`} {
		if !strings.Contains(f, whole) {
			t.Errorf("the selected step does not read whole (%s):\n%s", whole, v)
		}
	}
	if strings.Contains(f, "counts the archived users") || !strings.Contains(v, "…") {
		t.Errorf("the step after it is not cut:\n%s", v)
	}
	v = keys(m, "down").View()
	if f := flat(v); !strings.Contains(f, `expect: { text: { in: the status line under the users table that counts the archived users, is: 2 archived } }`) {
		t.Errorf("the newly selected step does not read whole:\n%s", v)
	}
	if f := flat(v); strings.Contains(f, `button "Menu" [e40] in row "Carol …"`) {
		t.Errorf("the step no longer selected still wraps its error:\n%s", v)
	}
}

// TestStepDetailOpensScrollsAndCloses: enter on the ambiguous step opens
// its detail with everything the pane cuts; at 80×24 it is taller than the
// screen and pgdn scrolls to the last candidate's row; the key bar shows
// the detail's keys; esc goes back to the trajectory.
func TestStepDetailOpensScrollsAndCloses(t *testing.T) {
	m := keys(detailModel(t, 80, 24), "tab", "tab", "enter")
	v := m.View()
	f := flat(v)
	for _, want := range []string{
		"Step 3 of 4 · tests/users.e2e.yaml:6 (1-19 of ",
		`command ` + menuStep,
		"status ✗ failed", "cache failed", "miss reason no-match", "time 3.01 s", "model calls 1",
		"error " + menuError,
		"candidates (3)",
		`1. 0.91 button "Menu" [expanded=false] [ref=e30]`,
	} {
		if !strings.Contains(f, want) {
			t.Errorf("the detail does not say %q:\n%s", want, v)
		}
	}
	if strings.Contains(f, "Carol carol@example.com") {
		t.Errorf("the detail fits at 80×24; the test wants one that scrolls:\n%s", v)
	}
	bar := strings.TrimRight(lastLine(v), " ")
	if !strings.Contains(bar, "pgdn page down") || !strings.Contains(bar, "esc back") || !strings.HasSuffix(bar, "? help • q quit") || strings.Contains(bar, "tab next pane") {
		t.Errorf("the detail's key bar is %q", bar)
	}

	tm := teatest.NewTestModel(t, detailModel(t, 80, 24), teatest.WithInitialTermSize(80, 24))
	for _, k := range []string{"tab", "tab", "enter"} {
		tm.Send(keyMsg(k))
	}
	waitOut(t, tm, "Step 3 of 4 · tests/users.e2e.yaml:6 (1-19 of ", "candidates (3)")
	tm.Send(keyMsg("pgdown"))
	waitOut(t, tm, `in row "Alice alice@example.com Admin Menu"`, `in row "Carol carol@example.com Viewer Menu"`)
	tm.Send(keyMsg("esc"))
	waitOut(t, tm, "Trajectory · tests/users.e2e.yaml", "enter step detail")
	tm.Send(keyMsg("q"))
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	if fm.screen != screenSession || fm.ses.focus != paneTrajectory || fm.ses.cursor != 2 {
		t.Errorf("after esc: screen %d, focus %d, cursor %d; want the trajectory with step 3 selected", fm.screen, fm.ses.focus, fm.ses.cursor)
	}
}

// TestStepDetailOfAnAct: an act's detail lists its own steps with their
// cache outcomes, times and re-identification scores, and its
// postcondition.
func TestStepDetailOfAnAct(t *testing.T) {
	v := keys(detailModel(t, 160, 48), "tab", "tab", "up", "enter").View()
	f := flat(v)
	for _, want := range []string{
		"Step 2 of 4 · tests/users.e2e.yaml:5", "time 1.89 s", "postcondition the users table shows no open menu", "act steps (2)",
		`2.1 ✓ click: the Menu button in the Alice row`, "cache hit", "time 96 ms",
		`2.2 ✓ click: the Close button`, "cache re-identified", `re-identified score 0.82 · runner-up 0.41 button "Cancel"`,
	} {
		if !strings.Contains(f, want) {
			t.Errorf("the act's detail does not say %q:\n%s", want, v)
		}
	}
}

// TestStepDetailKeepsUpWithTheRun: the detail of a running step shows it
// running, then its end as it arrives; a new run that drops the step says
// so instead of showing another.
func TestStepDetailKeepsUpWithTheRun(t *testing.T) {
	m := New(Options{Mode: ModeRun, Title: "t", Now: (&clock{now: t0}).Now, Gate: NewGate(false)})
	m = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	cmd := `--step-type CLICK --description "the Save button"`
	m = update(m, EventMsg{Event: session.TestStarted{Test: "t", File: "t.e2e.yaml", Steps: []string{cmd, cmd}}})
	m = update(m, EventMsg{Event: session.StepStarted{Index: 0, Sub: -1, Command: cmd}})
	m = keys(m, "tab", "tab", "enter")
	if f := flat(m.View()); !strings.Contains(f, "status … running") || strings.Contains(f, "model calls") {
		t.Errorf("a running step's detail:\n%s", m.View())
	}
	m = update(m, EventMsg{Event: session.StepFinished{Index: 0, Sub: -1, Command: cmd, Status: session.StatusLocated, Cache: session.CacheNew, DurationMS: 1500, LLMCalls: 2}})
	if f := flat(m.View()); !strings.Contains(f, "status ✓ located") || !strings.Contains(f, "cache new") || !strings.Contains(f, "model calls 2") {
		t.Errorf("the step's end did not reach the detail:\n%s", m.View())
	}
	m = update(m, proposalMsg{p: session.Proposal{ID: 1, Kind: session.ProposedStep, Index: 1, Command: cmd}, reply: make(chan session.Decision, 1)})
	if v := m.View(); m.screen != screenDetail || !strings.Contains(v, "a step waits: esc to decide it") {
		t.Errorf("a step that waits while the detail is open:\n%s", v)
	}
	m = update(m, EventMsg{Event: session.TestStarted{Test: "t", File: "t.e2e.yaml"}})
	if f := flat(m.View()); !strings.Contains(f, "not in the trajectory any more") {
		t.Errorf("a detail of a step that is gone:\n%s", m.View())
	}
}

func waitOut(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, s := range texts {
			if !bytes.Contains(b, []byte(s)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// TestStepDetailOfATypedStep: in a new test, enter (once esc has left the
// input line) opens a typed step's detail; the step has no line in a file
// yet, so the title names none.
func TestStepDetailOfATypedStep(t *testing.T) {
	m := New(Options{Mode: ModeNew, Title: "new", File: "new.e2e.yaml", Now: (&clock{now: t0}).Now, Gate: NewGate(false)})
	m = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	cmd := `--step-type CLICK --description "the Menu button"`
	m = update(m, EventMsg{Event: session.TestStarted{Test: "new", File: "new.e2e.yaml"}})
	m = update(m, EventMsg{Event: session.StepStarted{Index: 0, Sub: -1, Command: cmd}})
	m = update(m, EventMsg{Event: session.StepFinished{Index: 0, Sub: -1, Command: cmd, Status: session.StatusFailed, Cache: session.CacheFailed, Line: 3,
		Error: `"the Menu button" matches several elements equally`}})
	if m = keys(m, "enter"); m.screen != screenSession {
		t.Fatal("enter in the input line opened the detail")
	}
	v := keys(m, "esc", "enter").View()
	if !strings.Contains(v, "Step 1 of 1 · new.e2e.yaml ") || strings.Contains(v, "new.e2e.yaml:3") {
		t.Errorf("the typed step's detail:\n%s", v)
	}
}
