package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
)

// TestHTMLWithoutHistory: a report written with no history (a store that
// had none to give) has no strips, no legend and no slowest tests.
func TestHTMLWithoutHistory(t *testing.T) {
	in := sample(t)
	b := writeIndex(t, in)
	for _, bad := range []string{`id="history-legend"`, `class="history"`, `id="slowest"`, `class="flakiness`} {
		if strings.Contains(b, bad) {
			t.Errorf("a report without history holds %q", bad)
		}
	}
}

// TestHTMLHistoryTooltipsEscapedAndRedacted: a stored error quoted in a
// mark's tooltip is escaped (no markup gets in) and its secret redacted;
// strips follow the history's order and mark this run.
func TestHTMLHistoryTooltipsEscapedAndRedacted(t *testing.T) {
	const secret = "hunter2-s3cret"
	in := sample(t)
	in.Redactor = redact.New(secret)
	at := time.Date(2026, 11, 29, 8, 30, 0, 0, time.UTC)
	in.History = []session.TestHistory{
		{Name: "cart", Runs: []session.TestRun{
			{RunID: 5, TestID: 9, At: at, Outcome: session.OutcomeFailed, DurationMS: 1500, Attempts: 1, Commit: "0123456789abcdef", Branch: "main",
				Error: `step 1 (line 4): got "<img src=x onerror=alert(1)>" typing ` + secret},
			{RunID: 6, At: at.Add(time.Hour), Outcome: session.OutcomeSkipped, RunStatus: "interrupted"},
			{RunID: 8, At: at.Add(90 * time.Minute), Outcome: session.OutcomeAbsent, RunStatus: "failed"},
			{RunID: 7, TestID: 10, At: at.Add(2 * time.Hour), Outcome: session.OutcomePassed, DurationMS: 1200, Attempts: 1},
		}},
	}
	b := writeIndex(t, in)
	if strings.Contains(b, secret) || strings.Contains(b, "<img src=x") {
		t.Errorf("the report holds the secret or the markup of a stored error")
	}
	for _, want := range []string{
		`<span class="hm f" title="run 5 · failed · ` + at.Local().Format("2006-01-02 15:04") + ` · 1.5s · commit 0123456789 on main`,
		`<span class="hm s" title="run 6 · skipped: the run was interrupted`,
		`<span class="hm a" title="run 8 · not in this run (it ran other tests)`,
		`<span class="hm p cur" title="run 7 (this run) · passed`,
		`&lt;img src=x onerror=alert(1)&gt;`,
		`id="history-legend"`, `id="slowest"`, `<a href="#t1">cart</a>`,
	} {
		if !strings.Contains(b, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	// One failure, then a pass at another (unknown) commit: not flaky; the
	// skipped and absent runs do not count.
	if !strings.Contains(b, `title="0 of 2 runs needed a retry`) {
		t.Errorf("flakiness figure missing or wrong")
	}
}

func writeIndex(t *testing.T, in *Input) string {
	t.Helper()
	index, err := WriteHTML(filepath.Join(t.TempDir(), "html"), in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
