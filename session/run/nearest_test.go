package run

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/locate"
)

// A step whose description matches nothing ends its error with the nearest
// elements, and one that fits several with how to narrow it (see
// locate.Nearest and locate.Narrow). Advice only: the step still fails.

// TestTypoStepFailsNamingTheNearest: "the Sing in button" is no match; the
// error names the Sign in button as nearest, the step fails all the same
// (the locator never acts on a nearest element), and the step result
// carries the advice for the JSON report.
func TestTypoStepFailsNamingTheNearest(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 1500 * time.Millisecond
	rep := e.run("", `name: typo
url: /login
steps:
  - type: { into: the Email field, text: alice@example.com }
  - type: { into: the Password field, text: correct-horse }
  - click: the Sing in button
  - expect: { visible: the Users heading }
`)
	s := rep.Tests[0].Steps
	if rep.Passed() || s[2].Status != session.StatusFailed {
		t.Fatalf("a typo step did not fail: %s %s", s[2].Status, s[2].Error)
	}
	want := regexp.MustCompile(`^no element matches "the Sing in button"; nearest: button "Sign in" \(0\.87\), link "Sign in" \(0\.8\d\), heading "Sign in" \(0\.7\d\)$`)
	if !want.MatchString(s[2].Error) {
		t.Errorf("error: %s\nwant it to match %s", s[2].Error, want)
	}
	if len(s[2].Nearest) != 3 || s[2].Nearest[0].Element != `button "Sign in"` || s[2].Nearest[0].Score != 0.87 || s[2].Nearest[0].Ref == "" {
		t.Errorf("step result nearest: %+v", s[2].Nearest)
	}
	if s[3].Status != session.StatusSkipped {
		t.Errorf("step after the typo: %s", s[3].Status)
	}
	if !strings.Contains(rep.Tests[0].Error, `nearest: button "Sign in" (0.87)`) {
		t.Errorf("test error: %s", rep.Tests[0].Error)
	}
}

// TestNoiseStepNamesNoNearest: a description that reads like nothing on
// the page gets no nearest element.
func TestNoiseStepNamesNoNearest(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 1500 * time.Millisecond
	rep := e.run("", `name: noise
url: /login
steps:
  - click: the Launch rocket button
`)
	s := rep.Tests[0].Steps[0]
	if s.Status != session.StatusFailed || s.Error != `no element matches "the Launch rocket button"` || len(s.Nearest) > 0 {
		t.Errorf("step: %s %q nearest %+v", s.Status, s.Error, s.Nearest)
	}
}

// TestAmbiguousStepSaysHowToNarrow: "the Menu button" on /users fits the
// five rows' buttons; the error says to add the row, and the advice is
// right: the suggestion for Bob opens Bob's menu.
func TestAmbiguousStepSaysHowToNarrow(t *testing.T) {
	e := newEnv(t)
	rep := e.run("", `name: ambiguous
url: /users
steps:
  - click: the Menu button
`)
	s := rep.Tests[0].Steps[0]
	if s.Status != session.StatusFailed || !strings.HasSuffix(s.Error, `; add "in the Alice row", "in the Bob row" or "in the Carol row" (3 of 5)`) {
		t.Fatalf("step: %s %s", s.Status, s.Error)
	}
	if !strings.HasPrefix(s.Error, `"the Menu button" matches several elements equally: 5 equal candidates`) {
		t.Errorf("error: %s", s.Error)
	}
	if len(s.Narrow) != 5 || s.Narrow[1].Add != "in the Bob row" || s.Narrow[1].Description != "the Menu button in the Bob row" || s.Narrow[1].Element != `button "Menu"` {
		t.Fatalf("step result narrow: %+v", s.Narrow)
	}
	rep = e.run("", `name: narrowed
url: /users
steps:
  - click: `+s.Narrow[1].Description+`
  - click: Archive in the row menu
  - expect: { hidden: the Bob row }
  - expect: { visible: the Alice row }
  - expect: { text: { in: the status message, contains: Bob archived } }
`)
	if !rep.Passed() {
		t.Errorf("the narrowed description did not reach Bob's menu:\n%s", e.out.String())
	}
}

// TestNarrowNamesTheRightZooRow: on the zoo's Members table, in every
// style where the kebab buttons are an ambiguity, each suggestion names the
// row (an item, in divsoup) of the button it singles out (ground truth: data-zoo-key), the near
// miss Ann Lee / Ann Leeds included.
func TestNarrowNamesTheRightZooRow(t *testing.T) {
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	rowOf := regexp.MustCompile(`^in the "?(.+?)"? (?:row|item)$`)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p, snap := nearMissPage(t, srv.URL+"/zoo/table?style="+style, "")
			const desc = "the More actions button"
			r := locate.Locate(snap, desc)
			if r.Reason != locate.ReasonAmbiguous {
				t.Skipf("%q is not an ambiguity in %s: %s %s", desc, style, r.Reason, r.Detail)
			}
			ns := locate.Narrow(snap, desc, r)
			if len(ns) < 2 {
				t.Fatalf("narrow: %+v (%s)", ns, r.Detail)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			sawAnnLee := false
			for _, n := range ns {
				m := rowOf.FindStringSubmatch(n.Add)
				if m == nil {
					t.Errorf("%q: no row named (%q)", n.Description, n.Add)
					continue
				}
				key, _, err := p.Attribute(ctx, n.Node.Ref, zooKeyAttr)
				if err != nil {
					t.Fatal(err)
				}
				if want := "table:menu:" + strings.ToLower(m[1]); key != want {
					t.Errorf("%q singles out %s, want %s: WRONG ELEMENT", n.Description, key, want)
				}
				got := locate.Locate(snap, n.Description)
				if got.Target == nil || got.Target.Node.Ref != n.Node.Ref {
					t.Errorf("%q does not locate its candidate again: %s", n.Description, got.Detail)
				}
				sawAnnLee = sawAnnLee || m[1] == "Ann Lee"
			}
			if !sawAnnLee {
				t.Errorf("no suggestion for Ann Lee's row: %+v", ns)
			}
		})
	}
}
