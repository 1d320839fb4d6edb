package run

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// The warm zoo: every zoo test on every style runs twice against one store,
// cold (the cache empty: every element is located and, the test passing,
// recorded) and warm (the strict cache policy, as `--cache strict`: every
// element replays from the cache, a miss fails its step with the miss's
// reason). On an unchanged page every step that passed cold must be a cache
// hit warm (issue 14), a test that passed cold passes warm, and no step may
// act on the wrong element.

// zooWarmFloor is the share (percent) of the steps that passed cold that
// must be cache hits warm: all of them.
const zooWarmFloor = 100.0

// zooWarmRun is one page on one style, cold then warm.
type zooWarmRun struct {
	Cold, Warm zooRun
}

// zooWarmCounts sums what the warm run made of the cold run's steps.
type zooWarmCounts struct {
	Passed     int // element steps that passed cold, in a test that passed (so recorded)
	Unrecorded int // element steps that passed cold in a test that failed: nothing was written
	Hits       int // of Passed, cache hits warm
	Wrong      int // element steps warm that acted on the wrong element
	Misses     []string
}

func (c *zooWarmCounts) add(w zooWarmRun) {
	for i, s := range w.Cold.Steps {
		if !s.Element() || s.Outcome() != zooLocated || s.Status == session.StatusFailed {
			continue
		}
		if !w.Cold.Passed {
			c.Unrecorded++
			continue
		}
		c.Passed++
		if i >= len(w.Warm.Steps) {
			c.Misses = append(c.Misses, fmt.Sprintf("%s:%d %s: %s: never ran warm (%s)", w.Cold.File, s.Line, w.Cold.Style, s.Command, w.Warm.Err))
			continue
		}
		ws := w.Warm.Steps[i]
		if ws.Cache == "hit" && ws.Outcome() == zooLocated {
			c.Hits++
			continue
		}
		why := ws.MissReason
		if why == "" {
			why = "cache " + ws.Cache + ", " + ws.Outcome() + ", " + string(ws.Status)
		}
		c.Misses = append(c.Misses, fmt.Sprintf("%s:%d %s: %s: %s", w.Cold.File, s.Line, w.Cold.Style, s.Command, why))
	}
	for _, ws := range w.Warm.Steps {
		if ws.Element() && ws.Outcome() == zooWrong {
			c.Wrong++
		}
	}
}

// runZooWarm replays every zoo test's cold run (coldZoo) warm on its
// style, against a copy of the store the cold run wrote.
func runZooWarm(t *testing.T) []zooWarmRun {
	t.Helper()
	colds := coldZoo(t)
	runs := make([]zooWarmRun, len(colds))
	var jobs []func()
	for i, c := range colds {
		warm := &zooHarness{cfg: zooCold.cfg, db: c.copyOf(t), cache: CacheStrict}
		jobs = append(jobs, func() {
			runs[i] = zooWarmRun{Cold: c.run, Warm: warm.run(t, c.zf, c.run.Style)}
		})
	}
	zooParallel(zooCrossParallel, jobs)
	sort.SliceStable(runs, func(i, j int) bool {
		if runs[i].Cold.Page != runs[j].Cold.Page {
			return runs[i].Cold.Page < runs[j].Cold.Page
		}
		return runs[i].Cold.Style < runs[j].Cold.Style
	})
	return runs
}

// zooWarmReport is the table page × style, then every miss with its reason.
func zooWarmReport(runs []zooWarmRun) (string, zooWarmCounts) {
	var b strings.Builder
	b.WriteString("| page | style | passed cold | hits warm | misses | wrong warm | not recorded (test failed cold) |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	var all zooWarmCounts
	for _, w := range runs {
		var c zooWarmCounts
		c.add(w)
		all.add(w)
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d |\n", w.Cold.Page, w.Cold.Style, c.Passed, c.Hits, len(c.Misses), c.Wrong, c.Unrecorded)
	}
	fmt.Fprintf(&b, "| **all** | | %d | %d (%.1f%%) | %d | %d | %d |\n", all.Passed, all.Hits, pct(all.Hits, all.Passed), len(all.Misses), all.Wrong, all.Unrecorded)
	b.WriteString("\nMisses warm (the cache's reason):\n")
	for _, m := range all.Misses {
		b.WriteString("- " + m + "\n")
	}
	return b.String(), all
}

// TestZooWarmReplay: a warm replay of an unchanged zoo page hits the cache
// on every step that passed cold, on every style, never acts on the wrong
// element, and a test that passed cold passes under --cache strict.
func TestZooWarmReplay(t *testing.T) {
	runs := runZooWarm(t)
	rep, all := zooWarmReport(runs)
	t.Logf("zoo warm replay (cold: locate and record; warm: replay, --cache strict):\n%s", rep)
	if all.Passed == 0 {
		t.Fatal("no step passed cold")
	}
	for _, w := range runs {
		for _, s := range w.Warm.Steps {
			if s.Element() && s.Outcome() == zooWrong {
				t.Errorf("%s:%d %s warm: %s acted on the wrong element: %s", w.Warm.File, s.Line, w.Warm.Style, s.Command, s.detail())
			}
		}
	}
	for _, w := range runs {
		if w.Cold.Passed && !w.Warm.Passed {
			t.Errorf("%s %s: passed cold, fails warm under the strict cache policy: %s", w.Cold.File, w.Cold.Style, w.Warm.Err)
		}
	}
	if p := pct(all.Hits, all.Passed); p < zooWarmFloor {
		t.Errorf("%d of %d steps that passed cold hit the cache warm (%.1f%%), want ≥ %.1f%%", all.Hits, all.Passed, p, zooWarmFloor)
	}
}
