package session

import (
	"slices"
	"strings"
	"time"
)

// Outcome is how a test ended in one run, as its history shows it.
type Outcome string

// The outcomes of a test in a run.
const (
	OutcomePassed Outcome = "passed" // passed at the first attempt, without a heal
	OutcomeFailed Outcome = "failed" // failed, after every retry
	OutcomeFlaky  Outcome = "flaky"  // failed, then passed on a retry
	OutcomeHealed Outcome = "healed" // passed through a heal of an act step
	// OutcomeSkipped: among the run's tests, but not run: the run ended
	// before it (interrupted), or it was not run because its session's
	// flow failed (TestNotRun).
	OutcomeSkipped Outcome = "skipped"
	// OutcomeAbsent: not among the run's tests at all (a run of another
	// file, or --grep left it out; or a run stored before runs recorded
	// their tests). Neither a skip nor a result: it counts nowhere.
	OutcomeAbsent Outcome = "absent"
)

// HealedPrefix starts the MissReason of every act step the agent healed in
// a run, whatever became of the heal: "healed (staged…", "healed
// (accepted, heal 3)", "healed (not kept: …)".
const HealedPrefix = "healed ("

// OutcomeOf is the outcome of a stored test result: skipped when it was
// not run (TestNotRun), failed when its status is not TestPassed, else flaky when it took more than one attempt, else
// healed when a step was healed, else passed.
func OutcomeOf(t *TestResult) Outcome {
	healed := false
	for _, s := range t.Steps {
		healed = healed || strings.HasPrefix(s.MissReason, HealedPrefix)
	}
	return ClassifyOutcome(t.Status, t.Attempts, healed)
}

// ClassifyOutcome is OutcomeOf from a result's status, attempts and whether
// a step of it was healed. A flaky test that was also healed is flaky: the
// retry is the news.
func ClassifyOutcome(status TestStatus, attempts int, healed bool) Outcome {
	switch {
	case status == TestNotRun:
		return OutcomeSkipped
	case status != TestPassed:
		return OutcomeFailed
	case attempts > 1:
		return OutcomeFlaky
	case healed:
		return OutcomeHealed
	}
	return OutcomePassed
}

// TestRun is one test in one run: an entry of its history.
type TestRun struct {
	RunID     int64
	TestID    int64     // the stored result; 0 when the test was absent, or skipped as the run ended
	At        time.Time // when the run started
	RunStatus string    // the run's status ("passed", "failed", "interrupted", …)
	Branch    string
	Commit    string
	Shard     string // "i/n" when the run ran one shard of its suite
	// BaseURL and Variant are the app the run tested (its base URL) and the
	// variant it ran; "" for runs stored before they were recorded.
	BaseURL string
	Variant string
	Outcome Outcome
	// DurationMS, Attempts and Error are the stored result's; zero when
	// skipped or absent.
	DurationMS int64
	Attempts   int
	Error      string
}

// Ran reports whether the test ran in this run: not skipped, not absent.
// Only runs in which it ran count in its flakiness and timings.
func (r TestRun) Ran() bool { return r.Outcome != OutcomeSkipped && r.Outcome != OutcomeAbsent }

// TestHistory is a test's recent runs, oldest first.
type TestHistory struct {
	Name string
	Runs []TestRun
}

// HistoryQuery asks for the history of some tests.
type HistoryQuery struct {
	Project string   // the runs of this project
	Tests   []string // the test names
	Runs    int      // how many of the project's newest runs; <= 0 means DefaultHistoryRuns
	Through int64    // the newest run to include (the report's own); 0: the newest there is
}

// DefaultHistoryRuns is how many runs a history strip shows.
const DefaultHistoryRuns = 20

// Flakiness counts the runs of h that were flaky and the runs in which the
// test ran. A run is flaky when the test passed on a retry (OutcomeFlaky:
// a test that failed every attempt, as all do when the app is down, is a
// failure, not flakiness), or when it failed and the next run of the test,
// at the same (known) commit and against the same app (BaseURL, when both
// runs recorded one), passed: nothing changed but the outcome.
func (h TestHistory) Flakiness() (flaky, ran int) {
	var runs []TestRun
	for _, r := range h.Runs {
		if r.Ran() {
			runs = append(runs, r)
		}
	}
	for i, r := range runs {
		switch {
		case r.Outcome == OutcomeFlaky:
			flaky++
		case r.Outcome == OutcomeFailed && i+1 < len(runs) && r.Commit != "" && runs[i+1].Commit == r.Commit &&
			sameApp(r, runs[i+1]) && runs[i+1].Outcome != OutcomeFailed:
			flaky++
		}
	}
	return flaky, len(runs)
}

// sameApp says whether two runs tested the same app: the same base URL, or
// one of them recorded none (runs stored before base URLs were).
func sameApp(a, b TestRun) bool {
	return a.BaseURL == "" || b.BaseURL == "" || a.BaseURL == b.BaseURL
}

// FlakinessRate is Flakiness as a share (0–1); 0 when the test never ran.
func (h TestHistory) FlakinessRate() float64 {
	flaky, ran := h.Flakiness()
	if ran == 0 {
		return 0
	}
	return float64(flaky) / float64(ran)
}

// SlowTest is a test's recent durations, for the slowest tests.
type SlowTest struct {
	Name                  string
	Runs                  int   // runs in which it ran
	MedianMS, MaxMS, Last int64 // over those runs; Last is the newest
}

// Slowest ranks the tests of hs by the median duration of the runs in
// which they ran, slowest first, and returns at most n of them (ties by
// name). A test that never ran is left out.
func Slowest(hs []TestHistory, n int) []SlowTest {
	var out []SlowTest
	for _, h := range hs {
		var ds []int64
		var last int64
		for _, r := range h.Runs {
			if r.Ran() {
				ds = append(ds, r.DurationMS)
				last = r.DurationMS
			}
		}
		if len(ds) == 0 {
			continue
		}
		slices.Sort(ds)
		out = append(out, SlowTest{Name: h.Name, Runs: len(ds), MedianMS: median(ds), MaxMS: ds[len(ds)-1], Last: last})
	}
	slices.SortFunc(out, func(a, b SlowTest) int {
		if a.MedianMS != b.MedianMS {
			if a.MedianMS > b.MedianMS {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	if n >= 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// median of sorted ds (the mean of the middle two for an even count).
func median(ds []int64) int64 {
	m := len(ds) / 2
	if len(ds)%2 == 1 {
		return ds[m]
	}
	return (ds[m-1] + ds[m]) / 2
}

// RunSummary is a run and the counts of its tests, for `e2e runs`.
type RunSummary struct {
	Run
	Tests, Passed, Failed, Flaky, Healed int
	// NotRun counts the tests not run because their session's flow
	// failed (TestNotRun); Failed does not count them.
	NotRun int
}
