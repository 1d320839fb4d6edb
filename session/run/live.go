package run

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
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
	run   session.Run
	res   session.TestResult
	start time.Time
	kept  []testfile.Step
}

// Record opens u in a fresh page for a new test called name, to be written
// to file, and records a run for it. Close ends it.
func (r *Runner) Record(ctx context.Context, name, file, u string) (*Live, error) {
	l := &Live{r: r, start: time.Now()}
	l.run = session.Run{Project: r.o.Project, StartedAt: l.start, Status: "running", Version: r.o.Version}
	if err := r.o.Store.StartRun(ctx, &l.run); err != nil {
		return nil, err // the store's error says "start run"
	}
	if r.o.OnRunStart != nil {
		r.o.OnRunStart(l.run.ID)
	}
	t := &testfile.Test{Name: name, File: file, URL: u}
	l.res = session.TestResult{Name: name, File: file, Status: "passed", RunID: l.run.ID}
	page, err := r.o.Browser.NewPage(ctx)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open a page: %w", err), l.finish(ctx, "failed"))
	}
	l.tr = &testRun{test: t, page: page, runID: l.run.ID, occurrence: map[string]int{}, identity: map[session.CacheKey]string{},
		uniques: map[string]string{}, red: r.o.Redactor, live: true}
	r.guardSecrets(l.tr)
	gen := testfile.UniqueFor(uniqueSeed(l.run.ID, name))
	l.tr.unique = func(prefix string) string { v := gen(prefix); l.tr.uniques[prefix] = v; return v }
	r.publish(session.TestStarted{Test: name, File: file, At: l.start})
	if err := r.open(ctx, l.tr, u); err != nil {
		page.Close()
		return nil, errors.Join(fmt.Errorf("open %s: %w", r.url(u), err), l.finish(ctx, "failed"))
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
	l.r.finished(l.tr, &sr)
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

// Close closes the page and records the test (its steps, failed ones
// included) and the run as passed when every kept step passed.
func (l *Live) Close(ctx context.Context) error {
	l.tr.page.Close()
	return l.finish(ctx, "passed")
}

func (l *Live) finish(ctx context.Context, status string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	l.res.Status = status
	l.res.DurationMS = time.Since(l.start).Milliseconds()
	l.r.publish(session.TestFinished{Result: l.res})
	if err := l.r.o.Store.SaveTest(ctx, &l.res); err != nil {
		return err // the store's error says "save test"
	}
	l.run.FinishedAt, l.run.Status = time.Now(), status
	if err := l.r.o.Store.FinishRun(ctx, &l.run); err != nil {
		return err // the store's error says "finish run"
	}
	return nil
}
