package run

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/fixture"
)

// Cross-style replay: every zoo test is recorded on one style of its page
// (a cold run: the cache empty, every element located and, the test
// passing, recorded) and replayed on each other style against that store
// with the default read-write cache policy. The four styles are the same
// UI in different markup, so a cached element that resolves on the other
// style must be the same element (its data-zoo-key), or the cache must miss
// and the element be found again (re-identified, or re-located by the
// locator). A test's outcome must be the one a cold run on the replay's
// style has: the cache may cost nothing but time.

// zooCrossParallel is how many runs go side by side. A run spends most of
// its time waiting for the page to settle, more so on a replay: a cache
// miss settles the page before it looks again, and again before the
// locator looks.
const zooCrossParallel = 8

// zooCrossStep is the step timeout of every run here, cold or replayed: a
// replayed step that misses the cache spends its first ~0.7 s on the cache
// and the settles, which on a loaded machine made a 2 s step time out
// (a dblclick after a miss, "while acting on the element") where the cold
// run passed. An element that is found at all is found in 2 s; the step
// that finds nothing (the table's divsoup exception) waits it out.
const zooCrossStep = 5 * time.Second

// zooCrossRun is one zoo test recorded on style A and replayed on style B.
type zooCrossRun struct {
	From, To zooRun // the cold run on A (which recorded), the replay on B
	ColdTo   zooRun // a cold run on B, for the outcome
}

// zooCrossCounts sums what the replays made of their element steps.
type zooCrossCounts struct {
	Steps        int // element steps replayed
	Hits         int // the cached selectors resolved to an element that met the intent
	Reidentified int // the selectors missed, found by likeness to the recorded node
	Relocated    int // the cache missed, the locator found it
	New          int // no entry (the test failed on A, so nothing was recorded)
	NotFound     int // not found or ambiguous on B
	Wrong        int // acted on an element other than the ground truth
	OutcomeDiffs int // tests whose outcome differs from a cold run on B
}

func (c *zooCrossCounts) add(x zooCrossRun) {
	for _, s := range x.To.Steps {
		if !s.Element() {
			continue
		}
		c.Steps++
		switch s.Outcome() {
		case zooWrong:
			c.Wrong++
			continue
		case zooLocated:
		default:
			c.NotFound++
			continue
		}
		switch s.Status {
		case session.StatusHit:
			c.Hits++
		case session.StatusReidentified:
			c.Reidentified++
		case session.StatusRelocated:
			c.Relocated++
		case session.StatusLocated:
			c.New++
		}
	}
	if x.outcomeDiff() != "" {
		c.OutcomeDiffs++
	}
}

// zooOutcome is what a test's outcome is compared by: passed, or which
// steps failed (their errors may differ: a cache miss says why).
func zooOutcome(r zooRun) string {
	if r.Passed {
		return "passed"
	}
	var failed []string
	for _, s := range r.Steps {
		if s.Status == session.StatusFailed {
			failed = append(failed, fmt.Sprintf("line %d", s.Line))
		}
	}
	if len(failed) == 0 {
		return "failed: " + r.Err
	}
	return "failed at " + strings.Join(failed, ", ")
}

// outcomeDiff says how the replay's outcome differs from a cold run on its
// style, "" when it does not.
func (x zooCrossRun) outcomeDiff() string {
	cold, cross := zooOutcome(x.ColdTo), zooOutcome(x.To)
	if cold == cross {
		return ""
	}
	return fmt.Sprintf("cold on %s: %s (%s); recorded on %s, replayed: %s (%s)", x.To.Style, cold, x.ColdTo.Err, x.From.Style, cross, x.To.Err)
}

// copyZooStore copies the closed store file at src (and its write-ahead
// log, if one is left) to dst.
func copyZooStore(t testing.TB, src, dst string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal"} {
		in, err := os.Open(src + suffix)
		if os.IsNotExist(err) && suffix != "" {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(dst + suffix)
		if err != nil {
			in.Close()
			t.Fatal(err)
		}
		_, err = io.Copy(out, in)
		in.Close()
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// runZooCross runs every zoo test on every style cold, each into a store of
// its own; when one ends, each other style replays the test against a copy
// of its store (the store as the cold run left it, one copy per replay, so
// the replays do not see each other's writes). All runs share one fixture
// server: the cache key holds the app's origin.
func runZooCross(t *testing.T) []zooCrossRun {
	t.Helper()
	base := newZooHarness(t)
	cfg := *base.cfg
	cfg.Timeouts.Step = zooCrossStep
	files := loadZoo(t)
	type cold struct {
		zf    zooFile
		style string
		h     *zooHarness
		run   zooRun
	}
	var colds []*cold
	for _, zf := range files {
		for _, style := range fixture.ZooStyles {
			path := filepath.Join(t.TempDir(), "e2e.db")
			colds = append(colds, &cold{zf: zf, style: style, h: &zooHarness{cfg: &cfg, db: openZooStore(t, path), cache: CacheReadWrite}})
		}
	}
	var jobs []func()
	for _, c := range colds {
		jobs = append(jobs, func() { c.run = c.h.run(t, c.zf, c.style) })
	}
	zooParallel(zooCrossParallel, jobs)

	type cross struct {
		from *cold
		to   string
		h    *zooHarness
	}
	var crosses []cross
	for _, c := range colds {
		src := c.h.db.Path()
		if err := c.h.db.Close(); err != nil {
			t.Fatal(err)
		}
		for _, to := range fixture.ZooStyles {
			if to == c.style {
				continue
			}
			dst := filepath.Join(t.TempDir(), "e2e.db")
			copyZooStore(t, src, dst)
			crosses = append(crosses, cross{from: c, to: to, h: &zooHarness{cfg: &cfg, db: openZooStore(t, dst), cache: CacheReadWrite}})
		}
	}
	coldOf := func(zf zooFile, style string) zooRun {
		for _, c := range colds {
			if c.zf.Path == zf.Path && c.style == style {
				return c.run
			}
		}
		t.Fatalf("no cold run of %s on %s", zf.Name, style)
		return zooRun{}
	}
	runs := make([]zooCrossRun, len(crosses))
	jobs = jobs[:0]
	for i, x := range crosses {
		jobs = append(jobs, func() {
			runs[i] = zooCrossRun{From: x.from.run, To: x.h.run(t, x.from.zf, x.to), ColdTo: coldOf(x.from.zf, x.to)}
		})
	}
	zooParallel(zooCrossParallel, jobs)
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i], runs[j]
		if a.To.File != b.To.File {
			return a.To.File < b.To.File
		}
		if a.From.Style != b.From.Style {
			return slices.Index(fixture.ZooStyles, a.From.Style) < slices.Index(fixture.ZooStyles, b.From.Style)
		}
		return slices.Index(fixture.ZooStyles, a.To.Style) < slices.Index(fixture.ZooStyles, b.To.Style)
	})
	return runs
}

// zooCrossReport is the table test × (A→B) with a total, then every element
// step that was not a hit, with the cache's reason, and every outcome that
// differs from a cold run.
func zooCrossReport(runs []zooCrossRun) (string, zooCrossCounts) {
	var b strings.Builder
	b.WriteString("| test | recorded on → replayed on | recorded | element steps | hits | re-identified | re-located | new (not recorded) | not found | wrong | outcome as cold |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	var all zooCrossCounts
	for _, x := range runs {
		var c zooCrossCounts
		c.add(x)
		all.add(x)
		rec, same := "yes", "yes"
		if !x.From.Passed {
			rec = "no (failed)"
		}
		if x.outcomeDiff() != "" {
			same = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s → %s | %s | %d | %d | %d | %d | %d | %d | %d | %s |\n", strings.TrimSuffix(x.To.File, ".e2e.yaml"), x.From.Style, x.To.Style,
			rec, c.Steps, c.Hits, c.Reidentified, c.Relocated, c.New, c.NotFound, c.Wrong, same)
	}
	fmt.Fprintf(&b, "| **all** | %d replays | | %d | %d (%.1f%%) | %d | %d | %d | %d | %d | %d differ |\n", len(runs), all.Steps, all.Hits, pct(all.Hits, all.Steps),
		all.Reidentified, all.Relocated, all.New, all.NotFound, all.Wrong, all.OutcomeDiffs)
	b.WriteString("\nReplayed steps that were not hits (status: the cache's reason):\n")
	for _, x := range runs {
		for _, s := range x.To.Steps {
			if !s.Element() || s.Status == session.StatusHit && s.Outcome() == zooLocated {
				continue
			}
			why := s.MissReason
			if why == "" {
				why = "cache " + s.Cache
			}
			fmt.Fprintf(&b, "- %s:%d %s → %s: %s: %s in %s, %s: %s\n", x.To.File, s.Line, x.From.Style, x.To.Style, s.Command, s.Status, s.Duration, s.Outcome(), why)
		}
	}
	b.WriteString("\nOutcomes that differ from a cold run:\n")
	for _, x := range runs {
		if d := x.outcomeDiff(); d != "" {
			fmt.Fprintf(&b, "- %s %s → %s: %s\n", x.To.File, x.From.Style, x.To.Style, d)
			for _, s := range x.To.Steps {
				fmt.Fprintf(&b, "    - line %d %s: %s in %s (cache %s %s) %s\n", s.Line, s.Command, s.Status, s.Duration, s.Cache, s.MissReason, s.detail())
			}
		}
	}
	return b.String(), all
}

// TestZooCrossStyle: a zoo test recorded on one style and replayed on
// another never acts on the wrong element, and ends as a cold run on the
// replay's style ends.
func TestZooCrossStyle(t *testing.T) {
	runs := runZooCross(t)
	rep, all := zooCrossReport(runs)
	t.Logf("zoo cross-style replay (recorded cold on one style, replayed on another, --cache read-write):\n%s", rep)
	if all.Steps == 0 {
		t.Fatal("no element step replayed")
	}
	for _, x := range runs {
		for _, s := range x.To.Steps {
			if s.Element() && s.Outcome() == zooWrong {
				t.Errorf("%s:%d recorded on %s, replayed on %s: %s acted on the wrong element (%s): %s", x.To.File, s.Line, x.From.Style, x.To.Style, s.Command, s.Status, s.detail())
			}
		}
		if d := x.outcomeDiff(); d != "" {
			t.Errorf("%s: outcome differs: %s", x.To.File, d)
		}
	}
}
