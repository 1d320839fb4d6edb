package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/run"
)

// Line prints one line per finished test, and the failure under it: the
// CI output, which stays readable in a log. pal colours it when asked.
func Line(w io.Writer, pal run.Palette, p run.Progress) {
	t, d := p.Test, p.Detail
	c := run.Count([]session.TestResult{*t})
	var tags []string
	if d.Flaky {
		tags = append(tags, fmt.Sprintf("flaky: passed on attempt %d", d.Attempts))
	}
	if Healed(*t, *d) {
		tags = append(tags, "healed")
	}
	tag, mark := "", pal.Status(t.Status, Mark(t.Status))
	if len(tags) > 0 {
		tag = pal.Warn(" [" + strings.Join(tags, ", ") + "]")
		if t.Status == "passed" {
			mark = pal.Warn(Mark(t.Status))
		}
	}
	reid := ""
	if c.Reidentified > 0 {
		reid = fmt.Sprintf(", %d re-identified", c.Reidentified)
	}
	fmt.Fprintf(w, "%s %s (%s) %s, %d/%s from cache%s%s\n", mark, t.Name, t.File, Ms(t.DurationMS), c.Hits, plural.Count(c.Steps, "step"), reid, tag)
	if t.Status != "passed" {
		loc := t.File
		if fs := FailedStep(*t); fs != nil {
			loc = fmt.Sprintf("%s:%d", t.File, fs.Line)
			fmt.Fprintf(w, "    %s\n", pal.Fail(loc+": "+fs.Error))
			if fs.Screenshot != "" {
				fmt.Fprintf(w, "    screenshot: %s\n", fs.Screenshot)
			}
		} else {
			fmt.Fprintf(w, "    %s\n", pal.Fail(loc+": "+t.Error))
		}
	}
}

// Final prints the run's summary line.
func Final(w io.Writer, pal run.Palette, in *Input) {
	s := Summarize(in)
	shard := ""
	if in.Shard != "" {
		shard = " (shard " + in.Shard + ")"
	}
	reid := ""
	if s.Reidentified > 0 {
		reid = fmt.Sprintf(" (%d re-identified)", s.Reidentified)
	}
	fmt.Fprintf(w, "\n%s%s: %s, %s, %s, %s; cache hit rate %.0f%%%s, %s, %s; %s\n",
		plural.Count(s.Total, "test"), shard, pal.Pass(fmt.Sprintf("%d passed", s.Passed)), pal.Count(s.Failed, fmt.Sprintf("%d failed", s.Failed), false),
		pal.Count(s.Flaky, fmt.Sprintf("%d flaky", s.Flaky), true), pal.Count(s.Healed, fmt.Sprintf("%d healed", s.Healed), true),
		100*s.CacheHitRate, reid, plural.Count(s.ModelCalls, "model call"), plural.Count(s.TokensIn+s.TokensOut, "token"), s.Duration.Round(time.Millisecond))
}

// ProgressBar draws "[#####.....] 5/12 tests, 1 failed, ETA 12s" on one
// terminal line, redrawn in place.
type ProgressBar struct {
	W      io.Writer
	Width  int // of the bar; zero means 30
	Color  run.Palette
	failed int
}

// Update redraws the bar for a finished test.
func (b *ProgressBar) Update(p run.Progress) {
	if p.Test.Status != "passed" {
		b.failed++
		// A failure is worth a line of its own above the bar.
		fmt.Fprint(b.W, "\r\033[K")
		Line(b.W, b.Color, p)
	}
	width := b.Width
	if width <= 0 {
		width = 30
	}
	filled := width * p.Done / max(p.Total, 1)
	eta := "—"
	if p.Done > 0 && p.Done < p.Total {
		eta = (p.Elapsed / time.Duration(p.Done) * time.Duration(p.Total-p.Done)).Round(time.Second).String()
	} else if p.Done == p.Total {
		eta = "done"
	}
	fmt.Fprintf(b.W, "\r\033[K[%s%s] %d/%s, %s, ETA %s", b.Color.Pass(strings.Repeat("#", filled)), strings.Repeat(".", width-filled),
		p.Done, plural.Count(p.Total, "test"), b.Color.Count(b.failed, fmt.Sprintf("%d failed", b.failed), false), eta)
	if p.Done == p.Total {
		fmt.Fprintln(b.W)
	}
}
