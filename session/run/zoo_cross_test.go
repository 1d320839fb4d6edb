package run

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/store"
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
//
// Each replayed lookup is also probed for what its entry's selectors alone
// vote for (before the intent check): a vote for another element than the
// ground truth is one the check must refuse, and the table counts them
// (and the right votes the check refused, hits lost) beside the outcomes.
//
//	go test ./session/run/ -run 'TestZooCrossStyle$' -count=1 -v [-args -zoo.only=<test>]

// zooCrossParallel is how many runs go side by side. A run spends most of
// its time waiting for the page to settle, more so on a replay: a cache
// miss settles the page before it looks again, and again before the
// locator looks.
const zooCrossParallel = 8

// zooCrossStep is the step timeout of every run here, cold or replayed:
// generous, so that a loaded machine only makes the runs slower (a replayed
// step that misses the cache settles the page before it looks again, and
// again before the locator looks). A step the zoo lists as a known
// exception for the style it runs on gets zooExceptTimeout (see
// zooHarness.run); any other step that finds nothing is a failure of the
// test, and only then is the minute waited out.
const zooCrossStep = time.Minute

// zooVoteProbe is a replay's store: it remembers the cache entry the runner
// read last (the current lookup's), so that the lookup's probe can ask what
// the entry's selectors alone vote for, before the check judges the winner.
type zooVoteProbe struct {
	*store.DB
	mu   sync.Mutex
	last *session.CacheEntry
}

// Cache reads the entry and remembers it.
func (p *zooVoteProbe) Cache(ctx context.Context, key session.CacheKey) (*session.CacheEntry, error) {
	e, err := p.DB.Cache(ctx, key)
	p.mu.Lock()
	p.last = e
	p.mu.Unlock()
	return e, err
}

// look sets l.Vote to the data-zoo-key of the element the selectors of the
// entry read for this lookup vote for, in the page as it is before the step
// acts, or to "(reason)" when none wins.
func (p *zooVoteProbe) look(ctx context.Context, e TargetEvent, l *zooLook) {
	p.mu.Lock()
	entry := p.last
	p.last = nil
	p.mu.Unlock()
	if entry == nil {
		return
	}
	res, err := e.Page.ResolveCached(ctx, entry.Selectors)
	switch {
	case err != nil:
		l.Vote = "(error: " + err.Error() + ")"
	case res.Reason != "":
		l.Vote = "(" + res.Reason + ")"
	default:
		k, ok, err := e.Page.Attribute(ctx, res.Ref, zooKeyAttr)
		switch {
		case err != nil:
			l.Vote = "(unreadable: " + err.Error() + ")"
		case !ok:
			l.Vote = "(no " + zooKeyAttr + ": " + res.Node.Line() + ")"
		default:
			l.Vote = k
		}
		if l.Vote != l.Key || !l.HasKey {
			l.Vote += " by " + votedBy(ctx, e, entry.Selectors, res.Ref)
		}
	}
}

// votedBy lists the selectors (kind=value) that alone find the element ref.
func votedBy(ctx context.Context, e TargetEvent, sels []session.Selector, ref string) string {
	var by []string
	for _, sel := range sels {
		one := []session.Selector{sel}
		if sel.Kind != "host" {
			for _, h := range sels {
				if h.Kind == "host" {
					one = append(one, h)
				}
			}
		}
		res, err := e.Page.ResolveCached(ctx, one)
		if err == nil && res.Reason == "" && res.Ref == ref {
			by = append(by, sel.Kind+"="+sel.Value)
		}
	}
	return "[" + strings.Join(by, "; ") + "]"
}

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
	// Of the lookups whose entry's selectors alone chose an element (the
	// vote), those that chose another element than the ground truth (the
	// check must refuse them), and those that chose the right one but
	// that the check refused (a hit lost).
	VoteWrong, VoteRightRefused int
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
	for _, s := range x.To.Steps {
		for i, l := range s.Looks {
			switch {
			case l.Vote == "" || strings.HasPrefix(l.Vote, "(") && !strings.HasPrefix(l.Vote, "(no "+zooKeyAttr):
			case l.Vote != s.want(i):
				c.VoteWrong++
			case s.Status != session.StatusHit:
				c.VoteRightRefused++
			}
		}
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
			db := openZooStore(t, dst)
			probe := &zooVoteProbe{DB: db}
			crosses = append(crosses, cross{from: c, to: to, h: &zooHarness{cfg: &cfg, db: db, store: probe, onLook: probe.look, cache: CacheReadWrite}})
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
	b.WriteString("| test | recorded on → replayed on | recorded | element steps | hits | re-identified | re-located | new (not recorded) | not found | wrong | outcome as cold | vote wrong (refused) | vote right, refused |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
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
		fmt.Fprintf(&b, "| %s | %s → %s | %s | %d | %d | %d | %d | %d | %d | %d | %s | %d | %d |\n", strings.TrimSuffix(x.To.File, ".e2e.yaml"), x.From.Style, x.To.Style,
			rec, c.Steps, c.Hits, c.Reidentified, c.Relocated, c.New, c.NotFound, c.Wrong, same, c.VoteWrong, c.VoteRightRefused)
	}
	fmt.Fprintf(&b, "| **all** | %d replays | | %d | %d (%.1f%%) | %d | %d | %d | %d | %d | %d differ | %d | %d |\n", len(runs), all.Steps, all.Hits, pct(all.Hits, all.Steps),
		all.Reidentified, all.Relocated, all.New, all.NotFound, all.Wrong, all.OutcomeDiffs, all.VoteWrong, all.VoteRightRefused)
	// What a replayed step costs, by how its element was found, beside the
	// same steps in the cold runs on the replay's style.
	byStatus := map[session.StepStatus][2][]time.Duration{}
	for _, x := range runs {
		for i, s := range x.To.Steps {
			if !s.Element() || s.Outcome() != zooLocated || i >= len(x.ColdTo.Steps) || x.ColdTo.Steps[i].Status == session.StatusFailed {
				continue
			}
			d := byStatus[s.Status]
			d[0], d[1] = append(d[0], s.Duration), append(d[1], x.ColdTo.Steps[i].Duration)
			byStatus[s.Status] = d
		}
	}
	b.WriteString("\nMedian step time by how the replay found the element (the same steps cold on the replay's style):\n")
	for _, st := range []session.StepStatus{session.StatusHit, session.StatusReidentified, session.StatusRelocated, session.StatusLocated} {
		if d := byStatus[st]; len(d[0]) > 0 {
			fmt.Fprintf(&b, "- %s: %d steps, %s (cold %s)\n", st, len(d[0]), zooMedian(d[0]), zooMedian(d[1]))
		}
	}
	// How close re-identification came to its runner-up: the smallest
	// margins first.
	type reid struct {
		what string
		r    session.Reidentification
	}
	var reids []reid
	for _, x := range runs {
		for _, s := range x.To.Steps {
			if s.Status == session.StatusReidentified && s.Reidentified != nil {
				reids = append(reids, reid{fmt.Sprintf("%s:%d %s → %s: %s (%s)", x.To.File, s.Line, x.From.Style, x.To.Style, s.Command, s.Outcome()), *s.Reidentified})
			}
		}
	}
	sort.SliceStable(reids, func(i, j int) bool {
		return reids[i].r.Score-reids[i].r.RunnerUp < reids[j].r.Score-reids[j].r.RunnerUp
	})
	b.WriteString("\nRe-identified steps with the smallest margins (score, runner-up):\n")
	for _, r := range reids[:min(len(reids), 10)] {
		fmt.Fprintf(&b, "- %.2f over %.2f (%s): %s\n", r.r.Score, r.r.RunnerUp, r.r.Second, r.what)
	}
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
			var votes []string
			for i, l := range s.Looks {
				if l.Vote != "" {
					v := "vote " + l.Vote
					if l.Vote != s.want(i) && (!strings.HasPrefix(l.Vote, "(") || strings.HasPrefix(l.Vote, "(no "+zooKeyAttr)) {
						v += " (want " + s.want(i) + ")"
					}
					votes = append(votes, v)
				}
			}
			fmt.Fprintf(&b, "- %s:%d %s → %s: %s: %s in %s, %s: %s; %s\n", x.To.File, s.Line, x.From.Style, x.To.Style, s.Command, s.Status, s.Duration, s.Outcome(), why, strings.Join(votes, ", "))
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

// zooMedian is the median of d, rounded to the millisecond.
func zooMedian(d []time.Duration) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	m := d[len(d)/2]
	if len(d)%2 == 0 {
		m = (d[len(d)/2-1] + d[len(d)/2]) / 2
	}
	return m.Round(time.Millisecond)
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
