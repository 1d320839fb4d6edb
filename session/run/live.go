package run

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/testfile"
)

// Live is a new test recorded one step at a time as the engineer types it
// (the studio's --new): each step runs at once on the same page, through
// the same machinery as a test file's steps, so that the element cache and
// the act trajectories it writes are the ones e2e run later replays.
type Live struct {
	r     *Runner
	tr    *testRun
	res   session.TestResult
	start time.Time
	kept  []testfile.Step
}

// Record opens u in a fresh page for a new test called name, to be written
// to file. Close ends it.
//
// Recording is authoring, not a run of a test file: it records no run and
// no test result (e2e runs and the history strips never show it), and
// model calls made for it belong to no run. What its kept steps teach —
// element cache rows and act trajectories — is written as each is kept
// (Step), for the runs of the written file to replay.
func (r *Runner) Record(ctx context.Context, name, file, u string) (*Live, error) {
	l := &Live{r: r, start: time.Now()}
	t := &testfile.Test{Name: name, File: file, URL: u}
	l.res = session.TestResult{Name: name, File: file, Status: session.TestPassed}
	page, err := r.o.Browser.NewPage(ctx)
	if err != nil {
		return nil, fmt.Errorf("open a page: %w", err)
	}
	l.tr = &testRun{test: t, page: page, occurrence: map[string]int{}, identity: map[session.CacheKey]string{},
		uniques: map[string]string{}, red: r.o.Redactor, live: true, shots: "new" + strconv.FormatInt(l.start.UnixNano(), 36)}
	r.guardSecrets(l.tr)
	gen := testfile.UniqueFor(uniqueSeed(0, name))
	l.tr.unique = func(prefix string) string { v := gen(prefix); l.tr.uniques[prefix] = v; return v }
	r.publish(session.TestStarted{Test: name, File: file, At: l.start})
	if err := r.open(ctx, l.tr, u); err != nil {
		page.Close()
		l.finish(session.TestFailed)
		return nil, fmt.Errorf("open %s: %w", r.url(u), err)
	}
	r.showPage(ctx, l.tr, "")
	return l, nil
}

// Step runs one step now and returns how it went. A step that fails is not
// part of the test: the test goes on as if it had not been typed (its cache
// keys do not count it).
func (l *Live) Step(ctx context.Context, st testfile.Step) session.StepResult {
	i := len(l.res.Steps)
	saved := maps.Clone(l.tr.occurrence)
	l.tr.identity = map[session.CacheKey]string{} // the keys this step looks up (LastKeys)
	l.tr.index, l.tr.post = i, ""
	l.r.publish(session.StepStarted{Index: i, Sub: -1, Command: st.Step.String()})
	sr := l.r.runStep(ctx, l.tr, i, st)
	l.r.showPage(ctx, l.tr, "")
	l.r.finished(l.tr, &sr, i, -1)
	l.res.Steps = append(l.res.Steps, sr)
	if sr.Status == session.StatusFailed {
		l.tr.occurrence = saved
		l.tr.pending = nil // a step that is not kept teaches the cache nothing
		return sr
	}
	l.kept = append(l.kept, st)
	// A kept step's cache rows and trajectory are written now, so that
	// quitting later loses nothing that was approved.
	l.r.flush(ctx, l.tr, &l.res)
	l.tr.pending = nil
	if l.res.Status != "passed" { // the store refused the write
		sr.Status, sr.Error = session.StatusFailed, l.res.Error
		l.res.Status, l.res.Error = "passed", ""
		l.res.Steps[i] = sr
		l.kept = l.kept[:len(l.kept)-1]
	}
	return l.res.Steps[i]
}

// Page is the page the test is recorded in; the caller may snapshot it
// between steps.
func (l *Live) Page() *browser.Page { return l.tr.page }

// LastKeys are the cache keys the last Step looked up, sorted.
func (l *Live) LastKeys() []session.CacheKey {
	return slices.Sorted(maps.Keys(l.tr.identity))
}

// OutsideOrigins says why a page may not be opened at u, or "" when it may:
// the base URL's origin and the configured allowedOrigins are allowed.
func (r *Runner) OutsideOrigins(u string) string { return r.outsideOrigins(u) }

// CheckOrigin returns an *OffOriginError when the page, as the browser holds
// it, is on an origin the test may not be on (see OffOriginError): before
// the page's content is shown to anyone outside.
func (l *Live) CheckOrigin(ctx context.Context) error { return l.r.pageOffOriginNow(ctx, l.tr) }

// Kept is the steps that passed, in order: the test to write.
func (l *Live) Kept() []testfile.Step { return l.kept }

// Close closes the page and tells the events (the studio) that the new
// test is over. It records nothing: see Record.
func (l *Live) Close(ctx context.Context) error {
	l.tr.page.Close()
	l.finish(session.TestPassed)
	return nil
}

func (l *Live) finish(status session.TestStatus) {
	l.res.Status = status
	l.res.DurationMS = time.Since(l.start).Milliseconds()
	l.r.publish(session.TestFinished{Result: l.res})
}
