package run

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

var statusMark = map[session.StepStatus]string{
	session.StatusHit: "✓", session.StatusLocated: "✓", session.StatusRelocated: "✓", session.StatusPassed: "✓",
	session.StatusFailed: "✗", session.StatusSkipped: "-",
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
	case step.Press:
		if d == "" {
			return "press " + st.Value
		}
		return fmt.Sprintf("press %s in %s", st.Value, d)
	case step.Wait:
		if d == "" {
			return "wait " + st.Timeout.String()
		}
		return "wait for " + d
	case step.Expect:
		switch st.Expect {
		case step.ExpectVisible, step.ExpectHidden:
			return fmt.Sprintf("expect %s %s", d, st.Expect)
		case step.ExpectURL, step.ExpectTitle:
			return fmt.Sprintf("expect %s %s %q", st.Expect, verb(st), st.Value)
		default:
			return fmt.Sprintf("expect %s of %s %s %q", st.Expect, d, verb(st), st.Value)
		}
	}
	return strings.ToLower(string(st.Type)) + " " + d
}

func printStep(w io.Writer, st testfile.Step, sr *session.StepResult) {
	status := string(sr.Status)
	if sr.Cache == "miss" && sr.MissReason != "" {
		status += " (" + sr.MissReason + ")"
	}
	fmt.Fprintf(w, "  %s %-60s %-12s %5dms\n", statusMark[sr.Status], describe(st.Step), status, sr.DurationMS)
	if sr.Note != "" && sr.Status != session.StatusFailed {
		fmt.Fprintf(w, "      %s\n", sr.Note)
	}
	if sr.Status == session.StatusFailed {
		fmt.Fprintf(w, "      %s:%d: %s\n", "line", sr.Line, sr.Error)
		if sr.Screenshot != "" {
			fmt.Fprintf(w, "      screenshot: %s\n", sr.Screenshot)
		}
	}
}

// Counts summarises step statuses.
type Counts struct {
	Steps, Hits, Located, Relocated, Failed, Skipped, Misses int
}

// Count tallies the steps of tests.
func Count(tests []session.TestResult) Counts {
	var c Counts
	for _, t := range tests {
		for _, s := range t.Steps {
			c.Steps++
			switch s.Status {
			case session.StatusHit:
				c.Hits++
			case session.StatusLocated:
				c.Located++
			case session.StatusRelocated:
				c.Relocated++
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

func printTestSummary(w io.Writer, t *session.TestResult) {
	c := Count([]session.TestResult{*t})
	mark, name := "✓", t.Name
	if t.Status != "passed" {
		mark = "✗"
	} else if t.Healed() {
		name += " (healed: review with `e2e heals list`)"
	}
	fmt.Fprintf(w, "%s %s: %d steps, %d cache hits, %d located, %d re-located, %d failed in %s\n",
		mark, name, c.Steps, c.Hits, c.Located, c.Relocated, c.Failed, time.Duration(t.DurationMS)*time.Millisecond)
	if t.Status != "passed" && t.Error != "" {
		fmt.Fprintf(w, "  %s\n", t.Error)
	}
	fmt.Fprintln(w)
}

func printRunSummary(w io.Writer, rep *Report) {
	passed, failed, healed := 0, 0, 0
	for _, t := range rep.Tests {
		if t.Status == "passed" {
			passed++
		} else {
			failed++
		}
		if t.Status == "passed" && t.Healed() {
			healed++
		}
	}
	c := Count(rep.Tests)
	fmt.Fprintf(w, "run %d: %d steps, %d cache hits, %d located, %d re-located, %d failed in %s\n", rep.Run.ID, c.Steps, c.Hits, c.Located, c.Relocated, c.Failed,
		rep.Run.FinishedAt.Sub(rep.Run.StartedAt).Round(time.Millisecond))
	if healed > 0 {
		fmt.Fprintf(w, "%d passed (%d healed, staged for review), %d failed\n", passed, healed, failed)
		return
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
}

// JSON is the --json report: run → tests → steps.
type JSON struct {
	Run struct {
		ID         int64     `json:"id"`
		Project    string    `json:"project"`
		Status     string    `json:"status"`
		StartedAt  time.Time `json:"startedAt"`
		FinishedAt time.Time `json:"finishedAt"`
		Version    string    `json:"version"`
	} `json:"run"`
	Summary struct {
		Passed int `json:"passed"`
		Failed int `json:"failed"`
		Counts
	} `json:"summary"`
	Tests []JSONTest `json:"tests"`
}

// JSONTest is one test in the JSON report.
type JSONTest struct {
	Name   string     `json:"name"`
	File   string     `json:"file"`
	Status string     `json:"status"`
	Healed bool       `json:"healed"` // passed through a heal staged for review
	Error  string     `json:"error,omitempty"`
	MS     int64      `json:"ms"`
	Steps  []JSONStep `json:"steps"`
}

// JSONStep is one step in the JSON report.
type JSONStep struct {
	Index      int    `json:"index"`
	Line       int    `json:"line"`
	Command    string `json:"command"`
	Status     string `json:"status"`
	Cache      string `json:"cache"`
	MissReason string `json:"missReason,omitempty"`
	Error      string `json:"error,omitempty"`
	Screenshot string `json:"screenshot,omitempty"`
	MS         int64  `json:"ms"`
	LLMCalls   int    `json:"llmCalls"`
	Note       string `json:"note,omitempty"` // an assert step's reasoning
}

// ToJSON converts a report.
func ToJSON(rep *Report) *JSON {
	var j JSON
	j.Run.ID, j.Run.Project, j.Run.Status = rep.Run.ID, rep.Run.Project, rep.Run.Status
	j.Run.StartedAt, j.Run.FinishedAt, j.Run.Version = rep.Run.StartedAt, rep.Run.FinishedAt, rep.Run.Version
	j.Summary.Counts = Count(rep.Tests)
	j.Tests = []JSONTest{}
	for _, t := range rep.Tests {
		if t.Status == "passed" {
			j.Summary.Passed++
		} else {
			j.Summary.Failed++
		}
		jt := JSONTest{Name: t.Name, File: t.File, Status: t.Status, Healed: t.Status == "passed" && t.Healed(), Error: t.Error, MS: t.DurationMS, Steps: []JSONStep{}}
		for _, s := range t.Steps {
			jt.Steps = append(jt.Steps, JSONStep{Index: s.Index, Line: s.Line, Command: s.Command, Status: string(s.Status), Cache: s.Cache,
				MissReason: s.MissReason, Error: s.Error, Screenshot: s.Screenshot, MS: s.DurationMS, LLMCalls: s.LLMCalls, Note: s.Note})
		}
		j.Tests = append(j.Tests, jt)
	}
	return &j
}

// WriteJSON writes the JSON report to path atomically (a temp file renamed).
func WriteJSON(path string, rep *Report) error {
	b, err := json.MarshalIndent(ToJSON(rep), "", "  ")
	if err != nil {
		return err
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return os.Rename(tmp, path)
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
