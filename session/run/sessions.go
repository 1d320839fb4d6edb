package run

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// MinStateSecret is the length (in bytes) from which a cookie or storage
// value of a session's state is a secret to the redactor. Shorter values
// (a flag such as 1, a theme such as dark) are no credential, and hiding
// them would blank that text in every output.
const MinStateSecret = 8

// sessionStates are the states of the sessions of one run (e2e.yaml's
// sessions:), captured once each and shared by the run's workers. They are
// kept in memory only: never in the store, a report or a file.
type sessionStates struct {
	mu sync.Mutex
	m  map[string]*sessionCapture
}

// sessionCapture is one capture of a session: done is closed once state
// or err is set.
type sessionCapture struct {
	done  chan struct{}
	state *browser.State
	err   error // why the capture failed: the flow's own failure
}

// get returns the session's capture: the one made or being made (waiting
// for it), or, when there is none yet or the one there is stale (found
// expired by the caller), a new one made by capture while the callers
// after wait for it. Only one capture of a session runs at a time. A
// capture that failed stays: later callers get its error.
func (s *sessionStates) get(ctx context.Context, name string, stale *sessionCapture, capture func() (*browser.State, error)) (*sessionCapture, error) {
	s.mu.Lock()
	c := s.m[name]
	if c == nil || c == stale {
		c = &sessionCapture{done: make(chan struct{})}
		if s.m == nil {
			s.m = map[string]*sessionCapture{}
		}
		s.m[name] = c
		s.mu.Unlock()
		c.state, c.err = capture()
		close(c.done)
		return c, nil
	}
	s.mu.Unlock()
	select {
	case <-c.done:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// SessionFailure is a session whose capture failed in a run. The tests
// that need it are not run (session.TestNotRun): their reports say so,
// and show Failure, the flow's own failure, once.
type SessionFailure struct {
	Session string // its name under e2e.yaml's sessions:
	File    string // the e2e.yaml that names it, as the run shows files
	Line    int    // the session's line in File
	Flow    string // the flow it runs
	Failure string // the flow's own failure (or where check.url ended), secrets redacted
}

// Reason is why a test that needed the session did not run, in a few
// words: session "signed in" could not sign in.
func (f *SessionFailure) Reason() string {
	return fmt.Sprintf("session %q could not sign in", f.Session)
}

// notRunError is startSession's error when its session could not be
// captured: the test is not run, nor tried again.
type notRunError struct{ f SessionFailure }

func (e *notRunError) Error() string { return e.f.Reason() + ": " + e.f.Failure }

// startSession loads the state of the test's session into its page before
// its first step: captured by running the session's flow in a context of
// its own the first time a test of the run needs it, then checked at the
// session's check.url. A state that no longer holds there (the page ends
// elsewhere, such as /login, or answers an HTTP error) is captured again,
// once, and loaded again. A capture that fails is a *notRunError that
// holds the flow's own failure, redacted.
func (r *Runner) startSession(ctx context.Context, tr *testRun) error {
	name := tr.test.Session
	s := r.o.Config.Session(name)
	if s == nil || s.Use.Def == nil {
		return fmt.Errorf("session %q: e2e.yaml's sessions: has no such session, or its flow is not loaded", name)
	}
	fmt.Fprintf(r.o.Out, "  %s session %s %s\n", r.o.Color.Dim("▸"), s.Name, r.o.Color.Dim("("+testfile.ShownPath(r.o.Config.Dir, s.File)+")"))
	capture := func() (*browser.State, error) { return r.captureSession(ctx, tr.runID, s) }
	c, err := r.o.sessions.get(ctx, s.Name, nil, capture)
	if err != nil {
		return fmt.Errorf("session %q: %w", s.Name, err)
	}
	for again := false; ; again = true {
		if c.err != nil {
			return &notRunError{SessionFailure{Session: s.Name, File: testfile.ShownPath(r.o.Config.Dir, s.File), Line: s.NamePos.Line,
				Flow: s.Use.Flow, Failure: tr.redact(c.err.Error())}}
		}
		at, err := r.loadSession(ctx, tr, s, c.state)
		switch {
		case err != nil:
			return fmt.Errorf("session %q: %w", s.Name, err)
		case at == "":
			return nil
		case again:
			return fmt.Errorf("session %q: check.url %s showed %s even with the state captured again: the flow %q does not leave the browser signed in",
				s.Name, s.CheckURL, at, s.Use.Flow)
		}
		fmt.Fprintf(r.o.Out, "  %s session %s has expired (check.url %s showed %s): capturing it again\n", r.o.Color.Warn("↻"), s.Name, s.CheckURL, at)
		if c, err = r.o.sessions.get(ctx, s.Name, c, capture); err != nil {
			return fmt.Errorf("session %q: %w", s.Name, err)
		}
	}
}

// loadSession loads state into the test's page and opens the session's
// check.url. It returns "" when the page stays there, else where it ended
// (or the HTTP error it answered with).
func (r *Runner) loadSession(ctx context.Context, tr *testRun, s *testfile.Session, state *browser.State) (string, error) {
	if err := tr.page.LoadState(ctx, state); err != nil {
		return "", err
	}
	at, err := r.checkSession(ctx, tr, s)
	if serr := tr.page.StateLoaded(ctx); err == nil && serr != nil {
		err = serr
	}
	return at, err
}

// checkSession opens the session's check.url in the test's page, within a
// navigate step's time, and says where it ended: "" when it stayed there,
// else the path it ended at (or the HTTP error it answered with).
func (r *Runner) checkSession(ctx context.Context, tr *testRun, s *testfile.Session) (string, error) {
	u, secrets, err := testfile.ResolveString(s.CheckURL, r.o.Env, tr.unique)
	tr.addSecrets(secrets)
	if err != nil {
		return "", fmt.Errorf("check.url: %w", err)
	}
	want := r.url(u)
	sctx, b, cancel := withBudget(ctx, r.budgetFor(sessionCheckStep))
	defer cancel()
	nctx, ncancel := context.WithTimeout(sctx, r.o.Config.Timeouts.Navigation)
	defer ncancel()
	tr.opens(want)
	resp, err := tr.page.Navigate(nctx, want)
	if err != nil {
		return "", b.explain(fmt.Errorf("open check.url: %w", err))
	}
	r.settle(sctx, tr)
	got, err := tr.page.URL(sctx)
	if err != nil {
		got = tr.page.LastURL()
	}
	if resp.Status >= 400 {
		return fmt.Sprintf("HTTP %d", resp.Status), nil
	}
	if samePage(want, got) {
		return "", nil
	}
	return shownURL(got), nil
}

// samePage says whether got is the page want names: the same scheme, host
// and path (the query, the fragment and a trailing slash aside).
func samePage(want, got string) bool {
	w, err1 := url.Parse(want)
	g, err2 := url.Parse(got)
	if err1 != nil || err2 != nil {
		return false
	}
	path := func(p string) string {
		if p = strings.TrimRight(p, "/"); p == "" {
			return "/"
		}
		return p
	}
	return strings.EqualFold(w.Scheme, g.Scheme) && strings.EqualFold(w.Host, g.Host) && path(w.Path) == path(g.Path)
}

// shownURL is u as a line says where a page ended: its path and query.
func shownURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Path == "" {
		return u
	}
	if p.RawQuery != "" {
		return p.Path + "?" + p.RawQuery
	}
	return p.Path
}

// captureSession runs the session's flow in a fresh browser context, as a
// test of its own whose only step uses the flow (its steps print, and are
// cached under the flow, as in any test), then opens check.url and, when
// the page stays there, saves the context's state. Every cookie and
// storage value of MinStateSecret bytes or more becomes a secret to the
// redactor before the state is returned. The error is the flow's own
// failure, or says where check.url ended.
func (r *Runner) captureSession(ctx context.Context, runID int64, s *testfile.Session) (*browser.State, error) {
	cr := &Runner{o: r.o}
	cr.o.Events, cr.o.Gate, cr.o.Rerecord, cr.o.OnTarget = nil, nil, nil, nil
	cr.o.Suite.Screenshots, cr.o.Suite.Video = ScreenshotsOff, VideoOff
	t := &testfile.Test{Name: "session: " + s.Name, File: s.File, Shown: testfile.ShownPath(r.o.Config.Dir, s.File),
		Steps: []testfile.Step{{Kind: testfile.UseKind, Pos: s.Use.FlowPos, Use: &s.Use}}}
	var state *browser.State
	var failed error
	cr.atEnd = func(ctx context.Context, tr *testRun, res *session.TestResult) {
		if res.Status != session.TestPassed {
			return
		}
		at, err := cr.checkSession(ctx, tr, s)
		switch {
		case err != nil:
			failed = err
		case at != "":
			failed = fmt.Errorf("the flow %q passed, but check.url %s then showed %s: it did not sign in", s.Use.Flow, s.CheckURL, at)
		}
		if failed == nil {
			if state, failed = tr.page.SaveState(ctx); failed == nil {
				for _, v := range state.Values() {
					if len(v) >= MinStateSecret {
						r.o.Redactor.Add(v)
					}
				}
			}
		}
		if failed != nil {
			res.Status, res.Error = session.TestFailed, tr.redact(failed.Error())
		}
	}
	res := cr.RunTest(ctx, runID, t)
	if res.Status != session.TestPassed {
		if failed != nil {
			return nil, failed
		}
		// The use step's error says which of the flow's steps failed, and how.
		if len(res.Steps) > 0 && res.Steps[0].Error != "" {
			return nil, errors.New(res.Steps[0].Error)
		}
		return nil, errors.New(res.Error)
	}
	return state, nil
}

// sessionCheckStep is the step whose time opening check.url may take.
var sessionCheckStep = step.Step{Type: step.Navigate}
