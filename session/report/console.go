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
	status := string(t.Status)
	tag, mark := "", pal.Status(status, Mark(status))
	if len(tags) > 0 {
		tag = pal.Warn(" [" + strings.Join(tags, ", ") + "]")
		if t.Status == session.TestPassed {
			mark = pal.Warn(Mark(status))
		}
	}
	if t.Status == session.TestNotRun {
		// Why, in a few words; the flow's failure is in the run's summary,
		// once for all the tests it left not run.
		why := t.Error
		if d.NotRun != nil {
			why = d.NotRun.Reason()
		}
		fmt.Fprintf(w, "%s %s (%s) %s: %s\n", mark, t.Name, t.File, pal.Warn("not run"), why)
		return
	}
	reid := ""
	if c.Reidentified > 0 {
		reid = fmt.Sprintf(", %d re-identified", c.Reidentified)
	}
	fmt.Fprintf(w, "%s %s (%s) %s, %d/%s from cache%s%s\n", mark, t.Name, t.File, Ms(t.DurationMS), c.Hits, plural.Count(c.Steps, "step"), reid, tag)
	if t.Status != session.TestPassed {
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
	failed := pal.Count(s.Failed, fmt.Sprintf("%d failed", s.Failed), false)
	if s.NotRun > 0 {
		failed += ", " + pal.Warn(fmt.Sprintf("%d not run", s.NotRun))
	}
	fmt.Fprintf(w, "\n%s%s: %s, %s, %s, %s; cache hit rate %.0f%%%s, %s, %s; %s\n",
		plural.Count(s.Total, "test"), shard, pal.Pass(fmt.Sprintf("%d passed", s.Passed)), failed,
		pal.Count(s.Flaky, fmt.Sprintf("%d flaky", s.Flaky), true), pal.Count(s.Healed, fmt.Sprintf("%d healed", s.Healed), true),
		100*s.CacheHitRate, reid, plural.Count(s.ModelCalls, "model call"), plural.Count(s.TokensIn+s.TokensOut, "token"), s.Duration.Round(time.Millisecond))
	for _, f := range SessionFailures(in.Report) {
		fmt.Fprintf(w, "%s not run: %s (%s:%d): %s\n", plural.Count(f.Tests, "test"), f.Reason(), f.File, f.Line, pal.Fail(f.Failure))
	}
}
