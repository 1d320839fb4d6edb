package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/run"
)

// notRunInput is a run in which a session's flow failed: two tests needed
// it and were not run, a third passed.
func notRunInput() *Input {
	start := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	f := &run.SessionFailure{Session: "signed in", File: "e2e.yaml", Line: 5, Flow: "sign in",
		Failure: `flow "sign in", step 3 (flows/sign-in.flow.yaml:7): no element matches "the Sign in button"`}
	rep := &run.Report{Run: session.Run{ID: 3, Status: "failed", StartedAt: start, FinishedAt: start.Add(time.Second)}}
	skipped := []session.StepResult{{Index: 0, Line: 5, Command: `--step-type CLICK --description "the Users link"`, Kind: "CLICK", Status: session.StatusSkipped, Cache: "none"}}
	rep.Tests = []session.TestResult{
		{Name: "users", File: "users.e2e.yaml", Status: session.TestNotRun, Error: f.Reason() + ": " + f.Failure, Steps: skipped},
		{Name: "cart", File: "cart.e2e.yaml", Status: session.TestPassed},
		{Name: "account", File: "account.e2e.yaml", Status: session.TestNotRun, Error: f.Reason() + ": " + f.Failure, Steps: skipped},
	}
	rep.Details = []run.TestDetail{{Attempts: 1, NotRun: f}, {Attempts: 1}, {Attempts: 1, NotRun: f}}
	return &Input{Report: rep}
}

// TestNotRunIsNoFailure: tests not run for their session count apart from
// failures in every report, and the session's failure is reported once: a
// GitHub ::error at the session's line (none for each test) and a Not run
// section in the step summary.
func TestNotRunIsNoFailure(t *testing.T) {
	in := notRunInput()
	if s := Summarize(in); s.Passed != 1 || s.Failed != 0 || s.NotRun != 2 {
		t.Errorf("summary: %+v", s)
	}
	if fs := SessionFailures(in.Report); len(fs) != 1 || fs[0].Tests != 2 || fs[0].Session != "signed in" {
		t.Errorf("session failures: %+v", fs)
	}
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(path, in); err != nil {
		t.Fatal(err)
	}
	if out, err := xmllint(path); err != nil {
		t.Errorf("the JUnit does not match docs/schema/junit.xsd: %v\n%s", err, out)
	}
	doc := ToJUnit(in)
	if doc.Tests != 4 || doc.Failures != 1 || doc.Skipped != 2 {
		t.Errorf("JUnit: %d tests, %d failures, %d skipped; want 4 (three and the session), 1 (the session) and 2", doc.Tests, doc.Failures, doc.Skipped)
	}
	var ann bytes.Buffer
	WriteGitHubAnnotations(&ann, in)
	if got := ann.String(); strings.Count(got, "::error") != 1 || !strings.HasPrefix(got, "::error file=e2e.yaml,line=5,title=e2e%3A session \"signed in\" could not sign in%2C 2 tests not run::flow \"sign in\", step 3") {
		t.Errorf("annotations:\n%s", got)
	}
	md := Markdown(in)
	if !strings.Contains(md, "❌ failed") || strings.Contains(md, "### Failed") ||
		!strings.Contains(md, "### Not run\n\n- 2 tests not run: session \"signed in\" could not sign in (`e2e.yaml:5`): flow \"sign in\", step 3") {
		t.Errorf("markdown:\n%s", md)
	}
	var line bytes.Buffer
	Line(&line, run.Palette{}, run.Progress{Test: &in.Report.Tests[0], Detail: &in.Report.Details[0]})
	if got := line.String(); got != "- users (users.e2e.yaml) not run: session \"signed in\" could not sign in\n" {
		t.Errorf("line: %q", got)
	}
	var bar bytes.Buffer
	b := &ProgressBar{W: &bar}
	b.Update(run.Progress{Done: 1, Total: 3, Test: &in.Report.Tests[0], Detail: &in.Report.Details[0]})
	if got := bar.String(); !strings.Contains(got, "0 failed, 1 not run") {
		t.Errorf("progress bar: %q", got)
	}
}
