package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestNewKeyBarFollowsFocus: --new starts in the input line, and the key
// bar shows the keys that work there; esc leaves it and the studio's keys
// (i type a step, w write test) show.
func TestNewKeyBarFollowsFocus(t *testing.T) {
	m := New(Options{Mode: ModeNew, Title: "new", Now: (&clock{now: t0}).Now, Gate: NewGate(false)})
	m = update(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if l := lastLine(m.View()); !strings.Contains(l, "enter submit") || strings.Contains(l, "i type a step") {
		t.Errorf("with the input focused the key bar is %q", l)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(80, 24))
	tm.Send(keyMsg("esc"))
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	if l := lastLine(fm.View()); !strings.Contains(l, "i type a step") || !strings.HasSuffix(strings.TrimRight(l, " "), "q quit") {
		t.Errorf("after esc the key bar is %q", l)
	}
}
