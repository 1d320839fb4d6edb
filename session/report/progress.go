package report

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/run"
)

// The progress of a CI run names the tests under way, so that it is never
// blank while the first tests run, and says of a test that runs long that it
// is still running: once it has run StillRunningAfter, then every
// StillRunningEvery.
const (
	StillRunningAfter = 5 * time.Second
	StillRunningEvery = 30 * time.Second
)

// running is the tests under way, in the order they started.
type running struct {
	tests []runningTest
}

type runningTest struct {
	index      int
	name, file string
	at         time.Time
	told       time.Duration // how long it had run at its last "still running" line; 0: none yet
}

func (r *running) start(s run.Started) {
	r.tests = append(r.tests, runningTest{index: s.Index, name: s.Name, file: s.File, at: s.At})
}

func (r *running) done(index int) {
	for i, t := range r.tests {
		if t.index == index {
			r.tests = append(r.tests[:i], r.tests[i+1:]...)
			return
		}
	}
}

// stillRunning writes a line for each test that has run past
// StillRunningAfter and has not been told of for StillRunningEvery:
// "… still running: login (tests/login.e2e.yaml), 5s".
func (r *running) stillRunning(w io.Writer, pal run.Palette, now time.Time) {
	for i := range r.tests {
		t := &r.tests[i]
		ran := now.Sub(t.at)
		if ran < StillRunningAfter || t.told > 0 && ran-t.told < StillRunningEvery {
			continue
		}
		t.told = ran
		fmt.Fprintf(w, "%s\n", pal.Dim(fmt.Sprintf("  … still running: %s (%s), %s", t.name, t.file, ran.Truncate(time.Second))))
	}
}

// names lists the tests under way for the progress bar in at most width
// characters: as many as fit, each cut to 24 characters, then how many
// more; "" when not even one fits.
func (r *running) names(width int) string {
	all := make([]string, len(r.tests))
	for i, t := range r.tests {
		all[i] = clipName(t.name, 24)
	}
	more := func(k int) string {
		if k == len(all) {
			return ""
		}
		return fmt.Sprintf(", +%d more", len(all)-k)
	}
	for k := len(all); k > 0; k-- {
		if s := strings.Join(all[:k], ", ") + more(k); len([]rune(s)) <= width {
			return s
		}
	}
	// Not even the first name whole: as much of it as fits, if that is
	// enough to recognise it.
	if len(all) == 0 {
		return ""
	}
	if room := width - len(more(1)); room >= 8 {
		return clipName(all[0], room) + more(1)
	}
	return ""
}

func clipName(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// LineProgress is the CI output in a log: a line per finished test (see
// [Line]) and a line for a test still running. Its methods are safe to call
// from several goroutines.
type LineProgress struct {
	W     io.Writer
	Color run.Palette

	mu  sync.Mutex
	run running
}

// Start notes a test a worker began.
func (l *LineProgress) Start(s run.Started) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.run.start(s)
}

// Update prints a finished test.
func (l *LineProgress) Update(p run.Progress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.run.done(p.Index)
	Line(l.W, l.Color, p)
}

// Tick prints a line for each test that is still running at now, as
// StillRunningAfter and StillRunningEvery say.
func (l *LineProgress) Tick(now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.run.stillRunning(l.W, l.Color, now)
}

// ProgressBar draws "[#####.....] 5/12 tests, 1 failed, ETA 12s · running:
// login, search" on one terminal line, redrawn in place, with a line above
// it for each failed test and each test still running. Its methods are safe
// to call from several goroutines.
type ProgressBar struct {
	W     io.Writer
	Width int // of the bar; zero means 10, 20 on a terminal 120 columns wide
	// Cols is the terminal's width, which the line stays within so that it
	// redraws in place; zero means 80.
	Cols  int
	Color run.Palette

	mu          sync.Mutex
	run         running
	done, total int
	failed      int
	notRun      int // not run: their session's flow failed
	elapsed     time.Duration
}

// Start draws the bar with a test a worker began among those running.
func (b *ProgressBar) Start(s run.Started) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.run.start(s)
	b.total = s.Total
	b.draw()
}

// Update redraws the bar for a finished test.
func (b *ProgressBar) Update(p run.Progress) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.run.done(p.Index)
	b.done, b.total, b.elapsed = p.Done, p.Total, p.Elapsed
	if p.Test.Status != session.TestPassed {
		if p.Test.Status == session.TestNotRun {
			b.notRun++
		} else {
			b.failed++
		}
		// A failure is worth a line of its own above the bar.
		fmt.Fprint(b.W, "\r\033[K")
		Line(b.W, b.Color, p)
	}
	b.draw()
	if p.Done == p.Total {
		fmt.Fprintln(b.W)
	}
}

// Tick puts a line above the bar for each test still running at now, as
// StillRunningAfter and StillRunningEvery say.
func (b *ProgressBar) Tick(now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var lines strings.Builder
	b.run.stillRunning(&lines, b.Color, now)
	if lines.Len() == 0 {
		return
	}
	fmt.Fprint(b.W, "\r\033[K"+lines.String())
	b.draw()
}

func (b *ProgressBar) draw() {
	cols := b.Cols
	if cols <= 0 {
		cols = 80
	}
	width := b.Width
	if width <= 0 {
		width = 10 // room for the running tests' names
		if cols >= 120 {
			width = 20
		}
	}
	filled := width * b.done / max(b.total, 1)
	eta := "—"
	if b.done > 0 && b.done < b.total {
		eta = (b.elapsed / time.Duration(b.done) * time.Duration(b.total-b.done)).Round(time.Second).String()
	} else if b.done == b.total {
		eta = "done"
	}
	counts := fmt.Sprintf("] %d/%s, %%s, ETA %s", b.done, plural.Count(b.total, "test"), eta)
	failed := fmt.Sprintf("%d failed", b.failed)
	if b.notRun > 0 {
		failed += fmt.Sprintf(", %d not run", b.notRun)
	}
	fmt.Fprintf(b.W, "\r\033[K[%s%s"+counts, b.Color.Pass(strings.Repeat("#", filled)), strings.Repeat(".", width-filled),
		b.Color.Count(b.failed, failed, false))
	const label = " · running: "
	used := 1 + width + len([]rune(fmt.Sprintf(counts, failed))) + len([]rune(label))
	if names := b.run.names(cols - 1 - used); names != "" && b.done < b.total {
		fmt.Fprint(b.W, label+names)
	}
}
