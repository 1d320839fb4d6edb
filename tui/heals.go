package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
)

// healState is the heal review: the staged heals and the one open.
type healState struct {
	list    []session.Heal
	cursor  int
	open    *session.Heal
	top     int
	loading bool
	confirm string // "accept" or "reject" when y or n was pressed once on the open heal
}

type healsMsg struct {
	list []session.Heal
	err  error
}

type healDecidedMsg struct {
	h   *session.Heal
	err error
}

func (h *healState) loaded(msg healsMsg) {
	h.loading = false
	if msg.err != nil {
		return
	}
	h.list = msg.list
	h.cursor = clamp(h.cursor, 0, max(0, len(h.list)-1))
}

// loadHeals reads the staged heals off the UI goroutine.
func (m Model) loadHeals() tea.Cmd {
	hs := m.o.Heals
	if hs == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		list, err := hs.Heals(ctx, "staged")
		return healsMsg{list: list, err: err}
	}
}

// decideHeal accepts or rejects heal id, recording the reviewer.
func (m Model) decideHeal(id int64, accept bool) tea.Cmd {
	hs, by := m.o.Heals, m.o.Reviewer
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		h, err := hs.DecideHeal(ctx, id, accept, by)
		return healDecidedMsg{h: h, err: err}
	}
}

func (m Model) healListKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k, h := m.activeKeys(), &m.heal
	switch {
	case key.Matches(msg, k.Up):
		h.cursor = max(0, h.cursor-1)
	case key.Matches(msg, k.Down):
		h.cursor = min(max(0, len(h.list)-1), h.cursor+1)
	case key.Matches(msg, k.Open):
		if len(h.list) > 0 {
			sel := h.list[h.cursor]
			h.open, h.top = &sel, 0
			m.screen = screenHealDiff
		}
	case key.Matches(msg, k.Back):
		m.screen = screenSession
	}
	return m, nil
}

func (m Model) healDiffKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	k, h := m.activeKeys(), &m.heal
	asked := h.confirm
	h.confirm = ""
	switch {
	case key.Matches(msg, k.Accept, k.Refuse):
		if h.open == nil {
			return m, nil
		}
		// A decision is asked twice: y y accepts, n n rejects.
		verdict := map[bool]string{true: "accept", false: "reject"}[key.Matches(msg, k.Accept)]
		if asked != verdict {
			h.confirm = verdict
			m.notice, m.noticeErr = fmt.Sprintf("%s heal #%d? press %s again to %s it; any other key does not", verdict, h.open.ID, msg.String(), verdict), false
			return m, nil
		}
		return m, m.decideHeal(h.open.ID, verdict == "accept")
	case asked != "":
		m.notice, m.noticeErr = "not decided", false
	}
	switch {
	case key.Matches(msg, k.Up):
		h.top = max(0, h.top-1)
	case key.Matches(msg, k.Down):
		h.top++
	case key.Matches(msg, k.PageDown):
		h.top += m.h / 2
	case key.Matches(msg, k.PageUp):
		h.top = max(0, h.top-m.h/2)
	case key.Matches(msg, k.Back):
		m.screen = screenHeals
	}
	return m, nil
}

func (m Model) healListView(w, h int) string {
	hs := &m.heal
	var lines []string
	if len(hs.list) == 0 {
		lines = append(lines, m.st.Dim.Render("no staged heals: every recorded act replays as recorded"))
	}
	rows := max(1, h-2-1-4) // border, title, and the detail below
	top := clamp(hs.cursor-rows+1, 0, max(0, len(hs.list)-rows))
	for i := top; i < len(hs.list) && i < top+rows; i++ {
		x := hs.list[i]
		cur := "  "
		if i == hs.cursor {
			cur = "› "
		}
		steps := plural.Count(len(x.NewSteps), "step")
		if len(x.NewSteps) == 1 {
			steps += " " // the dates stay in line with those after "n steps"
		}
		line := fmt.Sprintf("%s#%-3d %-22s %-30s %d → %s  %s", cur, x.ID, clip(x.Test, 22), clip(x.Goal, 30), len(x.OldSteps), steps, x.CreatedAt.Format("01-02 15:04"))
		if i == hs.cursor {
			line = m.st.Cursor.Render(fit(line, w-2))
		}
		lines = append(lines, line)
	}
	if len(hs.list) > 0 {
		sel := hs.list[hs.cursor]
		for len(lines) < rows {
			lines = append(lines, "")
		}
		lines = append(lines, strings.Repeat("─", w-2))
		lines = append(lines, wrap("why: "+sel.Reason, w-2)...)
	}
	return m.box(fmt.Sprintf("Staged heals (%d) · enter opens one to decide it", len(hs.list)), lines, w, h, true)
}

// healDiffView shows the old and new trajectories side by side, each row
// marked = same, - deleted, + inserted, ~ changed; the reason; the
// postcondition; and the page evidence around the change.
func (m Model) healDiffView(w, h int) string {
	x := m.heal.open
	if x == nil {
		return m.box("Heal", nil, w, h, true)
	}
	iw := w - 2
	var lines []string
	lines = append(lines, wrap(fmt.Sprintf("test %q · goal %q · %s · failed at step %d", x.Test, x.Goal, x.Status, x.FailedIndex+1), iw)...)
	lines = append(lines, wrap("why: "+x.Reason, iw)...)
	lines = append(lines, "")
	col := (iw - 5) / 2
	lines = append(lines, m.st.Title.Render(fit("  OLD", col+2)+"  "+fit("NEW", col)))
	for _, d := range session.DiffSteps(x.OldSteps, x.NewSteps) {
		old, nw := "", ""
		if d.OldIndex >= 0 {
			old = fmt.Sprintf("%d %s", d.OldIndex+1, stepLabel(d.Old))
		}
		if d.NewIndex >= 0 {
			nw = fmt.Sprintf("%d %s", d.NewIndex+1, stepLabel(d.New))
		}
		row := string(d.Op) + " " + fit(old, col) + " │ " + fit(nw, col)
		switch d.Op {
		case session.DiffInsert:
			row = m.st.Insert.Render(row)
		case session.DiffDelete:
			row = m.st.Delete.Render(row)
		case session.DiffChanged:
			row = m.st.Changed.Render(row)
		}
		lines = append(lines, row)
	}
	lines = append(lines, m.st.Dim.Render("= same  - deleted  + inserted  ~ changed"), "")
	if x.Postcondition != "" {
		lines = append(lines, wrap("postcondition: "+x.Postcondition, iw)...)
	}
	lines = append(lines, m.st.Title.Render("page around the change"))
	if change := session.PageChange(x.PageBefore, x.PageAfter, 2); change != nil {
		// The outline when the replay failed against the one when the heal ended.
		for _, l := range change {
			switch l.Op {
			case session.DiffGap:
				lines = append(lines, m.st.Dim.Render("  ⋯"))
			case session.DiffDelete:
				lines = append(lines, m.st.Delete.Render(fit("- "+l.Old, iw)))
			case session.DiffInsert:
				lines = append(lines, m.st.Insert.Render(fit("+ "+l.New, iw)))
			default:
				lines = append(lines, fit("  "+l.Old, iw))
			}
		}
		top := clamp(m.heal.top, 0, max(0, len(lines)-(h-3)))
		return m.box(fmt.Sprintf("Heal #%d · y y accepts · n n rejects · esc back", x.ID), lines[top:], w, h, true)
	}
	// A heal recorded without the page outlines: its evidence stands in.
	ev := x.Evidence
	if ev.Route != "" {
		lines = append(lines, "  route: "+ev.Route)
	}
	for _, a := range ev.Appeared {
		lines = append(lines, m.st.Insert.Render("  + "+a))
	}
	for _, v := range ev.Vanished {
		lines = append(lines, m.st.Delete.Render("  - "+v))
	}
	if ev.Route == "" && len(ev.Appeared) == 0 && len(ev.Vanished) == 0 {
		lines = append(lines, m.st.Dim.Render("  (no page evidence recorded)"))
	}
	top := clamp(m.heal.top, 0, max(0, len(lines)-(h-3)))
	return m.box(fmt.Sprintf("Heal #%d · y y accepts · n n rejects · esc back", x.ID), lines[top:], w, h, true)
}
