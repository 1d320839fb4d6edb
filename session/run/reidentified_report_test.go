package run

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// allStatuses are the step statuses session defines.
var allStatuses = []session.StepStatus{session.StatusHit, session.StatusLocated, session.StatusRelocated,
	session.StatusReidentified, session.StatusPassed, session.StatusFailed, session.StatusSkipped}

// TestStatusMarkComplete: every step status has a mark; re-identified
// passes.
func TestStatusMarkComplete(t *testing.T) {
	for _, s := range allStatuses {
		if statusMark[s] == "" {
			t.Errorf("no mark for %s", s)
		}
	}
	if statusMark[session.StatusReidentified] != "✓" {
		t.Errorf("re-identified is marked %q", statusMark[session.StatusReidentified])
	}
}

// TestPaletteReidentified: a re-identified step passed with help, yellow
// as a re-located one.
func TestPaletteReidentified(t *testing.T) {
	if got := (Palette{On: true}).Status(string(session.StatusReidentified), "x"); got != "\x1b[33mx\x1b[0m" {
		t.Errorf("re-identified coloured %q, want yellow", got)
	}
}

func TestReidentifiedText(t *testing.T) {
	for _, c := range []struct {
		r    *session.Reidentification
		want string
	}{
		{nil, ""},
		{&session.Reidentification{Score: 0.82, RunnerUp: 0.41, Second: `button "Save"`}, `0.82 (next: button "Save" 0.41)`},
		{&session.Reidentification{Score: 0.823, RunnerUp: 0.5}, `0.82 (next 0.50)`},
		{&session.Reidentification{Score: 0.9}, `0.90 (no other candidate)`},
	} {
		if got := ReidentifiedText(c.r); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

// TestCountAndLinesReidentified: re-identified steps are counted apart
// from hits, located and re-located ones, in the step line (with the
// score and the runner-up), the test's line and the run's.
func TestCountAndLinesReidentified(t *testing.T) {
	steps := []session.StepResult{
		{Index: 0, Status: session.StatusHit, Cache: "hit"},
		{Index: 1, Status: session.StatusReidentified, Cache: "miss", MissReason: "no-match",
			Reidentified: &session.Reidentification{Score: 0.82, RunnerUp: 0.41, Second: `button "Save draft"`}},
		{Index: 2, Status: session.StatusReidentified, Cache: "miss", MissReason: "no-match",
			Reidentified: &session.Reidentification{Score: 0.7}},
		{Index: 3, Status: session.StatusRelocated, Cache: "miss", MissReason: "no-match"},
		{Index: 4, Status: session.StatusLocated, Cache: "miss"},
	}
	tr := session.TestResult{Name: "save", Status: "passed", Steps: steps, DurationMS: 1500}
	c := Count([]session.TestResult{tr})
	if c != (Counts{Steps: 5, Hits: 1, Reidentified: 2, Relocated: 1, Located: 1, Misses: 4}) {
		t.Errorf("counts %+v", c)
	}

	var b bytes.Buffer
	st := testfile.Step{Step: step.Step{Type: step.Click, Description: "the Save button"}}
	printStep(&b, Palette{}, "save.e2e.yaml", st, &steps[1])
	out := b.String()
	for _, want := range []string{"✓ click the Save button", "re-identified (no-match)", `re-identified 0.82 (next: button "Save draft" 0.41)`} {
		if !strings.Contains(out, want) {
			t.Errorf("step line lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	printStep(&b, Palette{}, "save.e2e.yaml", st, &steps[3])
	if strings.Contains(b.String(), "re-identified") {
		t.Errorf("a re-located step reads as re-identified:\n%s", b.String())
	}

	b.Reset()
	printTestSummary(&b, Palette{}, &tr)
	if want := "✓ save: 5 steps, 1 cache hit, 2 re-identified, 1 located, 1 re-located, 0 failed in 1.5s"; !strings.Contains(b.String(), want) {
		t.Errorf("test line %q, want %q", b.String(), want)
	}
	b.Reset()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	printRunSummary(&b, Palette{}, &Report{Run: session.Run{ID: 7, StartedAt: start, FinishedAt: start.Add(2 * time.Second)},
		Tests: []session.TestResult{tr}})
	if want := "run 7: 5 steps, 1 cache hit, 2 re-identified, 1 located, 1 re-located, 0 failed in 2s"; !strings.Contains(b.String(), want) {
		t.Errorf("run line %q, want %q", b.String(), want)
	}
}

// TestFailedStepLineNamesFileAndLine: a failed step's error is printed at
// file:line, as editors and terminals open it; with no file, at its line.
func TestFailedStepLineNamesFileAndLine(t *testing.T) {
	st := testfile.Step{Step: step.Step{Type: step.Click, Description: "the Sing in button"}}
	sr := session.StepResult{Status: session.StatusFailed, Line: 7, Error: `no element matches "the Sing in button"`}
	for file, want := range map[string]string{
		"tests/login.e2e.yaml": "      tests/login.e2e.yaml:7: no element matches \"the Sing in button\"\n",
		"":                     "      line 7: no element matches \"the Sing in button\"\n",
	} {
		var b bytes.Buffer
		printStep(&b, Palette{}, file, st, &sr)
		if _, got, _ := strings.Cut(b.String(), "\n"); got != want {
			t.Errorf("file %q: %q, want %q", file, got, want)
		}
	}
}
