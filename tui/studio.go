// Package tui is the studio (e2e studio): a Bubble Tea program showing a
// run as it happens — the live accessibility tree, the steps the agent
// proposes and the spliced trajectory — and holding each proposed step
// until the engineer approves, edits, rejects or skips it. It also reviews
// staged heals.
//
// The studio never touches the browser, the model or the database: it
// learns what happens from session events (App.Publish), answers proposed
// steps through its Gate, asks the command layer for runs and new steps
// through Options.Control, and reads and decides heals through a HealStore.
package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/e2e-dev/e2e/session"
)

var errNoStudio = errors.New("the studio is not running")

// Mode is what the studio opens on.
type Mode int

// Modes.
const (
	ModeRun   Mode = iota // a test file: run it, watch it, step it
	ModeNew               // record a new test from typed steps and goals
	ModeHeals             // review staged heals
	ModeError             // the test could not be opened: show why
)

// HealStore reads and decides heals; the store implements it.
type HealStore interface {
	Heals(ctx context.Context, status string) ([]session.Heal, error)
	DecideHeal(ctx context.Context, id int64, accept bool, by string) (*session.Heal, error)
}

// Command is what the studio asks of the command layer.
type Command interface{ command() }

// RunAgain asks for the test to run again; Rerecord is the index of an act
// step to record from scratch, or -1.
type RunAgain struct{ Rerecord int }

// AddStep asks for a typed line to run next in a new test: a step in the
// test-file form ("click: the Sign in button") or else a goal for the agent.
type AddStep struct{ Line string }

// WriteTest asks for the new test to be written to its file.
type WriteTest struct{}

func (RunAgain) command()  {}
func (AddStep) command()   {}
func (WriteTest) command() {}

// Notice is a line for the status bar from the command layer; Err marks a
// problem.
type Notice struct {
	Text string
	Err  bool
}

// RunDone says the command layer's run ended; Err is why it failed, if it did.
type RunDone struct{ Err error }

// Options set up the studio.
type Options struct {
	Mode  Mode
	Title string // the test's name, or the URL of a new test
	File  string
	Err   error // ModeError: what to show
	Gate  *Gate
	Heals HealStore // nil: no heal review
	// Reviewer is who decides (recorded with heal decisions and proposals).
	Reviewer string
	// Control receives the studio's commands; it is called off the UI
	// goroutine and may block.
	Control func(Command)
	Now     func() time.Time // default time.Now
	Keys    *KeyMap          // default DefaultKeyMap()
	Styles  *Styles          // default DefaultStyles()
}

// screens of the studio.
type screen int

const (
	screenSession screen = iota
	screenHeals
	screenHealDiff
	screenError
	screenDetail // a trajectory step's detail, over the session
)

// input modes of the one input line.
type inputMode int

const (
	inputNone inputMode = iota
	inputFilter
	inputEdit
	inputReason
	inputStep
)

// Model is the studio's root model: it routes messages to the screen in
// front and draws it with the status bar and the help line.
type Model struct {
	o      Options
	keys   KeyMap
	st     Styles
	help   help.Model
	input  textinput.Model
	mode   inputMode
	screen screen
	back   screen // where esc goes from the heal screens
	full   bool   // the full help is open
	w, h   int

	ses    sessionState
	heal   healState
	detail stepDetail

	notice    string
	noticeErr bool
	sent      string // the line typed in a new test, until a step starts or it is refused
}

// New returns the studio's model.
func New(o Options) Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Keys == nil {
		k := DefaultKeyMap()
		o.Keys = &k
	}
	if o.Styles == nil {
		st := DefaultStyles()
		o.Styles = &st
	}
	if o.Gate == nil {
		o.Gate = NewGate(false)
	}
	m := Model{o: o, keys: *o.Keys, st: *o.Styles, help: help.New(), input: textinput.New(), w: 80, h: 24}
	m.input.Prompt = ""
	m.ses = newSessionState(o)
	switch o.Mode {
	case ModeHeals:
		m.screen, m.back = screenHeals, screenHeals
	case ModeError:
		m.screen = screenError
	case ModeNew:
		m.mode = inputStep
		m.input.Placeholder = "click: the Sign in button   or a goal: sign in as Alice"
		m.input.Focus()
	}
	return m
}

// Init implements tea.Model.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tick()}
	if m.o.Mode == ModeHeals {
		cmds = append(cmds, m.loadHeals())
	}
	if m.o.Mode == ModeNew {
		cmds = append(cmds, textinput.Blink)
	}
	return tea.Batch(cmds...)
}

type tickMsg time.Time

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// EventMsg carries a session event into the studio.
type EventMsg struct{ Event session.Event }

// Update implements tea.Model. A notice belongs to the screen that raised
// it: a change of screen that raises none clears the old one.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	screen, notice := m.screen, m.notice
	nm, cmd := m.handle(msg)
	if n, ok := nm.(Model); ok && n.screen != screen && n.notice == notice {
		n.notice, n.noticeErr = "", false
		return n, cmd
	}
	return nm, cmd
}

func (m Model) handle(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.help.Width = msg.Width
		return m, nil
	case tickMsg:
		return m, tick()
	case EventMsg:
		if _, ok := msg.Event.(session.StepStarted); ok {
			m.sent = "" // the typed line was taken
		}
		m.ses.apply(msg.Event, m.o.Now())
		return m, nil
	case proposalMsg:
		m.ses.propose(msg)
		m.ses.focus = paneProposals
		if m.mode == inputStep {
			m.mode = inputNone // the keys decide the step; i types again
			m.input.Blur()
		}
		return m, nil
	case Notice:
		m.notice, m.noticeErr = msg.Text, msg.Err
		if msg.Err && m.mode == inputStep && m.sent != "" && m.input.Value() == "" {
			// A typed line that was refused comes back to be fixed.
			m.input.SetValue(m.sent)
			m.input.CursorEnd()
		}
		m.sent = ""
		return m, nil
	case RunDone:
		m.ses.running = false
		m.ses.finishedAt = m.o.Now()
		if msg.Err != nil {
			m.notice, m.noticeErr = msg.Err.Error(), true
		}
		return m, nil
	case healsMsg:
		m.heal.loaded(msg)
		if msg.err != nil {
			m.notice, m.noticeErr = "heals: "+msg.err.Error(), true
		}
		return m, nil
	case healDecidedMsg:
		if msg.err != nil {
			m.notice, m.noticeErr = msg.err.Error(), true
			return m, nil
		}
		m.notice, m.noticeErr = fmt.Sprintf("heal %d %s by %s at %s", msg.h.ID, msg.h.Status, msg.h.DecidedBy, msg.h.DecidedAt.Format("2006-01-02 15:04")), false
		if m.screen == screenHealDiff {
			m.screen = screenHeals
		}
		return m, m.loadHeals()
	case tea.KeyMsg:
		return m.key(msg)
	}
	if m.mode != inputNone {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

// key routes a key press: the input line first, then the help, then the
// screen in front.
func (m Model) key(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if msg.Type == tea.KeyCtrlC {
		return m, tea.Quit
	}
	if m.mode != inputNone {
		return m.inputKey(msg)
	}
	if m.full {
		if key.Matches(msg, m.keys.Help, m.keys.Cancel) {
			m.full = false
		} else if key.Matches(msg, m.keys.Quit) {
			return m, tea.Quit
		}
		return m, nil
	}
	switch {
	case key.Matches(msg, m.keys.Help):
		m.full = true
		return m, nil
	case key.Matches(msg, m.keys.Quit):
		return m, tea.Quit
	}
	switch m.screen {
	case screenHeals:
		return m.healListKey(msg)
	case screenHealDiff:
		return m.healDiffKey(msg)
	case screenError:
		return m, nil
	case screenDetail:
		return m.detailKey(msg)
	}
	return m.sessionKey(msg)
}

// inputKey edits the input line; enter submits it, esc cancels.
func (m Model) inputKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch {
	case key.Matches(msg, m.keys.Cancel):
		if m.mode == inputFilter {
			m.ses.filter = ""
		}
		m.mode = inputNone
		m.input.Blur()
		m.input.Reset()
		return m, nil
	case key.Matches(msg, m.keys.Submit):
		v := strings.TrimSpace(m.input.Value())
		mode := m.mode
		m.input.Reset()
		if mode != inputStep {
			m.mode = inputNone
			m.input.Blur()
		}
		switch mode {
		case inputFilter:
			m.ses.filter = v
			m.ses.treeTop = 0
		case inputEdit:
			st, err := parseEdit(v)
			if err != nil {
				// The editor stays open with the text, and says why.
				m.mode = inputEdit
				m.input.SetValue(v)
				m.input.CursorEnd()
				m.notice, m.noticeErr = "not a step: "+err.Error(), true
				return m, m.input.Focus()
			}
			m.notice, m.noticeErr = "", false
			m.decide(session.Decision{Verdict: session.Edit, Command: st.String()})
		case inputReason:
			if v == "" {
				v = "no reason given"
			}
			m.decide(session.Decision{Verdict: session.Reject, Reason: v})
		case inputStep:
			if v == "" {
				return m, nil
			}
			m.sent = v // back on the line if the command layer refuses it
			return m, m.control(AddStep{Line: v})
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	if m.mode == inputFilter {
		m.ses.filter = strings.TrimSpace(m.input.Value())
		m.ses.treeTop = 0
	}
	return m, cmd
}

// control hands c to the command layer off the UI goroutine.
func (m Model) control(c Command) tea.Cmd {
	if m.o.Control == nil {
		return nil
	}
	f := m.o.Control
	return func() tea.Msg { f(c); return nil }
}

// decide answers the proposal in front.
func (m *Model) decide(d session.Decision) {
	p := m.ses.pending
	if p == nil {
		return
	}
	d.By, d.At = m.o.Reviewer, m.o.Now()
	p.reply <- d
	m.ses.pending = nil
	if len(m.ses.queue) > 0 {
		m.ses.pending, m.ses.queue = m.ses.queue[0], m.ses.queue[1:]
	}
}

func (m Model) sessionKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.activeKeys()
	pending := m.ses.pending != nil
	switch {
	case pending && key.Matches(msg, k.Approve):
		m.decide(session.Decision{Verdict: session.Approve})
	case pending && key.Matches(msg, k.ApproveRest):
		m.decide(session.Decision{Verdict: session.ApproveRest})
	case pending && key.Matches(msg, k.Skip):
		m.decide(session.Decision{Verdict: session.Skip})
	case pending && key.Matches(msg, k.Edit):
		m.mode = inputEdit
		m.input.SetValue(stepLabel(m.ses.pending.p.Command))
		m.input.CursorEnd()
		return m, m.input.Focus()
	case pending && key.Matches(msg, k.Reject):
		m.mode = inputReason
		m.input.Placeholder = "why? (the agent is told)"
		return m, m.input.Focus()
	case m.ses.focus == paneTrajectory && len(m.ses.steps) > 0 && key.Matches(msg, k.Detail):
		m.ses.cursor = clamp(m.ses.cursor, 0, len(m.ses.steps)-1)
		m.detail = newStepDetail(m.keys, m.st, m.ses.cursor)
		m.screen = screenDetail
	case m.ses.filter != "" && key.Matches(msg, k.Back):
		// esc after a filter was applied (/Menu enter) clears it.
		m.ses.filter = ""
		m.ses.treeTop = 0
	case key.Matches(msg, k.Panes):
		m.ses.focus = int(msg.Runes[0] - '1')
	case key.Matches(msg, k.Filter):
		// The filter is the page's: its pane comes to the front (under
		// tabs it would filter a pane not shown).
		m.ses.focus = paneTree
		m.mode = inputFilter
		m.input.SetValue(m.ses.filter)
		m.input.CursorEnd()
		return m, m.input.Focus()
	case key.Matches(msg, k.Focus):
		m.ses.focus = (m.ses.focus + 1) % 3
	case key.Matches(msg, k.FocusBack):
		m.ses.focus = (m.ses.focus + 2) % 3
	case key.Matches(msg, k.Up):
		m.ses.scroll(-1, m.paneRows())
	case key.Matches(msg, k.Down):
		m.ses.scroll(1, m.paneRows())
	case key.Matches(msg, k.PageUp):
		m.ses.scroll(-m.paneRows(), m.paneRows())
	case key.Matches(msg, k.PageDown):
		m.ses.scroll(m.paneRows(), m.paneRows())
	case key.Matches(msg, k.Pause):
		on := !m.o.Gate.Stepping()
		m.o.Gate.SetStepping(on)
		if on {
			m.notice, m.noticeErr = "paused: every step waits for a (approve) or s (skip)", false
		} else {
			m.notice, m.noticeErr = "resumed: only the agent's steps wait", false
		}
	case key.Matches(msg, k.Heals) && m.o.Heals != nil:
		m.back, m.screen = screenSession, screenHeals
		return m, m.loadHeals()
	case m.o.Mode == ModeNew && key.Matches(msg, k.Input):
		m.mode = inputStep
		return m, m.input.Focus()
	case m.o.Mode == ModeNew && key.Matches(msg, k.Write):
		return m, m.control(WriteTest{})
	case m.o.Mode == ModeRun && key.Matches(msg, k.Rerun):
		if m.ses.running {
			m.notice, m.noticeErr = "the test is still running", true
			return m, nil
		}
		m.ses.running = true
		return m, m.control(RunAgain{Rerecord: -1})
	case m.o.Mode == ModeRun && key.Matches(msg, k.Rerecord):
		i := m.ses.cursor
		if m.ses.running {
			m.notice, m.noticeErr = "the test is still running", true
			return m, nil
		}
		if i < 0 || i >= len(m.ses.steps) || !strings.HasPrefix(m.ses.steps[i].command, "--step-type ACT") {
			m.notice, m.noticeErr = "select an act step in the trajectory pane (tab, ↑/↓) to re-record it", true
			return m, nil
		}
		m.ses.running = true
		m.notice, m.noticeErr = fmt.Sprintf("re-recording step %d from scratch", i+1), false
		return m, m.control(RunAgain{Rerecord: i})
	}
	return m, nil
}

// detailKey scrolls the step detail; esc closes it.
func (m Model) detailKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.keys.Back) {
		m.screen = screenSession
		return m, nil
	}
	m.syncDetail()
	var cmd tea.Cmd
	m.detail, cmd = m.detail.Update(msg)
	return m, cmd
}

// syncDetail sizes the step detail to the screen and draws the step as it
// is now.
func (m *Model) syncDetail() {
	m.detail.SetSize(max(m.w, 20), max(m.h, 6)-2)
	m.detail.SetStep(&m.ses)
}
