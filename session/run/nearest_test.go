package run

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
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
	e.findsNothing()
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
	e.findsNothing()
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
	if !strings.HasPrefix(s.Error, `"the Menu button" matches several elements equally: 5 equal candidates: button "Menu" [`) {
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

// TestNarrowNamesTheRightZooContainer: on the zoo's pages, in every
// style where a description is an ambiguity, each suggestion names the
// container (a row, an item, a card) of the element it singles out (ground
// truth: data-zoo-key), near misses included: Ann Lee and Ann Leeds, "oat
// milk" and "oat milk and honey", two Starter cards (told apart by their
// sections). No two suggestions
// single out one element, and each locates its element again.
func TestNarrowNamesTheRightZooContainer(t *testing.T) {
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	named := regexp.MustCompile(`^in the "?(.+?)"? (?:row|item|card)(?: in the (.+) section)?$`)
	cards := []string{"starter", "pro", "pro plus", "business", "enterprise"}
	for _, tt := range []struct {
		page, desc, prefix string
		must               []string // containers that must have a suggestion
	}{
		{"table", "the More actions button", "table:menu:", []string{"ann lee", "ann leeds"}},
		{"tasks", "the Delete button", "tasks:delete:", []string{"oat milk", "oat milk and honey"}},
		{"tasks", "the checkbox", "tasks:toggle:", []string{"oat milk", "oat milk and honey"}},
		{"cards", "the Delete button", "cards:delete:", []string{"personal/starter", "team/starter"}},
	} {
		for _, style := range fixture.ZooStyles {
			t.Run(tt.page+"/"+style+"/"+tt.desc, func(t *testing.T) {
				p, snap := nearMissPage(t, srv.URL+"/zoo/"+tt.page+"?style="+style, "")
				r := locate.Locate(snap, tt.desc)
				if r.Reason != locate.ReasonAmbiguous {
					t.Skipf("not an ambiguity: %s %s", r.Reason, r.Detail)
				}
				ns := locate.Narrow(snap, tt.desc, r)
				if len(ns) < 2 {
					t.Fatalf("narrow: %+v (%s)", ns, r.Detail)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				saw, keys := map[string]bool{}, map[string]string{}
				for _, n := range ns {
					t.Logf("%s: %q", n.Label, n.Description)
					key, _, err := p.Attribute(ctx, n.Node.Ref, zooKeyAttr)
					if err != nil {
						t.Fatal(err)
					}
					if other, ok := keys[key]; ok {
						t.Errorf("%q and %q single out one element, %s", other, n.Description, key)
					}
					keys[key] = n.Description
					if got := locate.Locate(snap, n.Description); got.Target == nil || got.Target.Node.Ref != n.Node.Ref {
						t.Errorf("%q does not locate its candidate again: %s", n.Description, got.Detail)
					}
					m := named.FindStringSubmatch(n.Add)
					if m == nil {
						continue // an ordinal or the element's own name: checked by locating it again
					}
					phrase := strings.ToLower(m[1])
					want := tt.prefix + phrase
					if tt.page == "cards" {
						// keys are section/title; the phrase is the card's
						// title or its text, which starts with the title
						title := ""
						for _, c := range cards {
							if (phrase == c || strings.HasPrefix(phrase, c+" ")) && len(c) > len(title) {
								title = c
							}
						}
						section, got, _ := strings.Cut(strings.TrimPrefix(key, tt.prefix), "/")
						if got != title || !strings.HasPrefix(key, tt.prefix) || m[2] != "" && section != strings.ToLower(m[2]) {
							t.Errorf("%q singles out %s, want a card titled %q (section %q): WRONG ELEMENT", n.Description, key, title, m[2])
						}
						saw[section+"/"+title] = true
						continue
					}
					if key != want {
						t.Errorf("%q singles out %s, want %s: WRONG ELEMENT", n.Description, key, want)
					}
					saw[phrase] = true
				}
				for _, c := range tt.must {
					if !saw[c] {
						t.Errorf("no suggestion names %q: %+v", c, ns)
					}
				}
			})
		}
	}
}

// TestNearestNamesTheMeantZooElement: a typo on a zoo page, in every
// style, has the element meant first among the nearest (ground truth:
// data-zoo-key), never its near miss: "the Ann Le row" is Ann Lee's row,
// not Ann Leeds's; "the oat mlik item" is oat milk, not oat milk and honey.
// The locator still finds nothing.
func TestNearestNamesTheMeantZooElement(t *testing.T) {
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		page, desc  string
		want, wrong string // the first's key contains want, never wrong
	}{
		{"table", "the Ann Le row", ":ann lee", "ann leeds"},
		{"table", "the More actions button in the Ann Leds row", "table:menu:ann leeds", "bob"},
		{"tasks", "the oat mlik item", ":oat milk", "honey"},
		{"settings", "the Weekly digets checkbox", "digest", "email"},
		{"modal", "the Edit nmae button", "modal:open", "share"},
	} {
		for _, style := range fixture.ZooStyles {
			t.Run(tt.page+"/"+style+"/"+tt.desc, func(t *testing.T) {
				p, snap := nearMissPage(t, srv.URL+"/zoo/"+tt.page+"?style="+style, "")
				if r := locate.Locate(snap, tt.desc); r.Target != nil {
					t.Fatalf("the locator picked %s for a typo", r.Target.Node.Line())
				}
				ns := locate.Nearest(snap, tt.desc)
				if len(ns) == 0 {
					t.Skipf("no nearest (an unnamed control)")
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				key, _, err := p.Attribute(ctx, ns[0].Node.Ref, zooKeyAttr)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("nearest %s (%.2f): %s", ns[0].Label, ns[0].Score, key)
				if !strings.Contains(key, tt.want) || strings.Contains(key, tt.wrong) {
					t.Errorf("nearest %s (%.2f) is %q, want one with %q: WRONG ELEMENT", ns[0].Label, ns[0].Score, key, tt.want)
				}
			})
		}
	}
}

// TestAdviceKeepsSecretsOut: a secret's value in an ambiguous description
// and on the page appears in neither the error nor the advice the step
// result carries.
func TestAdviceKeepsSecretsOut(t *testing.T) {
	e := newEnv(t)
	const secret = "Menu"
	e.vars["E2E_LABEL"] = secret
	rep := e.run("", `name: secret
url: /users
steps:
  - click: "the {{ secret.E2E_LABEL }} button"
`)
	s := rep.Tests[0].Steps[0]
	if s.Status != session.StatusFailed || len(s.Narrow) != 5 {
		t.Fatalf("step: %s %s %+v", s.Status, s.Error, s.Narrow)
	}
	all := s.Error + rep.Tests[0].Error + e.out.String()
	for _, n := range s.Narrow {
		all += n.Element + n.Add + n.Description
	}
	if strings.Contains(all, secret) {
		t.Errorf("the secret is in the output: %s", all)
	}
	if !strings.Contains(s.Error, `; add "in the Alice row"`) {
		t.Errorf("error: %s", s.Error)
	}
}

// TestNotFoundErrorWording: how the advice reads at the end of the error.
func TestNotFoundErrorWording(t *testing.T) {
	b := &ax.Node{Role: "button", Name: "Save draft", Ref: "e1"}
	c := &ax.Node{Role: "button", Name: "Save copy", Ref: "e2"}
	for _, tt := range []struct {
		err  *NotFoundError
		want string
	}{
		{&NotFoundError{Description: "the Sing in button", Reason: locate.ReasonNoMatch,
			Nearest: []locate.Near{{Node: b, Label: `button "Sign in"`, Score: 0.87, Count: 1}, {Node: c, Label: `button "Menu"`, Score: 0.7, Count: 5}}},
			`no element matches "the Sing in button"; nearest: button "Sign in" (0.87), button "Menu" ×5 (0.70)`},
		{&NotFoundError{Description: "the Launch rocket button", Reason: locate.ReasonNoMatch},
			`no element matches "the Launch rocket button"`},
		{&NotFoundError{Description: "the Menu button", Reason: locate.ReasonAmbiguous, Detail: "2 equal candidates",
			Narrow: []locate.Narrowing{{Node: b, Add: "in the Alice row"}, {Node: c, Add: "in the Bob row"}}},
			`"the Menu button" matches several elements equally: 2 equal candidates; add "in the Alice row" or "in the Bob row"`},
		{&NotFoundError{Description: "the Save button", Reason: locate.ReasonAmbiguous, Detail: "2 close candidates",
			Narrow: []locate.Narrowing{{Node: b, Description: "the Save draft button"}, {Node: c, Add: "in the Bob row", Description: `the "Save copy" button`}}},
			"\"the Save button\" matches several elements equally: 2 close candidates; say \"the Save draft button\" or `the \"Save copy\" button`"},
		{&NotFoundError{Description: "Menu", Reason: locate.ReasonAmbiguous, Detail: "4 equal candidates",
			Narrow: []locate.Narrowing{{Node: b, Add: "in the A row"}, {Node: b, Add: "in the B row"}, {Node: b, Add: "in the C row"}, {Node: b, Add: "in the D row"}}},
			`"Menu" matches several elements equally: 4 equal candidates; add "in the A row", "in the B row" or "in the C row" (3 of 4)`},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
