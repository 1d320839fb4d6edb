package run

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/locate"
	"github.com/e2e-dev/e2e/session/step"
)

// runExpect checks a deterministic expectation, retrying until it holds or
// the step's timeout passes, as Playwright's expect does.
func runExpect(r *Runner, ctx context.Context, tr *testRun, raw, st step.Step, sr *session.StepResult) error {
	switch st.Expect {
	case step.ExpectVisible:
		ref, pending, err := r.target(ctx, tr, raw, st, sr)
		if err != nil {
			var nf *NotFoundError
			if errors.As(err, &nf) && nf.Reason == locate.ReasonNoMatch {
				return fmt.Errorf("expected %q to be visible: %w", st.Description, err)
			}
			return err
		}
		// in the outline is not yet in sight: a person must see it (not
		// see-through, not clipped away, not off the page, not covered)
		var unseen *browser.ActionError
		err = r.poll(ctx, st, func() (string, bool, error) {
			e, err := tr.page.Seen(ctx, ref)
			if e != nil {
				unseen = e
			}
			return "", err == nil && e == nil, err
		}, func(string) error {
			return fmt.Errorf("expected %q to be visible, but a person cannot see it: %s", st.Description, seenWords(unseen))
		})
		if err != nil {
			return err
		}
		r.remember(tr, pending)
		return nil
	case step.ExpectHidden:
		return r.expectHidden(ctx, tr, raw, st)
	case step.ExpectText, step.ExpectValue:
		ref, pending, err := r.target(ctx, tr, raw, st, sr)
		if err != nil {
			return err
		}
		what := "text"
		if st.Expect == step.ExpectValue {
			what = "value"
		}
		err = r.poll(ctx, st, func() (string, bool, error) {
			var got string
			var err error
			if st.Expect == step.ExpectValue {
				got, err = tr.page.Value(ctx, ref)
			} else {
				got, err = r.textOf(ctx, tr, ref)
			}
			return got, matches(st, got), err
		}, func(got string) error {
			return fmt.Errorf("expected the %s of %q %s %q, got %q", what, st.Description, verb(st), st.Value, got)
		})
		if err != nil {
			return err
		}
		r.remember(tr, pending)
		return nil
	case step.ExpectURL:
		return r.poll(ctx, st, func() (string, bool, error) {
			u, err := tr.page.URL(ctx)
			return u, urlMatches(st, u), err
		}, func(got string) error { return fmt.Errorf("expected the URL %s %q, got %q", verb(st), st.Value, got) })
	case step.ExpectDialog:
		return r.expectDialog(ctx, tr, st, sr)
	case step.ExpectTitle:
		return r.poll(ctx, st, func() (string, bool, error) {
			t, err := tr.page.Title(ctx)
			return t, matches(st, t), err
		}, func(got string) error { return fmt.Errorf("expected the title %s %q, got %q", verb(st), st.Value, got) })
	}
	return fmt.Errorf("unknown expectation %q", st.Expect)
}

func verb(st step.Step) string {
	if st.Match == step.MatchContains {
		return "to contain"
	}
	return "to be"
}

func matches(st step.Step, got string) bool {
	g, w := strings.Join(strings.Fields(got), " "), strings.Join(strings.Fields(st.Value), " ")
	if st.Match == step.MatchContains {
		return strings.Contains(g, w)
	}
	return g == w
}

// urlMatches compares a URL as the step grammar says: the whole URL, or the
// path, query and fragment when the value starts with "/"; * matches anything.
func urlMatches(st step.Step, got string) bool {
	want := st.Value
	if strings.HasPrefix(want, "/") {
		if i := strings.Index(got, "://"); i >= 0 {
			if j := strings.Index(got[i+3:], "/"); j >= 0 {
				got = got[i+3+j:]
			} else {
				got = "/"
			}
		}
	}
	if st.Match == step.MatchContains {
		want = "*" + want + "*"
	}
	parts := strings.Split(want, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	re, err := regexp.Compile("^" + strings.Join(parts, ".*") + "$")
	return err == nil && re.MatchString(got)
}

// poll calls get until ok or the step's timeout, waiting for the page to
// change between tries; fail builds the error from the last value read (a
// read that failed as time ran out does not hide it).
func (r *Runner) poll(ctx context.Context, st step.Step, get func() (string, bool, error), fail func(string) error) error {
	deadline := stepDeadline(ctx, r.timeout(st))
	doing(ctx, doingCheck)
	var last string
	read := false
	for {
		got, ok, err := get()
		if err == nil && ok {
			return nil
		}
		if err == nil {
			last, read = got, true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			if read {
				return fail(last)
			}
			return err
		}
		t := time.NewTimer(50 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

// textOf is the element's visible text (its accessible name when it has no
// other text), with the content of open shadow roots in place, as shown.
func (r *Runner) textOf(ctx context.Context, tr *testRun, ref string) (string, error) {
	var s string
	err := tr.page.Eval(ctx, &s, `(ref) => { const el = window.__e2e.resolve(ref); return el ? window.__e2e.textOf(ref) : null; }`, ref)
	return s, err
}

// expectHidden passes once nothing matches the description any more, or
// what matches no person can see (browser.Page.Seen: see-through, clipped
// away, off the page, covered). It never writes the cache: there is no
// element.
func (r *Runner) expectHidden(ctx context.Context, tr *testRun, raw, st step.Step) error {
	_ = r.key(tr, raw) // keep occurrence numbering stable
	deadline := stepDeadline(ctx, r.timeout(st))
	r.settle(ctx, tr)
	var last *locate.Result // the last look, for the error when time runs out
	for {
		doing(ctx, doingSnapshot)
		snap, err := tr.page.Snapshot(ctx, browser.SnapshotOptions{TextBoxes: locate.Positional(st.Description)})
		if err != nil && (last == nil || ctx.Err() == nil) {
			return err
		}
		res := last
		if err == nil {
			withoutHoverOnly(snap) // shown only on hover: hidden now
			found, err := r.o.Locator.Locate(ctx, snap, st.Description)
			if err != nil {
				return err
			}
			res = &found
		}
		if res.Target == nil && res.Reason == locate.ReasonNoMatch {
			return nil
		}
		// what matches is there, but no person can see it
		if err == nil && hiddenFromPerson(ctx, tr, res) {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			var still *ax.Node
			if res.Target != nil {
				still = res.Target.Node
			} else if len(res.Candidates) > 0 {
				still = res.Candidates[0].Node
			}
			if still != nil {
				return fmt.Errorf("expected %q to be hidden, but %s is still visible", st.Description, still.Line())
			}
			return fmt.Errorf("expected %q to be hidden", st.Description)
		}
		last = res
		doing(ctx, doingWait)
		waitChange(ctx, tr.page, deadline)
	}
}

// hiddenFromPerson says the element the locator found (or every candidate
// of an ambiguous answer) is one no person can see.
func hiddenFromPerson(ctx context.Context, tr *testRun, res *locate.Result) bool {
	var refs []string
	if res.Target != nil {
		refs = append(refs, res.Target.Node.Ref)
	} else if res.Reason == locate.ReasonAmbiguous {
		for _, c := range res.Candidates {
			refs = append(refs, c.Node.Ref)
		}
	}
	if len(refs) == 0 {
		return false
	}
	for _, ref := range refs {
		if ref == "" {
			return false
		}
		e, err := tr.page.Seen(ctx, ref)
		if err != nil || e == nil {
			return false
		}
	}
	return true
}

// seenWords is why a person cannot see an element, as an error says it.
func seenWords(e *browser.ActionError) string {
	switch {
	case e == nil:
		return "the page did not say why"
	case e.Reason == browser.ReasonCovered:
		return "it is covered by " + e.CoveredBy
	case e.Detail != "":
		return e.Detail
	}
	return e.Reason
}
