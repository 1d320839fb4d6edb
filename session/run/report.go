package run

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

var statusMark = map[session.StepStatus]string{
	session.StatusHit: "✓", session.StatusLocated: "✓", session.StatusRelocated: "✓", session.StatusReidentified: "✓",
	session.StatusPassed: "✓", session.StatusFailed: "✗", session.StatusSkipped: "-",
}

// ReidentifiedText says how sure a re-identification was, as the reports show
// it after the status: `0.82 (next: button "Save" 0.41)`, or
// `0.90 (no other candidate)`; "" for nil.
func ReidentifiedText(r *session.Reidentification) string {
	switch {
	case r == nil:
		return ""
	case r.Second != "":
		return fmt.Sprintf("%.2f (next: %s %.2f)", r.Score, r.Second, r.RunnerUp)
	case r.RunnerUp > 0:
		return fmt.Sprintf("%.2f (next %.2f)", r.Score, r.RunnerUp)
	}
	return fmt.Sprintf("%.2f (no other candidate)", r.Score)
}

// describe is a step as a person reads it, variables unresolved.
func describe(st step.Step) string {
	d := st.Description
	switch st.Type {
	case step.Navigate:
		return "navigate to " + st.Value
	case step.TypeText:
		return fmt.Sprintf("type %q into %s", st.Value, d)
	case step.Select:
		return fmt.Sprintf("select %q in %s", st.Value, d)
	case step.AddOption:
		return fmt.Sprintf("choose %q too in %s", st.Value, d)
	case step.RemoveOption:
		return fmt.Sprintf("unchoose %q in %s", st.Value, d)
	case step.Drag:
		return fmt.Sprintf("drag %s onto %s", d, st.Value)
	case step.Scroll:
		if st.Value != "" {
			return fmt.Sprintf("scroll to %s in %s", d, st.Value)
		}
	case step.Upload:
		return fmt.Sprintf("upload %s into %s", strings.Join(step.UploadFiles(st.Value), ", "), d)
	case step.Press:
		if d == "" {
			return "press " + st.Value
		}
		return fmt.Sprintf("press %s in %s", st.Value, d)
	case step.Accept:
		if st.Value != "" {
			return fmt.Sprintf("answer the next dialog OK with %q", st.Value)
		}
		return "answer the next dialog OK"
	case step.Dismiss:
		return "answer the next dialog Cancel"
	case step.Wait:
		if d == "" {
			return "wait " + st.Timeout.String()
		}
		return "wait for " + d
	case step.Expect:
		switch st.Expect {
		case step.ExpectVisible, step.ExpectHidden:
			return fmt.Sprintf("expect %s %s", d, st.Expect)
		case step.ExpectURL, step.ExpectTitle, step.ExpectDialog:
			return fmt.Sprintf("expect %s %s %q", st.Expect, verb(st), st.Value)
		default:
			return fmt.Sprintf("expect %s of %s %s %q", st.Expect, d, verb(st), st.Value)
		}
	}
	return strings.ToLower(string(st.Type)) + " " + d
}

// printStep prints a step's line, and for a failed one its error at
// file:line (file as the test's header shows it), so that a terminal or an
// editor opens the step that failed.
func printStep(w io.Writer, pal Palette, file string, st testfile.Step, sr *session.StepResult) {
	printStepAt(w, pal, file, st, sr, 0)
}

// printStepAt is printStep for a step depth flows deep (0: the test's
// own), indented under the use step that ran its flow; file is the file
// the step is in (the flow's, at a depth over 0).
func printStepAt(w io.Writer, pal Palette, file string, st testfile.Step, sr *session.StepResult, depth int) {
	in := strings.Repeat("  ", depth)
	status := string(sr.Status)
	if sr.Cache == "miss" && sr.MissReason != "" {
		status += " (" + sr.MissReason + ")"
	}
	what := describe(st.Step)
	if st.Use != nil {
		what = st.Use.Command()
	}
	// Padded before it is coloured: the codes take no columns.
	status = pal.Status(string(sr.Status), fmt.Sprintf("%-12s", status))
	fmt.Fprintf(w, "  %s%s %-*s %s %5dms\n", in, pal.Status(string(sr.Status), statusMark[sr.Status]), max(60-2*depth, 20), what, status, sr.DurationMS)
	if sr.Reidentified != nil {
		fmt.Fprintf(w, "      %s%s\n", in, pal.Dim("re-identified "+ReidentifiedText(sr.Reidentified)))
	}
	if sr.Note != "" && sr.Status != session.StatusFailed {
		fmt.Fprintf(w, "      %s%s\n", in, pal.Dim(sr.Note))
	}
	if sr.Status == session.StatusFailed {
		at := fmt.Sprintf("line %d", sr.Line)
		if file != "" {
			at = fmt.Sprintf("%s:%d", file, sr.Line)
		}
		fmt.Fprintf(w, "      %s%s\n", in, pal.Fail(at+": "+sr.Error))
		if sr.Screenshot != "" {
			fmt.Fprintf(w, "      %sscreenshot: %s\n", in, sr.Screenshot)
		}
	}
}

// Counts summarises step statuses.
type Counts struct {
	Steps, Hits, Located, Relocated, Failed, Skipped, Misses int
	// Reidentified counts the steps whose cached selectors missed and
	// whose element was found by its likeness to the cached node: not
	// hits, not located.
	Reidentified int
}

// Count tallies the steps of tests.
func Count(tests []session.TestResult) Counts {
	var c Counts
	for _, t := range tests {
		for _, s := range t.Steps {
			if s.Kind == session.KindUse {
				continue // its flow's steps count, each
			}
			c.Steps++
			switch s.Status {
			case session.StatusHit:
				c.Hits++
			case session.StatusLocated:
				c.Located++
			case session.StatusRelocated:
				c.Relocated++
			case session.StatusReidentified:
				c.Reidentified++
			case session.StatusFailed:
				c.Failed++
			case session.StatusSkipped:
				c.Skipped++
			}
			if s.Cache == "miss" {
				c.Misses++
			}
		}
	}
	return c
}

func printTestSummary(w io.Writer, pal Palette, t *session.TestResult) {
	c := Count([]session.TestResult{*t})
	mark, name := pal.Pass("✓"), t.Name
	switch {
	case t.Status == session.TestNotRun:
		// The line above says why; the flow's failure is in the session's
		// own lines, once.
		fmt.Fprintf(w, "%s %s: not run\n\n", pal.Warn("-"), name)
		return
	case t.Status != session.TestPassed:
		mark = pal.Fail("✗")
	case t.Healed():
		mark, name = pal.Warn("✓"), name+pal.Warn(" (healed: review with `e2e heals list`)")
	}
	fmt.Fprintf(w, "%s %s: %s, %s, %d re-identified, %d located, %d re-located, %s in %s\n",
		mark, name, plural.Count(c.Steps, "step"), plural.Count(c.Hits, "cache hit"), c.Reidentified, c.Located, c.Relocated, pal.Count(c.Failed, fmt.Sprintf("%d failed", c.Failed), false), time.Duration(t.DurationMS)*time.Millisecond)
	if t.Status != session.TestPassed && t.Error != "" {
		fmt.Fprintf(w, "  %s\n", pal.Fail(t.Error))
	}
	fmt.Fprintln(w)
}

func printRunSummary(w io.Writer, pal Palette, rep *Report) {
	passed, failed, healed, notRun := 0, 0, 0, 0
	for _, t := range rep.Tests {
		switch t.Status {
		case session.TestPassed:
			passed++
		case session.TestNotRun:
			notRun++
		default:
			failed++
		}
		if t.Status == session.TestPassed && t.Healed() {
			healed++
		}
	}
	c := Count(rep.Tests)
	fmt.Fprintf(w, "run %d: %s, %s, %d re-identified, %d located, %d re-located, %d failed in %s\n",
		rep.Run.ID, plural.Count(c.Steps, "step"), plural.Count(c.Hits, "cache hit"), c.Reidentified, c.Located, c.Relocated, c.Failed,
		rep.Run.FinishedAt.Sub(rep.Run.StartedAt).Round(time.Millisecond))
	failedText := pal.Count(failed, fmt.Sprintf("%d failed", failed), false)
	if notRun > 0 {
		failedText += ", " + pal.Warn(fmt.Sprintf("%d not run", notRun))
	}
	if healed > 0 {
		fmt.Fprintf(w, "%s (%s), %s\n", pal.Pass(fmt.Sprintf("%d passed", passed)), pal.Warn(fmt.Sprintf("%d healed, staged for review", healed)), failedText)
		return
	}
	fmt.Fprintf(w, "%s, %s\n", pal.Pass(fmt.Sprintf("%d passed", passed)), failedText)
}

// MedianMS is the median duration of the steps that pass the filter.
func MedianMS(tests []session.TestResult, keep func(session.StepResult) bool) float64 {
	var ms []int64
	for _, t := range tests {
		for _, s := range t.Steps {
			if keep(s) {
				ms = append(ms, s.DurationMS)
			}
		}
	}
	if len(ms) == 0 {
		return 0
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i] < ms[j] })
	if len(ms)%2 == 1 {
		return float64(ms[len(ms)/2])
	}
	return float64(ms[len(ms)/2-1]+ms[len(ms)/2]) / 2
}
