package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/run"
)

// The progress bar names the tests under way from the moment they start,
// before any test ends, and a test that runs long gets a "still running"
// line at 5 s and every 30 s after.
func TestProgressBarShowsRunningTests(t *testing.T) {
	var b bytes.Buffer
	bar := &ProgressBar{W: &b, Width: 10}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	bar.Start(run.Started{Index: 0, Total: 2, Name: "sign in", File: "tests/login.e2e.yaml", Worker: 1, At: at})
	bar.Start(run.Started{Index: 1, Total: 2, Name: "search", File: "tests/search.e2e.yaml", Worker: 2, At: at.Add(time.Second)})
	if out := b.String(); !strings.HasSuffix(out, "[..........] 0/2 tests, 0 failed, ETA — · running: sign in, search") {
		t.Errorf("before any test ends: %q", out)
	}
	b.Reset()
	bar.Tick(at.Add(4 * time.Second))
	if b.Len() != 0 {
		t.Errorf("a tick before 5 s drew %q", b.String())
	}
	bar.Tick(at.Add(5 * time.Second))
	if out := b.String(); !strings.Contains(out, "  … still running: sign in (tests/login.e2e.yaml), 5s\n") || strings.Contains(out, "search (") ||
		!strings.HasSuffix(out, "· running: sign in, search") {
		t.Errorf("at 5 s: %q", out)
	}
	b.Reset()
	bar.Tick(at.Add(7 * time.Second))
	if out := b.String(); strings.Contains(out, "sign in (") || !strings.Contains(out, "still running: search (tests/search.e2e.yaml), 6s") {
		t.Errorf("at 7 s: %q", out)
	}
	b.Reset()
	bar.Tick(at.Add(35 * time.Second))
	if out := b.String(); !strings.Contains(out, "still running: sign in (tests/login.e2e.yaml), 35s") {
		t.Errorf("at 35 s: %q", out)
	}
	b.Reset()
	pass := session.TestResult{Name: "search", Status: "passed"}
	bar.Update(run.Progress{Index: 1, Done: 1, Total: 2, Test: &pass, Detail: &run.TestDetail{}, Elapsed: 8 * time.Second})
	if out := b.String(); !strings.HasSuffix(out, "[#####.....] 1/2 tests, 0 failed, ETA 8s · running: sign in") {
		t.Errorf("after search ended: %q", out)
	}
}

func TestLineProgressSaysWhatIsStillRunning(t *testing.T) {
	var b bytes.Buffer
	lp := &LineProgress{W: &b}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	lp.Start(run.Started{Index: 0, Total: 1, Name: "slow", File: "slow.e2e.yaml", At: at})
	lp.Tick(at.Add(time.Second))
	if b.Len() != 0 {
		t.Errorf("at 1 s: %q", b.String())
	}
	lp.Tick(at.Add(5 * time.Second))
	lp.Tick(at.Add(6 * time.Second))
	pass := session.TestResult{Name: "slow", File: "slow.e2e.yaml", Status: "passed", DurationMS: 6500}
	lp.Update(run.Progress{Index: 0, Done: 1, Total: 1, Test: &pass, Detail: &run.TestDetail{}})
	lp.Tick(at.Add(60 * time.Second))
	if out, want := b.String(), "  … still running: slow (slow.e2e.yaml), 5s\n✓ slow (slow.e2e.yaml) 6.5s, 0/0 steps from cache\n"; out != want {
		t.Errorf("%q, want %q", out, want)
	}
}

// The bar's line stays within the terminal's width, naming as many running
// tests as fit and counting the rest, so that it redraws in place.
func TestProgressBarFitsTheTerminal(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, cols := range []int{80, 60, 160} {
		var b bytes.Buffer
		bar := &ProgressBar{W: &b, Cols: cols}
		for i, name := range []string{"sign in with the demo user", "search flights one way", "archive a user", "booking"} {
			bar.Start(run.Started{Index: i, Total: 12, Name: name, File: "x.e2e.yaml", At: at})
		}
		out := b.String()
		last := out[strings.LastIndex(out, "\r\033[K")+len("\r\033[K"):]
		if n := len([]rune(last)); n >= cols {
			t.Errorf("%d columns: the line takes %d: %q", cols, n, last)
		}
		switch cols {
		case 80:
			if !strings.HasSuffix(last, " · running: sign in with the …, +3 more") {
				t.Errorf("80 columns: %q", last)
			}
		case 160:
			if !strings.HasSuffix(last, " · running: sign in with the demo u…, search flights one way, archive a user, booking") {
				t.Errorf("160 columns: %q", last)
			}
		}
	}
}
