package report

import (
	"fmt"
	"strings"

	"github.com/e2e-dev/e2e/session"
)

// SlowestShown is how many tests the HTML report's "Slowest tests" lists.
const SlowestShown = 10

// htmlHistory is a test's strip of recent runs and its flakiness.
type htmlHistory struct {
	Marks      []htmlMark
	Flaky, Ran int
	Rate       string // "40%"
	Class      string // "none", "some", "high": how flaky, for the colour
}

// htmlMark is one run in a strip: a letter, a colour and a tooltip.
type htmlMark struct {
	Letter, Class, Title string
	Current              bool // the run of this report
}

type htmlSlow struct {
	Name, ID                string // ID: the test's details element, when it is in this run
	Median, Max, Last, This string
	Runs                    int
	Flaky                   string
}

// outcomeMarks are the letters and classes of the outcomes.
var outcomeMarks = map[session.Outcome][2]string{
	session.OutcomePassed:  {"P", "p"},
	session.OutcomeFailed:  {"F", "f"},
	session.OutcomeFlaky:   {"~", "k"},
	session.OutcomeHealed:  {"H", "h"},
	session.OutcomeSkipped: {"S", "s"},
	session.OutcomeAbsent:  {"·", "a"},
}

// historyViews turns in.History into a strip per test name and the slowest
// tests; both are empty when the input has no history.
func historyViews(in *Input, ids map[string]string) (map[string]*htmlHistory, []htmlSlow) {
	if len(in.History) == 0 {
		return nil, nil
	}
	current := map[int64]bool{in.Report.Run.ID: true}
	for _, m := range in.Merged {
		current[m.ID] = true
	}
	out := make(map[string]*htmlHistory, len(in.History))
	rates := map[string]string{}
	for _, h := range in.History {
		hv := &htmlHistory{}
		for _, r := range h.Runs {
			m := outcomeMarks[r.Outcome]
			hv.Marks = append(hv.Marks, htmlMark{Letter: m[0], Class: m[1], Title: markTitle(r, current[r.RunID]), Current: current[r.RunID]})
		}
		hv.Flaky, hv.Ran = h.Flakiness()
		rate := h.FlakinessRate()
		hv.Rate = fmt.Sprintf("%.0f%%", 100*rate)
		switch {
		case hv.Flaky == 0:
			hv.Class = "none"
		case rate < 0.2:
			hv.Class = "some"
		default:
			hv.Class = "high"
		}
		out[h.Name] = hv
		rates[h.Name] = hv.Rate
	}
	this := map[string]int64{}
	for _, t := range in.Report.Tests {
		this[t.Name] = t.DurationMS
	}
	var slow []htmlSlow
	for _, s := range session.Slowest(in.History, SlowestShown) {
		hs := htmlSlow{Name: s.Name, ID: ids[s.Name], Median: Ms(s.MedianMS), Max: Ms(s.MaxMS), Runs: s.Runs, Flaky: rates[s.Name]}
		if ms, ok := this[s.Name]; ok {
			hs.This = Ms(ms)
		}
		slow = append(slow, hs)
	}
	return out, slow
}

// markTitle is a mark's tooltip: run, outcome, date, duration, attempts,
// commit and branch.
func markTitle(r session.TestRun, current bool) string {
	parts := []string{fmt.Sprintf("run %d", r.RunID)}
	if current {
		parts[0] += " (this run)"
	}
	switch r.Outcome {
	case session.OutcomeSkipped:
		why := "skipped: the run ended before it"
		if r.RunStatus == "interrupted" {
			why = "skipped: the run was interrupted"
		}
		parts = append(parts, why)
	case session.OutcomeAbsent:
		parts = append(parts, "not in this run (it ran other tests)")
	case session.OutcomeFlaky:
		parts = append(parts, fmt.Sprintf("flaky: passed on attempt %d", r.Attempts))
	case session.OutcomeFailed:
		s := "failed"
		if r.Attempts > 1 {
			s += fmt.Sprintf(" after %d attempts", r.Attempts)
		}
		parts = append(parts, s)
	default:
		parts = append(parts, string(r.Outcome))
	}
	parts = append(parts, r.At.Local().Format("2006-01-02 15:04"))
	if r.Ran() {
		parts = append(parts, Ms(r.DurationMS))
	}
	if r.Commit != "" {
		c := r.Commit
		if len(c) > 10 {
			c = c[:10]
		}
		if r.Branch != "" {
			c += " on " + r.Branch
		}
		parts = append(parts, "commit "+c)
	}
	title := strings.Join(parts, " · ")
	if r.Outcome == session.OutcomeFailed && r.Error != "" {
		title += "\n" + clipText(r.Error, 160)
	}
	return title
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
