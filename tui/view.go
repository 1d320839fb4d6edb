package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/e2e-dev/e2e/session"
)

// wideAt is the width from which the three panes stand side by side;
// narrower terminals show one pane at a time under tabs.
const wideAt = 120

// View implements tea.Model. It always draws exactly the terminal's size.
func (m Model) View() string {
	w, h := max(m.w, 20), max(m.h, 6)
	var body, helpLine string
	input := m.inputLine(w)
	bar, above := m.statusBar(w)
	bodyH := h - 2 - len(above)
	if input != "" {
		bodyH--
	}
	switch {
	case m.full:
		body = m.helpView(w, bodyH)
		helpLine = m.help.ShortHelpView([]key.Binding{m.keys.Help, m.keys.Quit})
	case m.screen == screenError:
		body = m.errorView(w, bodyH)
		helpLine = m.help.ShortHelpView([]key.Binding{m.keys.Quit})
	case m.screen == screenHeals:
		body = m.healListView(w, bodyH)
		helpLine = m.keyBar(m.activeKeys().healListHelp().short)
	case m.screen == screenHealDiff:
		body = m.healDiffView(w, bodyH)
		helpLine = m.keyBar(m.activeKeys().healDiffHelp().short)
	case m.screen == screenDetail:
		m.syncDetail()
		title := m.detail.Title(&m.ses)
		if m.ses.pending != nil { // its keys work on the session screen
			title += m.st.Warn.Render(" · ! a step waits: esc to decide it")
		}
		body = m.box(title, m.detail.View(), w, bodyH, true)
		helpLine = m.keyBar(m.detail.ShortHelp())
	default:
		body = m.sessionView(w, bodyH)
		if m.mode != inputNone {
			helpLine = m.keyBar(m.keys.inputHelp().short)
		} else {
			detail := m.ses.focus == paneTrajectory && len(m.ses.steps) > 0
			helpLine = m.keyBar(m.activeKeys().sessionHelp(m.ses.pending != nil, m.o.Mode == ModeNew, detail).short)
		}
	}
	parts := []string{body}
	if input != "" {
		parts = append(parts, input)
	}
	parts = append(parts, above...)
	parts = append(parts, bar, fit(helpLine, w))
	return strings.Join(parts, "\n")
}

// inputLine is the input line when one is open (always in a new test).
func (m Model) inputLine(w int) string {
	var label string
	switch m.mode {
	case inputFilter:
		label = "filter /"
	case inputEdit:
		label = "edit ›"
	case inputReason:
		label = "reject, why ›"
	case inputStep:
		label = "step or goal ›"
	default:
		if m.o.Mode != ModeNew || m.screen != screenSession {
			return ""
		}
		return fit(m.st.Dim.Render("step or goal › (i to type)"), w)
	}
	m.input.Width = max(1, w-lipgloss.Width(label)-2)
	return fit(m.st.Title.Render(label)+" "+m.input.View(), w)
}

// decisionKeys lists the keys that decide the step in front, as the key
// map has them now ("a approve · e edit · s skip" for a test's own step).
func (m Model) decisionKeys() string {
	k := m.activeKeys()
	var parts []string
	for _, b := range []key.Binding{k.Approve, k.Edit, k.Reject, k.ApproveRest, k.Skip} {
		if b.Enabled() {
			word, _, _ := strings.Cut(b.Help().Desc, " ")
			if b.Help().Key == k.ApproveRest.Help().Key {
				word = "rest"
			}
			parts = append(parts, b.Help().Key+" "+word)
		}
	}
	return strings.Join(parts, " · ")
}

// statusBar: test, step, model calls, tokens, cost, elapsed, state, and the
// latest notice or model error.
func (m Model) statusBar(w int) (string, []string) {
	s := &m.ses
	state := "done"
	switch {
	case m.screen == screenError:
		state = "error"
	case s.pending != nil:
		state = "waiting for you"
	case s.running && m.o.Gate.Stepping():
		state = "running, step by step" // each step waits for a before it runs
	case s.running && s.newTest && s.current < 0:
		state = "recording"
	case s.running:
		state = "running"
	case s.result != "":
		state = string(s.result)
	}
	step := "-"
	if n := len(s.steps); n > 0 {
		cur := s.current + 1
		if cur == 0 {
			cur = n
		}
		if !s.running { // a run that failed stops at its failed step, whatever it skipped after
			for i, st := range s.steps {
				if st.status == "failed" {
					cur = i + 1
					break
				}
			}
		}
		step = fmt.Sprintf("%d/%d", cur, n)
	}
	if m.screen == screenError {
		return m.statusLine(" e2e studio │ the test cannot be opened", "", w)
	}
	if m.screen == screenHeals || m.screen == screenHealDiff {
		state = fmt.Sprintf(" heal review │ %d staged │ reviewer %s", len(m.heal.list), m.o.Reviewer)
		return m.statusLine(state, "", w)
	}
	name := s.test
	if name == "" {
		name = m.o.Title
	}
	left := fmt.Sprintf(" %s │ step %s │ %s", clip(name, 28), step, state)
	stats := fmt.Sprintf("model %d calls · %s tok · $%.4f │ %s", s.modelCalls, tokens(s.tokens), s.cost, fmtDuration(s.elapsed(m.o.Now())))
	if w >= wideAt || m.notice == "" && s.modelErr == "" && s.testErr == "" {
		// Wide, or nothing to tell: the figures come first. Narrow with a
		// message, the message does (the figures are cut).
		left = fmt.Sprintf(" %s │ step %s │ %s │ %s", clip(name, 28), step, stats, state)
		return m.statusLine(left, "", w)
	}
	return m.statusLine(left, stats, w)
}

// statusLine ends the status bar with the latest notice or model error.
// A message the bar would cut is drawn whole on lines of its own above the
// bar (at most three), and the bar points up to it.
func (m Model) statusLine(left, tail string, w int) (string, []string) {
	msg := m.notice
	isErr := m.noticeErr
	if m.ses.modelErr != "" && m.screen == screenSession {
		msg, isErr = m.ses.modelErr, true
	}
	if msg == "" && m.ses.testErr != "" && m.screen == screenSession {
		msg, isErr = oneLine(m.ses.testErr), true
		if h := failureHint(msg); h != "" {
			msg = h + " · " + msg
		}
	}
	var above []string
	if msg != "" {
		mark := "· "
		if isErr {
			mark = "! "
		}
		whole := left + " │ " + mark + msg
		if tail != "" {
			whole += " │ " + tail
		}
		if lipgloss.Width(whole) > w {
			for i, l := range wrap(mark+msg, w) {
				if i == 3 {
					above[2] = fit(strings.TrimRight(above[2], " ")+"…", w)
					break
				}
				above = append(above, l)
			}
			style := m.st.StatusBar
			if isErr {
				style = m.st.StatusError
			}
			for i := range above {
				above[i] = style.Render(pad(above[i], w))
			}
			msg = "↑"
		}
		left += " │ " + mark + msg
	}
	if tail != "" {
		left += " │ " + tail
	}
	line := pad(left, w)
	if isErr && msg != "" {
		return m.st.StatusError.Render(line), above
	}
	return m.st.StatusBar.Render(line), above
}

func tokens(n int) string {
	if n >= 10_000 {
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}

// paneRows is how many content rows a session pane has.
func (m Model) paneRows() int {
	_, above := m.statusBar(max(m.w, 20))
	h := max(m.h, 6) - 2 - 2 - 1 - len(above) // status, help, border, title, a long message
	if m.mode != inputNone || m.o.Mode == ModeNew {
		h--
	}
	if max(m.w, 20) < wideAt {
		h-- // the tab bar
	}
	return max(1, h)
}

func (m Model) sessionView(w, h int) string {
	rows := m.paneRows()
	titles := []string{"Page", "Proposed steps", "Trajectory"}
	if m.o.Mode == ModeNew {
		titles[2] = "Recording"
	}
	render := func(p, pw int) string {
		iw := pw - 2
		var title string
		var lines []string
		switch p {
		case paneTree:
			title, lines = m.treePane(iw, rows)
		case paneProposals:
			title, lines = m.proposalsPane(iw, rows)
		default:
			title, lines = m.trajectoryPane(iw, rows)
		}
		mark := "  "
		if p == m.ses.focus {
			mark = "▸ " // without colour the border does not tell: a mark does
		}
		return m.box(mark+titles[p]+title, lines, pw, h, p == m.ses.focus)
	}
	if w >= wideAt {
		w1 := w * 2 / 5
		w2 := (w - w1) / 2
		w3 := w - w1 - w2
		return lipgloss.JoinHorizontal(lipgloss.Top, render(paneTree, w1), render(paneProposals, w2), render(paneTrajectory, w3))
	}
	var tabs []string
	for i, t := range titles {
		label := fmt.Sprintf(" %d %s ", i+1, t)
		if i == m.ses.focus {
			tabs = append(tabs, m.st.TabActive.Render("["+label+"]"))
		} else {
			tabs = append(tabs, m.st.Tab.Render(" "+label+" "))
		}
	}
	if m.ses.pending != nil && m.ses.focus != paneProposals {
		tabs = append(tabs, m.st.Warn.Render(" ! a step waits"))
	}
	tabBar := fit(strings.Join(tabs, ""), w)
	iw := w - 2
	var title string
	var lines []string
	switch m.ses.focus {
	case paneTree:
		title, lines = m.treePane(iw, rows)
	case paneProposals:
		title, lines = m.proposalsPane(iw, rows)
	default:
		title, lines = m.trajectoryPane(iw, rows)
	}
	return tabBar + "\n" + m.box(titles[m.ses.focus]+title, lines, w, h-1, true)
}

// box draws a bordered pane of exactly w×h with a title line.
func (m Model) box(title string, lines []string, w, h int, focused bool) string {
	iw, ih := max(1, w-2), max(1, h-2)
	out := make([]string, 0, ih)
	out = append(out, m.st.Title.Render(fit(title, iw)))
	for _, l := range lines {
		if len(out) == ih {
			break
		}
		out = append(out, fit(l, iw))
	}
	for len(out) < ih {
		out = append(out, strings.Repeat(" ", iw))
	}
	st := m.st.Pane
	if focused {
		st = m.st.PaneFocused
	}

	return st.Width(iw).Render(strings.Join(out, "\n"))
}

// treeStart is the first outline row shown: the scroll position, or (after
// the target changed) one that brings the target into view.
func (s *sessionState) treeStart(rows int) int {
	lines := s.treeLines()
	if s.treeTop >= 0 {
		return clamp(s.treeTop, 0, max(0, len(lines)-rows))
	}
	idx := targetIndex(lines, s.target)
	if idx < 0 {
		return 0
	}
	return clamp(idx-rows/3, 0, max(0, len(lines)-rows))
}

func targetIndex(lines []string, target string) int {
	if target == "" {
		return -1
	}
	mark := "[ref=" + target + "]"
	for i, l := range lines {
		if strings.Contains(l, mark) {
			return i
		}
	}
	return -1
}

func (m Model) treePane(iw, rows int) (string, []string) {
	s := &m.ses
	title := ""
	if s.url != "" {
		title = " · " + s.url
	}
	if s.filter != "" {
		title += " · /" + s.filter
	}
	lines := s.treeLines()
	if len(s.outline) == 0 {
		return title, []string{m.st.Dim.Render("(no page yet)")}
	}
	if len(lines) == 0 {
		return title, []string{m.st.Dim.Render("(nothing matches /" + s.filter + ")")}
	}
	top := s.treeStart(rows)
	ti := targetIndex(lines, s.target)
	var out []string
	for i := top; i < len(lines) && len(out) < rows; i++ {
		if i == ti {
			out = append(out, m.st.Target.Render(fit("▶ "+lines[i], iw)))
		} else {
			out = append(out, "  "+lines[i])
		}
	}
	if len(lines) > rows {
		title += fmt.Sprintf(" (%d-%d of %d)", top+1, min(top+rows, len(lines)), len(lines))
	}
	return title, out
}

func proposalKind(p session.Proposal) string {
	switch p.Kind {
	case session.ProposedByAgent:
		return "agent step"
	case session.ProposedReplay:
		return "replayed step"
	}
	return "test step"
}

func (m Model) proposalsPane(iw, rows int) (string, []string) {
	s := &m.ses
	var out []string
	if p := s.pending; p != nil {
		out = append(out, m.st.Warn.Render(fmt.Sprintf("waiting: #%d %s, step %d", p.p.ID, proposalKind(p.p), p.p.Index+1)))
		if p.p.Goal != "" {
			out = append(out, wrap("goal: "+p.p.Goal, iw)...)
		}
		for i, l := range wrap(stepLabel(p.p.Command), iw-2) {
			if i == 0 {
				out = append(out, m.st.Target.Render(fit("▶ "+l, iw)))
			} else {
				out = append(out, "  "+l)
			}
		}
		out = append(out, m.st.Dim.Render(m.decisionKeys()))
		if n := len(s.queue); n > 0 {
			out = append(out, fmt.Sprintf("(+%d more waiting)", n))
		}
		out = append(out, "")
	} else {
		out = append(out, m.st.Dim.Render("no step waiting"), "")
	}
	if len(s.history) > 0 {
		out = append(out, m.st.Title.Render("decided"))
	}
	for i := len(s.history) - 1; i >= 0; i-- {
		h := s.history[i]
		line := fmt.Sprintf("#%d %s  %s", h.p.ID, verdictMark(h.d.Verdict), stepLabel(h.p.Command))
		switch h.d.Verdict {
		case session.Reject:
			out = append(out, m.st.Bad.Render(fit(line, iw)), "   why: "+h.d.Reason)
		case session.Edit:
			out = append(out, m.st.Changed.Render(fit(line, iw)), "   → "+stepLabel(h.d.Command))
		default:
			out = append(out, line)
		}
	}
	top := clamp(s.propTop, 0, max(0, len(out)-rows))
	return "", out[top:]
}

func (m Model) trajectoryPane(iw, rows int) (string, []string) {
	s := &m.ses
	if len(s.steps) == 0 {
		if s.newTest {
			return "", []string{m.st.Dim.Render("type a step (click: the Sign in button) or a goal (sign in as Alice) below;"),
				m.st.Dim.Render("goals go to the agent and you decide each step it proposes; w writes the test")}
		}
		if s.testErr != "" {
			return "", m.failureLines(iw)
		}
		return "", []string{m.st.Dim.Render("(no steps yet)")}
	}
	// The cache column is as wide as its longest label (re-identified is
	// wider than the others), so the commands stay lined up.
	cw := 10
	for _, st := range s.steps {
		cw = max(cw, len(cacheLabel(st.cache)))
		for _, sub := range st.subs {
			cw = max(cw, len(cacheLabel(sub.cache)))
		}
	}
	var out []string
	cursorLine, cursorEnd := 0, 0
	for i, st := range s.steps {
		cur := "  "
		selected := i == s.cursor && s.focus == paneTrajectory
		if selected {
			cur = "› "
			cursorLine = len(out)
		}
		// The selected step is wrapped, not cut: its whole command, its
		// act's steps and its error read in the pane (enter shows the
		// rest); the other steps take a line each.
		row := func(style func(...string) string, head, text string, indent int) {
			if !selected {
				out = append(out, style(fit(head+text, iw)))
				return
			}
			for _, l := range hang(head, text, iw, indent) {
				out = append(out, style(fit(l, iw)))
			}
		}
		status := func(st string) func(...string) string {
			return func(l ...string) string { return m.styleStatus(st, strings.Join(l, "")) }
		}
		head := fmt.Sprintf("%s%d %s %-*s ", cur, i+1, statusMark(st.status), cw, cacheLabel(st.cache))
		row(status(st.status), head, stepLabel(st.command), lipgloss.Width(head))
		for j, sub := range st.subs {
			h := fmt.Sprintf("    %d.%d %s %-*s ", i+1, j+1, statusMark(sub.status), cw, cacheLabel(sub.cache))
			row(status(sub.status), h, stepLabel(sub.command), lipgloss.Width(h))
			if sub.err != "" {
				row(m.st.Bad.Render, "        ✗ ", oneLine(sub.err), 10)
			}
		}
		if st.post != "" {
			row(m.st.Dim.Render, "    post: ", st.post, 10)
		}
		if st.err != "" {
			row(m.st.Bad.Render, "    ✗ ", oneLine(st.err), 6)
		}
		if selected {
			cursorEnd = len(out) - 1
		}
	}
	if s.testErr != "" && !anyStepFailed(s.steps) {
		out = append(out, m.failureLines(iw)...)
	}
	top := 0
	if cursorEnd >= rows {
		top = min(cursorLine, cursorEnd-rows+1) // the selected step in view, its first line at least
	}
	if len(out)-top > rows && s.running && s.current >= 0 {
		top = max(top, len(out)-rows) // follow the run
	}
	title := ""
	if s.file != "" {
		title = " · " + s.file
	}
	return title, out[min(top, len(out)):]
}

func (m Model) styleStatus(status, line string) string {
	switch status {
	case string(session.StatusFailed):
		return m.st.Bad.Render(line)
	case "running":
		return m.st.Warn.Render(line)
	}
	return line
}

func (m Model) helpView(w, h int) string {
	full := m.help
	full.ShowAll = true
	full.Width = w - 2
	groups := m.activeKeys().fullHelp()
	var lines []string
	if w >= wideAt {
		lines = strings.Split(full.FullHelpView(groups), "\n")
	} else { // two rows of columns
		lines = strings.Split(full.FullHelpView(groups[:2]), "\n")
		lines = append(lines, "")
		lines = append(lines, strings.Split(full.FullHelpView(groups[2:]), "\n")...)
	}
	lines = append(lines, "")
	lines = append(lines, wrap("The agent's steps wait for you; e's edit and r's reason reach the agent. "+
		"p holds every step, cached replay too. New test: type a step (click: the Sign in button) or a goal.", w-2)...)
	return m.box("Keys", lines, w, h, true)
}

func (m Model) errorView(w, h int) string {
	var lines []string
	msg := "unknown error"
	if m.o.Err != nil {
		msg = m.o.Err.Error()
	}
	for _, l := range strings.Split(strings.TrimRight(msg, "\n"), "\n") {
		lines = append(lines, wrap(l, w-2)...)
	}
	lines = append(lines, "", "Fix the file and open it again; q quits.")
	title := "Cannot open the test"
	if m.o.File != "" {
		title += " · " + m.o.File
	}
	return m.box(m.st.Bad.Render(title), lines, w, h, true)
}

// fit cuts s (which may hold styles) to w cells and pads it to exactly w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) > w {
		s = truncate(s, w)
	}
	if d := w - lipgloss.Width(s); d > 0 {
		s += strings.Repeat(" ", d)
	}
	return s
}

// pad is fit for plain text.
func pad(s string, w int) string { return fit(s, w) }

// truncate cuts s to at most w cells, ending with … when it cut. Styled
// text loses its styles past the cut (a reset is added).
func truncate(s string, w int) string {
	var b strings.Builder
	width := 0
	inEsc := false
	styled := false
	for _, r := range s {
		if r == '\x1b' {
			inEsc, styled = true, true
			b.WriteRune(r)
			continue
		}
		if inEsc {
			b.WriteRune(r)
			if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
				inEsc = false
			}
			continue
		}
		rw := lipgloss.Width(string(r))
		if width+rw > w-1 {
			b.WriteRune('…')
			if styled {
				b.WriteString("\x1b[0m")
			}
			return b.String()
		}
		b.WriteRune(r)
		width += rw
	}
	return b.String()
}

func clip(s string, n int) string {
	if lipgloss.Width(s) <= n {
		return s
	}
	return truncate(s, n)
}

// wrap breaks plain text into lines of at most w cells, at spaces when it can.
func wrap(s string, w int) []string {
	if w <= 1 {
		return []string{s}
	}
	var out []string
	for lipgloss.Width(s) > w {
		runes := []rune(s)
		cut := min(w, len(runes)-1)
		for i := cut; i > w/2; i-- {
			if runes[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, string(runes[:cut]))
		s = strings.TrimLeft(string(runes[cut:]), " ")
	}
	return append(out, s)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cacheLabel is a step's cache status as the trajectory pane shows it.
func cacheLabel(c session.CacheStatus) string {
	if c == session.CacheNone {
		return "-"
	}
	return string(c)
}

// keyBar draws the short help in the width: when every key does not fit it
// drops keys from the middle, so the last two (? help, q quit) always show.
func (m Model) keyBar(keys []key.Binding) string {
	h := m.help
	h.Width = 0
	keep := len(keys) - 2
	if keep < 0 {
		keep = 0
	}
	for n := keep; n >= 0; n-- {
		shown := append(append([]key.Binding{}, keys[:n]...), keys[keep:]...)
		if v := h.ShortHelpView(shown); lipgloss.Width(v) <= m.w || n == 0 {
			return v
		}
	}
	return ""
}

// failureLines is the test-level error in the trajectory pane, wrapped to
// the width: a run that fails before (or between) its steps says why.
func (m Model) failureLines(iw int) []string {
	text := "✗ test failed: " + failureText(oneLine(m.ses.testErr))
	var out []string
	for _, l := range strings.Split(lipgloss.NewStyle().Width(iw).Render(text), "\n") {
		out = append(out, m.st.Bad.Render(fit(strings.TrimRight(l, " "), iw)))
	}
	return out
}

func anyStepFailed(steps []trajStep) bool {
	for _, st := range steps {
		if st.err != "" {
			return true
		}
		for _, sub := range st.subs {
			if sub.err != "" {
				return true
			}
		}
	}
	return false
}
