package tui

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/e2e-dev/e2e/session"
)

// KeyMap is every key the studio answers to. The help line and the full
// help (?) are drawn from it, so they cannot drift from the bindings.
type KeyMap struct {
	Approve     key.Binding
	Edit        key.Binding
	Reject      key.Binding
	ApproveRest key.Binding
	Skip        key.Binding
	Pause       key.Binding
	Rerun       key.Binding
	Rerecord    key.Binding
	Filter      key.Binding
	Input       key.Binding
	Write       key.Binding
	Heals       key.Binding
	Open        key.Binding
	Detail      key.Binding
	Accept      key.Binding
	Refuse      key.Binding
	Back        key.Binding
	Focus       key.Binding
	FocusBack   key.Binding
	Panes       key.Binding // 1, 2, 3: show that pane
	Up          key.Binding
	Down        key.Binding
	PageUp      key.Binding
	PageDown    key.Binding
	Help        key.Binding
	Quit        key.Binding
	Submit      key.Binding
	Cancel      key.Binding
}

// DefaultKeyMap is the studio's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Approve:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Edit:        key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit")),
		Reject:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reject")),
		ApproveRest: key.NewBinding(key.WithKeys("A"), key.WithHelp("A", "approve rest of act")),
		Skip:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "skip")),
		Pause:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause/step every step")),
		Rerun:       key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "run again")),
		Rerecord:    key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "re-record act")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter page")),
		Input:       key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "type a step")),
		Write:       key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write test")),
		Heals:       key.NewBinding(key.WithKeys("H"), key.WithHelp("H", "heals")),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Detail:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "step detail")),
		Accept:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "accept heal")),
		Refuse:      key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "reject heal")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Focus:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		FocusBack:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Panes:       key.NewBinding(key.WithKeys("1", "2", "3"), key.WithHelp("1/2/3", "show pane")),
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:      key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:        key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Submit:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "submit")),
		Cancel:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// keyHelp is the part of the key map that applies now; it implements
// help.KeyMap.
type keyHelp struct {
	short []key.Binding
	full  [][]key.Binding
}

func (k keyHelp) ShortHelp() []key.Binding  { return k.short }
func (k keyHelp) FullHelp() [][]key.Binding { return k.full }

// sessionHelp is the help of the session screen; detail says enter opens
// the selected step's detail (the trajectory pane is focused).
func (k KeyMap) sessionHelp(pending, newTest, detail bool) keyHelp {
	short := []key.Binding{k.Back, k.Focus, k.Filter, k.Pause, k.Rerun, k.Heals, k.Help, k.Quit}
	if newTest {
		short = []key.Binding{k.Back, k.Input, k.Write, k.Focus, k.Filter, k.Heals, k.Help, k.Quit}
	}
	if detail {
		short = append([]key.Binding{k.Detail}, short...)
	}
	if pending {
		short = append([]key.Binding{k.Approve, k.Edit, k.Reject, k.ApproveRest, k.Skip}, short...)
	}
	return keyHelp{short: short, full: k.fullHelp()}
}

func (k KeyMap) fullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Approve, k.Edit, k.Reject, k.ApproveRest, k.Skip},
		{k.Pause, k.Rerun, k.Rerecord, k.Input, k.Write},
		{k.Focus, k.FocusBack, k.Panes, k.Filter, k.Detail, k.Up, k.Down, k.PageUp, k.PageDown},
		{k.Heals, k.Open, k.Accept, k.Refuse, k.Back, k.Help, k.Quit},
	}
}

func (k KeyMap) healListHelp() keyHelp {
	return keyHelp{short: []key.Binding{k.Up, k.Down, k.Open, k.Accept, k.Refuse, k.Back, k.Help, k.Quit}, full: k.fullHelp()}
}

func (k KeyMap) healDiffHelp() keyHelp {
	return keyHelp{short: []key.Binding{k.Accept, k.Refuse, k.Up, k.Down, k.Back, k.Help, k.Quit}, full: k.fullHelp()}
}

func (k KeyMap) inputHelp() keyHelp {
	return keyHelp{short: []key.Binding{k.Submit, k.Cancel}, full: k.fullHelp()}
}

// activeKeys is the key map as it applies in the studio's state now: a key that
// does nothing here is disabled, so key.Matches ignores it and the help
// leaves it out. The one map answers keys and draws the help.
func (m Model) activeKeys() KeyMap {
	k := m.keys
	p := m.ses.pending
	onSession := m.screen == screenSession
	agent := p != nil && p.p.Kind == session.ProposedByAgent
	k.Approve.SetEnabled(onSession && p != nil)
	k.Edit.SetEnabled(onSession && p != nil)
	k.Skip.SetEnabled(onSession && p != nil)
	// Only the agent reads a reason; a test's own step is skipped, not rejected.
	k.Reject.SetEnabled(onSession && agent)
	// The rest of an act: only while an act's steps are asked about.
	k.ApproveRest.SetEnabled(onSession && p != nil && p.p.Goal != "")
	k.Rerun.SetEnabled(m.o.Mode == ModeRun)
	k.Rerecord.SetEnabled(m.o.Mode == ModeRun)
	k.Input.SetEnabled(m.o.Mode == ModeNew)
	k.Write.SetEnabled(m.o.Mode == ModeNew)
	k.Heals.SetEnabled(m.o.Heals != nil)
	k.Detail.SetEnabled(m.ses.focus == paneTrajectory && len(m.ses.steps) > 0)
	switch m.screen {
	case screenHeals:
		// A heal is decided where it can be read: open it first.
		k.Accept.SetEnabled(false)
		k.Refuse.SetEnabled(false)
		k.Back.SetEnabled(m.back == screenSession)
	case screenHealDiff, screenDetail:
		k.Back.SetEnabled(true)
	case screenSession:
		k.Accept.SetEnabled(false)
		k.Refuse.SetEnabled(false)
		k.Back.SetEnabled(m.ses.filter != "")
		k.Back.SetHelp("esc", "clear filter")
	default:
		k.Accept.SetEnabled(false)
		k.Refuse.SetEnabled(false)
		k.Back.SetEnabled(false)
	}
	return k
}
