package tui

import (
	"bytes"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
)

// TestFilterEscClears: /Cart + enter applies the filter, esc (out of the
// input line) clears it, as the README says.
func TestFilterEscClears(t *testing.T) {
	tm := teatest.NewTestModel(t, sessionModel(t, 160, 48, ModeRun), teatest.WithInitialTermSize(160, 48))
	for _, k := range []string{"/", "C", "a", "r", "t", "enter"} {
		tm.Send(keyMsg(k))
	}
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("· /Cart")) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	tm.Send(keyMsg("esc"))
	tm.Send(keyMsg("q"))
	m := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
	if m.ses.filter != "" {
		t.Errorf("after esc the filter is %q, want none", m.ses.filter)
	}
	if v := m.View(); bytes.Contains([]byte(v), []byte("· /Cart")) {
		t.Errorf("the page pane still says it is filtered:\n%s", v)
	}
}
