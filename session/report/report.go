// Package report writes what a run did for people and CI systems: a line
// per test, a progress bar, JUnit XML, JSON with every step, a
// self-contained HTML report folder, and GitHub Actions annotations and
// step summaries. It uses the standard library only.
package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/step"
)

// Input is a finished run and what the store knows about it.
type Input struct {
	Report *run.Report
	// Calls are the run's model calls (tokens, cost).
	Calls []session.ModelCall
	// Heals are the heals the run made, by id (for heal diffs).
	Heals map[int64]*session.Heal
	// Shard is "i/n" when the run was one shard of a suite.
	Shard   string
	Workers int
	// History is the store's history of the run's tests, through this run
	// (nil: the HTML report shows no history strips and no slowest tests).
	History []session.TestHistory
	// Model, when set, is the run's model use as counted elsewhere (a merged
	// report: the sum of its parts' summaries); Calls are then not counted.
	Model *ModelUse
	// Merged are the runs a merged report was built from (Merge), oldest
	// first; nil for the report of one run.
	Merged []MergedRun
	// Group is the run group the report covers, when it has one.
	Group string
	// Redactor, when set, redacts every secret value it knows from every
	// report written: each file's bytes (JSON kept valid, escapes kept whole)
	// and the annotations printed.
	Redactor *redact.Redactor
}

// Summary counts a run.
type Summary struct {
	Total, Passed, Failed, Flaky, Healed int
	// NotRun counts the tests that did not run because their session's
	// flow failed (session.TestNotRun): not among Failed, but the run
	// failed all the same.
	NotRun                                           int
	Steps, Hits, Located, Relocated, Misses, Skipped int
	// Reidentified counts the steps whose cached selectors missed and whose
	// element was found by its likeness to the cached node (no locate, no
	// model call); they are not hits.
	Reidentified int
	// CacheHitRate is hits over the steps that looked an element up: hits,
	// re-identified, located and re-located steps (0–1).
	CacheHitRate          float64
	ModelCalls            int
	TokensIn, TokensOut   int
	Cost                  float64
	Duration              time.Duration
	StartedAt, FinishedAt time.Time
}

// Summarize counts in.
func Summarize(in *Input) Summary {
	rep := in.Report
	c := run.Count(rep.Tests)
	s := Summary{Total: len(rep.Tests), Steps: c.Steps, Hits: c.Hits, Located: c.Located, Relocated: c.Relocated,
		Reidentified: c.Reidentified, Misses: c.Misses, Skipped: c.Skipped, StartedAt: rep.Run.StartedAt, FinishedAt: rep.Run.FinishedAt}
	s.Duration = rep.Run.FinishedAt.Sub(rep.Run.StartedAt)
	for i, t := range rep.Tests {
		d := detail(rep, i)
		switch t.Status {
		case session.TestPassed:
			s.Passed++
		case session.TestNotRun:
			s.NotRun++
		default:
			s.Failed++
		}
		if d.Flaky {
			s.Flaky++
		}
		if Healed(t, d) {
			s.Healed++
		}
	}
	if looked := c.Hits + c.Reidentified + c.Located + c.Relocated; looked > 0 {
		s.CacheHitRate = float64(c.Hits) / float64(looked)
	}
	if m := in.Model; m != nil {
		s.ModelCalls, s.TokensIn, s.TokensOut, s.Cost = m.Calls, m.TokensIn, m.TokensOut, m.Cost
		return s
	}
	for _, mc := range in.Calls {
		s.ModelCalls++
		s.TokensIn += mc.TokensIn
		s.TokensOut += mc.TokensOut
		s.Cost += mc.Cost
	}
	if len(in.Calls) == 0 {
		for _, t := range rep.Tests {
			for _, st := range t.Steps {
				s.ModelCalls += st.LLMCalls
			}
		}
	}
	return s
}

// detail is the suite's extras of test i (zero when the runner had none).
func detail(rep *run.Report, i int) run.TestDetail {
	if i < len(rep.Details) {
		return rep.Details[i]
	}
	return run.TestDetail{Attempts: 1}
}

// SessionFailures are the sessions whose capture failed in the run, in
// the order of the first test each left not run, with how many tests each
// left not run.
func SessionFailures(rep *run.Report) []SessionFailure {
	var out []SessionFailure
	at := map[string]int{}
	for i, t := range rep.Tests {
		f := detail(rep, i).NotRun
		if t.Status != session.TestNotRun || f == nil {
			continue
		}
		k, ok := at[f.Session]
		if !ok {
			k = len(out)
			at[f.Session] = k
			out = append(out, SessionFailure{SessionFailure: *f})
		}
		out[k].Tests++
	}
	return out
}

// SessionFailure is a session whose capture failed and the number of
// tests it left not run.
type SessionFailure struct {
	run.SessionFailure
	Tests int
}

// Healed says whether an act step of the test was healed in this run.
func Healed(t session.TestResult, d run.TestDetail) bool {
	if len(d.Heals) > 0 {
		return true
	}
	for _, s := range t.Steps {
		if strings.HasPrefix(s.MissReason, "healed (") {
			return true
		}
	}
	return false
}

// FailedStep is the step that failed a test, or nil.
func FailedStep(t session.TestResult) *session.StepResult {
	for i := range t.Steps {
		if t.Steps[i].Status == session.StatusFailed {
			return &t.Steps[i]
		}
	}
	return nil
}

// Describe is a step command as a person reads it ("click the Sign in
// button"), or the command itself when it does not parse.
func Describe(command string) string {
	st, err := step.Parse(command)
	if err != nil {
		return command
	}
	return run.Describe(st)
}

// Command is a step command without its cache id.
func Command(command string) string {
	st, err := step.Parse(command)
	if err != nil {
		return command
	}
	st.CacheID = ""
	return st.String()
}

// Mark is a status as one character.
func Mark(status string) string {
	switch status {
	case string(session.TestPassed), string(session.StatusHit), string(session.StatusLocated), string(session.StatusRelocated),
		string(session.StatusReidentified):
		return "✓"
	case string(session.StatusSkipped), string(session.TestNotRun):
		return "-"
	}
	return "✗"
}

// Ms prints a duration in milliseconds as seconds with one decimal.
func Ms(ms int64) string {
	return fmt.Sprintf("%.1fs", float64(ms)/1000)
}

// writeAtomic writes b to path through a temporary file in the same folder.
func writeAtomic(path string, b []byte) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
