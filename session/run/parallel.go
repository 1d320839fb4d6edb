package run

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// Screenshot and video policies (SuiteOptions.Screenshots and .Video).
const (
	ScreenshotsOn       = "on"       // a screenshot after every step
	ScreenshotsFailures = "failures" // a screenshot of the failing step only (the default)
	ScreenshotsOff      = "off"      // none
	VideoOff            = "off"      // no screencast (the default)
	VideoFailures       = "failures" // a failed test keeps its screencast frames
)

// SuiteOptions say how a suite of tests runs: how many at once, how often a
// failed test is tried again, and what is captured along the way.
type SuiteOptions struct {
	// Workers is how many tests run at once, each in its own browser
	// context; zero or one runs them one after another.
	Workers int
	// Isolate gives every worker a browser of its own, started with Launch,
	// instead of browser contexts of Options.Browser.
	Isolate bool
	Launch  func(ctx context.Context) (*browser.Browser, error)
	// Retries runs a failed test again up to this many times; a test that
	// passes on a retry is flaky.
	Retries int
	// Screenshots is ScreenshotsOn, ScreenshotsFailures (default) or ScreenshotsOff.
	Screenshots string
	// Trace is TraceOff (the default, ""), TraceOn or TraceRetainOnFailure
	// (trace.go).
	Trace string
	// Video is VideoOff (default) or VideoFailures.
	Video string
	// OnTestStart, when set, learns of every test a worker begins (once,
	// before its first attempt); OnTestDone, of every finished test (after
	// its retries). The calls of both come one at a time.
	OnTestStart func(Started)
	OnTestDone  func(Progress)
}

// Started is a test a worker has begun.
type Started struct {
	Index, Total int // the test's place in the suite (0-based) and the suite's size
	Name, File   string
	Worker       int // 1-based
	At           time.Time
}

// Progress is a finished test and how far the suite is.
type Progress struct {
	Index       int // the test's place in the suite (0-based), as in Started
	Done, Total int
	Test        *session.TestResult
	Detail      *TestDetail
	Elapsed     time.Duration // since the suite started
}

// TestDetail is what a run learned about a test beyond its stored result:
// attempts, flakiness, the failure's snapshot and video, heals and tokens.
type TestDetail struct {
	Attempts      int      // 1 + retries used
	Flaky         bool     // failed, then passed on a retry
	AttemptErrors []string // the errors of the failed attempts before the last
	Worker        int      // 1-based
	Crashed       bool     // the browser renderer of the test crashed or hung
	// Snapshot is the accessibility snapshot (outline text, secrets
	// redacted) when the failing step failed; SnapshotStep its index.
	Snapshot     string
	SnapshotStep int
	// Video holds the paths of the failed test's screencast frames (JPEG),
	// oldest first, relative to Report.Dir when under it, and VideoMS their
	// times from the first frame.
	Video   []string
	VideoMS []int64
	// Heals are the ids of the heals the test's act steps made.
	Heals []int64
	// Tokens are the model tokens and cost of each step, by step index.
	Tokens map[int]Tokens
	// Trace is the path of the test's trace file (trace.go), relative to
	// Report.Dir when under it: the last attempt's that kept one.
	Trace string
	// NotRun, for a test that did not run (session.TestNotRun), is the
	// session whose capture failed.
	NotRun *SessionFailure
}

// Tokens count a step's model use.
type Tokens struct {
	In, Out int
	Cost    float64
}

// capture collects one attempt's extras while the test runs.
type capture struct {
	runID   int64
	test    string
	attempt int

	mu     sync.Mutex
	detail TestDetail
	cast   *browser.Screencast
}

type stepKey struct{}

type stepRef struct {
	c    *capture
	step int
}

// stepContext tags ctx with the running step, so that model calls made for
// it are counted against it (see NoteModelCall).
func (r *Runner) stepContext(ctx context.Context, i int) context.Context {
	if r.cap == nil {
		return ctx
	}
	return context.WithValue(ctx, stepKey{}, stepRef{c: r.cap, step: i})
}

// NoteModelCall counts a model call's tokens and cost against the step it
// was made for, when ctx is a step's context of a running suite; it does
// nothing otherwise. The model client's call recorder calls it.
func NoteModelCall(ctx context.Context, c *session.ModelCall) {
	ref, ok := ctx.Value(stepKey{}).(stepRef)
	if !ok || c == nil {
		return
	}
	ref.c.mu.Lock()
	defer ref.c.mu.Unlock()
	if ref.c.detail.Tokens == nil {
		ref.c.detail.Tokens = map[int]Tokens{}
	}
	t := ref.c.detail.Tokens[ref.step]
	t.In += c.TokensIn
	t.Out += c.TokensOut
	t.Cost += c.Cost
	ref.c.detail.Tokens[ref.step] = t
}

// runSuite runs the tests on the configured number of workers, retrying
// failed ones, saves each test's final result as it finishes and fills
// rep.Tests (in suite order) and rep.Details. An interrupted suite keeps
// what finished. It returns an error only when the store fails or an
// isolated browser cannot start.
func (r *Runner) runSuite(ctx context.Context, rep *Report, tests []*testfile.Test) error {
	n := len(tests)
	workers := min(max(r.o.Suite.Workers, 1), max(n, 1))
	browsers := make([]*browser.Browser, workers)
	for w := range browsers {
		browsers[w] = r.o.Browser
		if r.o.Suite.Isolate && r.o.Suite.Launch != nil {
			b, err := r.o.Suite.Launch(ctx)
			if err != nil {
				return fmt.Errorf("launch the browser of worker %d: %w", w+1, err)
			}
			defer b.Close()
			browsers[w] = b
		}
	}
	results := make([]*session.TestResult, n)
	details := make([]TestDetail, n)
	start := time.Now()
	var (
		mu      sync.Mutex
		done    int
		saveErr error
		wg      sync.WaitGroup
	)
	jobs := make(chan int)
	for w := range workers {
		wg.Go(func() {
			for i := range jobs {
				var out io.Writer = r.o.Out
				var buf bytes.Buffer
				if workers > 1 {
					out = &buf // a test's lines stay together
				}
				if r.o.Suite.OnTestStart != nil {
					mu.Lock()
					r.o.Suite.OnTestStart(Started{Index: i, Total: n, Name: tests[i].Name, File: tests[i].ShownFile(), Worker: w + 1, At: time.Now()})
					mu.Unlock()
				}
				res, det := r.runWithRetries(ctx, rep.Run.ID, tests[i], browsers[w], out)
				det.Worker = w + 1
				res.RunID = rep.Run.ID
				// An interrupted run still records what it did.
				sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
				err := r.o.Store.SaveTest(sctx, &res)
				cancel()
				mu.Lock()
				if err != nil && saveErr == nil {
					saveErr = err // the store's error says "save test" and its name
				}
				if workers > 1 {
					_, _ = r.o.Out.Write(buf.Bytes())
				}
				results[i], details[i] = &res, det
				done++
				if r.o.Suite.OnTestDone != nil {
					r.o.Suite.OnTestDone(Progress{Index: i, Done: done, Total: n, Test: results[i], Detail: &details[i], Elapsed: time.Since(start)})
				}
				mu.Unlock()
			}
		})
	}
feed:
	for i := range tests {
		mu.Lock()
		failed := saveErr != nil
		mu.Unlock()
		if failed {
			break
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	for i, res := range results {
		if res != nil {
			rep.Tests = append(rep.Tests, *res)
			rep.Details = append(rep.Details, details[i])
		}
	}
	return saveErr
}

// runWithRetries runs t, again after a failure while retries are left.
func (r *Runner) runWithRetries(ctx context.Context, runID int64, t *testfile.Test, b *browser.Browser, out io.Writer) (session.TestResult, TestDetail) {
	var errs []string
	trace := "" // the newest attempt's trace kept so far
	for attempt := 1; ; attempt++ {
		rr := &Runner{o: r.o, cap: &capture{runID: runID, test: t.Name, attempt: attempt}}
		rr.o.Browser, rr.o.Out = b, out
		res := rr.RunTest(ctx, runID, t)
		rr.cap.mu.Lock()
		det := rr.cap.detail
		rr.cap.mu.Unlock()
		if det.Trace == "" {
			det.Trace = trace // a flaky test's failed attempt, under retain-on-failure
		}
		trace = det.Trace
		if res.Status == session.TestPassed || res.Status == session.TestNotRun || attempt > r.o.Suite.Retries || ctx.Err() != nil {
			det.Attempts, det.Flaky, det.AttemptErrors = attempt, res.Status == session.TestPassed && attempt > 1, errs
			res.Attempts = attempt // stored, for the run history
			if det.Flaky {
				fmt.Fprintf(out, "  ~ %s is flaky: it passed on attempt %d of %d\n\n", t.Name, attempt, r.o.Suite.Retries+1)
			}
			return res, det
		}
		errs = append(errs, res.Error)
		fmt.Fprintf(out, "  ↻ retrying %s (attempt %d of %d)\n", t.Name, attempt+1, r.o.Suite.Retries+1)
	}
}

// afterStep captures what the policies ask for once step i ended: a
// screenshot, and on failure the snapshot and whether the renderer is gone.
func (r *Runner) afterStep(ctx context.Context, tr *testRun, i int, sr *session.StepResult) {
	failed := sr.Status == session.StatusFailed
	if failed {
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
		defer cancel()
		gone := rendererGone(ctx) != nil
		if !gone {
			if err := tr.page.Responsive(pctx, 2*time.Second); errors.Is(err, browser.ErrRendererGone) {
				gone = true
				sr.Error = errRendererGone.Error() + ": " + sr.Error
			}
		}
		if gone {
			if r.cap != nil {
				r.cap.mu.Lock()
				r.cap.detail.Crashed = true
				r.cap.mu.Unlock()
			}
			return
		}
		if r.cap != nil {
			if snap, err := tr.page.Snapshot(pctx, browser.SnapshotOptions{MaxNodes: 600}); err == nil {
				redactSnapshot(snap, tr.red)
				r.cap.mu.Lock()
				r.cap.detail.Snapshot, r.cap.detail.SnapshotStep = snap.Text(ax.TextOptions{}), i
				r.cap.mu.Unlock()
			}
		}
	}
	switch r.o.Suite.Screenshots {
	case ScreenshotsOff:
	case ScreenshotsOn:
		sr.Screenshot = r.screenshot(tr, i)
	default:
		if failed {
			sr.Screenshot = r.screenshot(tr, i)
		}
	}
}

func (c *capture) addHeal(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.detail.Heals = append(c.detail.Heals, id)
}

// startVideo starts the page's screencast when failed tests keep video.
func (r *Runner) startVideo(ctx context.Context, p *browser.Page) {
	if r.cap == nil || r.o.Suite.Video != VideoFailures {
		return
	}
	sc, err := p.StartScreencast(ctx, browser.ScreencastOptions{})
	if err != nil {
		return // no video is no reason to fail the test
	}
	r.cap.cast = sc
}

// stopVideo ends the screencast and keeps its frames when the test failed.
func (r *Runner) stopVideo(res *session.TestResult) {
	if r.cap == nil || r.cap.cast == nil {
		return
	}
	frames := r.cap.cast.Stop()
	if res.Status == "passed" || len(frames) == 0 {
		return
	}
	dir := filepath.Join(r.o.Screenshots, fmt.Sprintf("run%d-%s-video", r.cap.runID, r.fileSlug(res.Name)))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	var paths []string
	var ms []int64
	for i, f := range frames {
		p := filepath.Join(dir, fmt.Sprintf("frame%04d.jpg", i+1))
		if err := os.WriteFile(p, f.JPEG, 0o644); err != nil {
			return
		}
		paths = append(paths, r.shown(p))
		ms = append(ms, f.At.Sub(frames[0].At).Milliseconds())
	}
	r.cap.mu.Lock()
	r.cap.detail.Video, r.cap.detail.VideoMS = paths, ms
	r.cap.mu.Unlock()
}

// uniqueSeed makes {{ unique }} differ between tests that start in the same
// millisecond on different workers.
func uniqueSeed(runID int64, name string) string {
	h := uint32(2166136261)
	for _, c := range []byte(name) {
		h = (h ^ uint32(c)) * 16777619
	}
	return fmt.Sprintf("%d%03d%s", runID, time.Now().UnixMilli()%1000, strings.ToLower(fmt.Sprintf("%04x", h&0xffff)))
}

// Describe is a step as a person reads it ("click the Sign in button"),
// variables unresolved, as the run's printout shows it.
func Describe(st step.Step) string { return describe(st) }
