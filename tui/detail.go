package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/e2e-dev/e2e/session"
)

// stepDetail is the detail view of one trajectory step (enter on a step):
// everything the trajectory pane cuts at its width — the whole command,
// status, cache outcome and miss reason, the error, the candidates of an
// ambiguity with their containers, timings, re-identification scores,
// model calls, an act's own steps — wrapped to the width, in a viewport
// that scrolls when it is taller than the screen. esc closes it.
type stepDetail struct {
	keys  KeyMap
	st    Styles
	vp    viewport.Model
	index int // the test step shown
}

// newStepDetail is the detail of test step index.
func newStepDetail(keys KeyMap, st Styles, index int) stepDetail {
	vp := viewport.New(0, 0)
	vp.KeyMap = viewport.KeyMap{} // the studio's key map scrolls it (Update)
	return stepDetail{keys: keys, st: st, vp: vp, index: index}
}

// SetSize sets the size of the view's box, border included.
func (d *stepDetail) SetSize(w, h int) {
	d.vp.Width, d.vp.Height = max(1, w-2), max(1, h-3) // border, title
}

// SetStep draws the step from s, as it is now (a running step changes),
// keeping the scroll position where the content still reaches it.
func (d *stepDetail) SetStep(s *sessionState) {
	d.vp.SetContent(strings.Join(d.lines(s, d.vp.Width), "\n"))
	d.vp.SetYOffset(d.vp.YOffset)
}

// Update scrolls on the studio's up, down, page up and page down keys.
func (d stepDetail) Update(msg tea.Msg) (stepDetail, tea.Cmd) {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return d, nil
	}
	switch {
	case key.Matches(k, d.keys.Up):
		d.vp.ScrollUp(1)
	case key.Matches(k, d.keys.Down):
		d.vp.ScrollDown(1)
	case key.Matches(k, d.keys.PageUp):
		d.vp.PageUp()
	case key.Matches(k, d.keys.PageDown):
		d.vp.PageDown()
	}
	return d, nil
}

// View is the viewport's rows; Title goes above them.
func (d stepDetail) View() []string { return strings.Split(d.vp.View(), "\n") }

// Title names the step and, when the detail scrolls, the rows shown.
func (d stepDetail) Title(s *sessionState) string {
	title := fmt.Sprintf("Step %d of %d", d.index+1, len(s.steps))
	if s.file != "" {
		title += " · " + s.file
		// A typed step of a new test has no line in a file yet.
		if d.index < len(s.steps) && s.steps[d.index].line > 0 && !s.newTest {
			title += fmt.Sprintf(":%d", s.steps[d.index].line)
		}
	}
	if n := d.vp.TotalLineCount(); n > d.vp.Height {
		title += fmt.Sprintf(" (%d-%d of %d)", d.vp.YOffset+1, min(d.vp.YOffset+d.vp.Height, n), n)
	}
	return title
}

// ShortHelp implements help.KeyMap.
func (d stepDetail) ShortHelp() []key.Binding {
	k := d.keys
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Back, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (d stepDetail) FullHelp() [][]key.Binding { return d.keys.fullHelp() }

// labelW is the width of the detail's label column.
const labelW = 14

// lines is the detail of the step at width w.
func (d stepDetail) lines(s *sessionState, w int) []string {
	if d.index >= len(s.steps) {
		return []string{d.st.Dim.Render("(this step is not in the trajectory any more: the test ran again)")}
	}
	st := s.steps[d.index]
	var out []string
	for _, l := range wrap(stepLabel(st.command), w) {
		out = append(out, d.st.Title.Render(l))
	}
	out = append(out, "")
	out = append(out, d.fields(st, w, "")...)
	if len(st.subs) > 0 {
		out = append(out, "", d.st.Title.Render(fmt.Sprintf("act steps (%d)", len(st.subs))))
		for j, sub := range st.subs {
			head := fmt.Sprintf("  %d.%d %s ", d.index+1, j+1, statusMark(sub.status))
			out = append(out, hang(head, stepLabel(sub.command), w, lipgloss.Width(head))...)
			out = append(out, d.fields(sub, w, "      ")...)
		}
	}
	return out
}

// fields are a step's labelled lines, each indented by indent (an act's
// own step): command (a test step's), status, cache, miss reason, time, model calls, re-identification,
// postcondition, note, then the error and the candidates.
func (d stepDetail) fields(st trajStep, w int, indent string) []string {
	var out []string
	field := func(label, text string) {
		if text == "" {
			return
		}
		out = append(out, hang(indent+fmt.Sprintf("%-*s", labelW, label), text, w, len(indent)+labelW)...)
	}
	if indent == "" { // an act's own step's label above is its command
		field("command", session.StepText(st.command))
	}
	status := st.status
	if status == "" {
		status = "not run yet"
	}
	field("status", strings.TrimSpace(statusMark(st.status)+" "+status))
	if st.status != "" && st.status != "running" {
		field("cache", cacheLabel(st.cache))
		field("miss reason", st.missReason)
		if st.durationMS > 0 || st.status != string(session.StatusSkipped) {
			field("time", fmtMillis(st.durationMS))
		}
		if st.llmCalls > 0 || indent == "" { // an act's own steps rarely call one
			field("model calls", fmt.Sprint(st.llmCalls))
		}
	}
	if r := st.reid; r != nil {
		text := fmt.Sprintf("score %.2f", r.Score)
		if r.Second != "" || r.RunnerUp > 0 {
			text += fmt.Sprintf(" · runner-up %.2f %s", r.RunnerUp, r.Second)
		}
		field("re-identified", strings.TrimSpace(text))
	}
	field("postcondition", st.post)
	field("note", st.note)
	gap := func() {
		if indent == "" {
			out = append(out, "")
		}
	}
	if st.err != "" {
		gap()
		out = append(out, d.st.Bad.Render(indent+"error"))
		for _, para := range strings.Split(strings.TrimRight(st.err, "\n"), "\n") {
			for _, l := range hang(indent+"  ", para, w, len(indent)+2) {
				out = append(out, d.st.Bad.Render(l))
			}
		}
	}
	if len(st.cands) > 0 {
		gap()
		out = append(out, d.st.Title.Render(indent+fmt.Sprintf("candidates (%d)", len(st.cands))))
		for i, c := range st.cands {
			head := indent + fmt.Sprintf("  %d. %.2f  ", i+1, c.Score)
			out = append(out, hang(head, c.Element, w, lipgloss.Width(head))...)
			if c.Container != "" {
				out = append(out, hang(strings.Repeat(" ", lipgloss.Width(head))+"in ", c.Container, w, lipgloss.Width(head)+3)...)
			}
		}
	}
	return out
}

// hang wraps text to w cells after head, the lines after the first
// indented by indent cells; a head too wide for the width wraps under it.
func hang(head, text string, w, indent int) []string {
	if w-indent < 12 {
		indent = min(4, w/4)
	}
	if w-lipgloss.Width(head) < 12 {
		return append([]string{head}, hang(strings.Repeat(" ", indent), text, w, indent)...)
	}
	first := wrap(text, w-lipgloss.Width(head))
	out := []string{head + first[0]}
	rest := strings.TrimLeft(strings.TrimPrefix(text, first[0]), " ")
	if rest == "" {
		return out
	}
	for _, l := range wrap(rest, w-indent) {
		out = append(out, strings.Repeat(" ", indent)+l)
	}
	return out
}

// fmtMillis is a step's time: 340 ms, 1.24 s.
func fmtMillis(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%d ms", ms)
	}
	return fmt.Sprintf("%.2f s", float64(ms)/1000)
}
