package report

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/run"
)

// TestOneOfEachReadsInTheSingular: a run of one test with one step, one
// model call of one token, on one worker, says "1 test", "1 step", never
// "1 tests" or "1 steps".
func TestOneOfEachReadsInTheSingular(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	click := `--step-type CLICK --description "the Save button" --cache-id abc`
	in := &Input{Workers: 1, Calls: []session.ModelCall{{TokensIn: 1}},
		Report: &run.Report{Run: session.Run{ID: 1, Status: "passed", StartedAt: start, FinishedAt: start.Add(time.Second)},
			Tests: []session.TestResult{{Name: "one", File: "one.e2e.yaml", Status: "passed", DurationMS: 500,
				Steps: []session.StepResult{{Index: 0, Line: 3, Command: click, Kind: "CLICK", Status: session.StatusHit, Cache: "hit", LLMCalls: 1}}}},
			Details: []run.TestDetail{{Attempts: 1, Worker: 1}}}}
	var b bytes.Buffer
	p := run.Progress{Done: 1, Total: 1, Test: &in.Report.Tests[0], Detail: &in.Report.Details[0], Elapsed: time.Second}
	Line(&b, run.Palette{}, p)
	Final(&b, run.Palette{}, in)
	(&ProgressBar{W: &b}).Update(p)
	index, err := WriteHTML(t.TempDir(), in)
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(index)
	out := b.String() + string(html)
	for _, want := range []string{"1/1 step from cache", "1 test: 1 passed", "1 model call, 1 token;", "] 1/1 test, 0 failed", "· 1 worker", ">1 call<"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	for _, bad := range []string{"1 steps", "1 tests", "1 model calls", "1 tokens", "1 workers", "call(s)"} {
		if strings.Contains(out, bad) {
			t.Errorf("%q in\n%s", bad, b.String())
		}
	}
}
