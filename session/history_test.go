package session

import (
	"fmt"
	"strings"
	"testing"
)

func TestClassifyOutcome(t *testing.T) {
	for _, c := range []struct {
		status   TestStatus
		attempts int
		healed   bool
		want     Outcome
	}{
		{"passed", 1, false, OutcomePassed},
		{"passed", 0, false, OutcomePassed},
		{"passed", 2, false, OutcomeFlaky},
		{"passed", 2, true, OutcomeFlaky},
		{"passed", 1, true, OutcomeHealed},
		{"failed", 1, true, OutcomeFailed},
		{"failed", 3, false, OutcomeFailed},
		{TestNotRun, 1, false, OutcomeSkipped},
	} {
		if got := ClassifyOutcome(c.status, c.attempts, c.healed); got != c.want {
			t.Errorf("ClassifyOutcome(%q, %d, %v) = %s, want %s", c.status, c.attempts, c.healed, got, c.want)
		}
	}
	healed := &TestResult{Status: "passed", Attempts: 1, Steps: []StepResult{{MissReason: "no-match"}, {MissReason: "healed (accepted, heal 3)"}}}
	near := &TestResult{Status: "passed", Attempts: 1, Steps: []StepResult{{MissReason: "unhealed (x)"}, {MissReason: "healed"}}}
	if OutcomeOf(healed) != OutcomeHealed || OutcomeOf(near) != OutcomePassed {
		t.Errorf("OutcomeOf: %s %s", OutcomeOf(healed), OutcomeOf(near))
	}
}

// history builds a history from "outcome@commit" words: P F ~ H S A (A
// absent), with ~ taking two attempts and F3 three.
func history(words string) TestHistory {
	var h TestHistory
	for w := range strings.FieldsSeq(words) {
		mark, commit, _ := strings.Cut(w, "@")
		r := TestRun{Commit: commit, Attempts: 1}
		switch mark {
		case "P":
			r.Outcome = OutcomePassed
		case "H":
			r.Outcome = OutcomeHealed
		case "~":
			r.Outcome, r.Attempts = OutcomeFlaky, 2
		case "F":
			r.Outcome = OutcomeFailed
		case "F3":
			r.Outcome, r.Attempts = OutcomeFailed, 3
		case "S":
			r.Outcome, r.Attempts = OutcomeSkipped, 0
		case "A":
			r.Outcome, r.Attempts = OutcomeAbsent, 0
		}
		h.Runs = append(h.Runs, r)
	}
	return h
}

func TestFlakiness(t *testing.T) {
	for _, c := range []struct {
		runs       string
		flaky, ran int
	}{
		{"", 0, 0},
		{"S S", 0, 0},
		{"P P P", 0, 3},
		{"~@a P@a", 1, 2},
		{"F3@a F@a", 0, 2},            // retries that never passed (the app down) are failures, not flakiness
		{"F@a P@a", 1, 2},             // failed, then passed at the same commit
		{"F@a S@a H@a", 1, 2},         // skipped runs are passed over; healed is a pass
		{"A A", 0, 0},                 // runs without the test are not its runs
		{"P@a A@a F@a A@a P@a", 1, 3}, // nor do they stand between a failure and the pass after it
		{"F@a P@b", 0, 2},             // the commit changed: a fix, not flakiness
		{"F P", 0, 2},                 // no commit known
		{"F@a", 0, 1},                 // nothing after it yet
		{"P@a F@a F@a P@a ~@b", 2, 5}, // the second failure, and the retry
	} {
		h := history(c.runs)
		if flaky, ran := h.Flakiness(); flaky != c.flaky || ran != c.ran {
			t.Errorf("%q: %d of %d flaky, want %d of %d", c.runs, flaky, ran, c.flaky, c.ran)
		}
	}
	// Failed against one app, passed against another: not flaky.
	h := history("F@a P@a F@a P@a")
	h.Runs[0].BaseURL, h.Runs[1].BaseURL = "http://127.0.0.1:1", "http://127.0.0.1:2"
	h.Runs[2].BaseURL, h.Runs[3].BaseURL = "http://127.0.0.1:2", "http://127.0.0.1:2"
	if flaky, ran := h.Flakiness(); flaky != 1 || ran != 4 {
		t.Errorf("two apps: %d of %d flaky, want 1 of 4", flaky, ran)
	}
	if r := history("~@a P@a P@a P@a").FlakinessRate(); r != 0.25 {
		t.Errorf("rate %v", r)
	}
	if r := history("~@a A@a A@a A@a").FlakinessRate(); r != 1 {
		t.Errorf("rate over runs without the test: %v, want 1 (1 of 1 run)", r)
	}
	if r := history("S").FlakinessRate(); r != 0 {
		t.Errorf("rate of a test that never ran %v", r)
	}
}

func TestSlowest(t *testing.T) {
	mk := func(name string, ms ...int64) TestHistory {
		h := TestHistory{Name: name}
		for _, d := range ms {
			o := OutcomePassed
			if d < 0 {
				o, d = OutcomeSkipped, 0
			}
			h.Runs = append(h.Runs, TestRun{Outcome: o, DurationMS: d})
		}
		return h
	}
	hs := []TestHistory{
		mk("a", 100, 100, 9000),   // one slow run: median 100
		mk("b", 500, 700, -1),     // median 600, the skipped run left out
		mk("c", 600, 600),         // ties b, after it by name
		mk("never", -1, -1),       // left out
		mk("d", 300, 200, 400, 1), // median 250
	}
	var got []string
	for _, s := range Slowest(hs, 3) {
		got = append(got, fmt.Sprintf("%s %d/%d/%d/%d", s.Name, s.MedianMS, s.MaxMS, s.Last, s.Runs))
	}
	if strings.Join(got, ", ") != "b 600/700/700/2, c 600/600/600/2, d 250/400/1/4" {
		t.Errorf("slowest: %v", got)
	}
	if n := len(Slowest(hs, -1)); n != 4 {
		t.Errorf("all: %d", n)
	}
}
