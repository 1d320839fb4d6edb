package run

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// scriptedActor plays a fixed list of step commands through the env, the
// way the agent would, and remembers what it was told.
type scriptedActor struct {
	commands []string
	calls    int
	outcomes []session.StepOutcome
}

func (a *scriptedActor) Act(ctx context.Context, goal, _ string, env session.ActEnv) (session.ActResult, error) {
	a.calls++
	res := session.ActResult{ModelCalls: 1, Postcondition: "the cart shows one item"}
	if _, err := env.Snapshot(ctx); err != nil {
		return res, err
	}
	for _, c := range a.commands {
		out := env.Execute(ctx, c)
		a.outcomes = append(a.outcomes, out)
		if out.OK {
			res.Steps = append(res.Steps, out.Command)
		}
	}
	res.Success = true
	res.Message = "added it"
	return res, nil
}

const actTest = `name: act cart
url: /product
steps:
  - act: put the shoe in the cart
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
`

func TestActRecordsThenReplaysWithoutTheModel(t *testing.T) {
	e := newEnv(t)
	actor := &scriptedActor{commands: []string{
		`--step-type NAVIGATE --value "https://example.org/"`, // a page told it to: refused
		`--step-type CLICK --description "the Add to cart button"`,
	}}
	e.actor = actor
	rep := e.run("", actTest)
	if !rep.Passed() {
		t.Fatalf("record run failed:\n%s", e.out.String())
	}
	if actor.calls != 1 || rep.Tests[0].Steps[0].Status != session.StatusLocated || rep.Tests[0].Steps[0].LLMCalls != 1 {
		t.Fatalf("record: %d calls, step %+v", actor.calls, rep.Tests[0].Steps[0])
	}
	if out := actor.outcomes[0]; out.OK || !strings.Contains(out.Result, "not an allowed origin") {
		t.Errorf("navigating off the site: %+v", out)
	}
	if out := actor.outcomes[1]; !out.OK || out.CacheID == "" || !strings.Contains(out.Command, "--cache-id") {
		t.Errorf("click: %+v", out)
	}
	tr, err := e.db.Trajectory(context.Background(), e.key("act cart", "put the shoe in the cart", ""))
	if err != nil || tr == nil || len(tr.Steps) != 1 || tr.Evidence.Route != "/product" {
		t.Fatalf("trajectory: %+v %v", tr, err)
	}
	rep = e.run("", actTest)
	if !rep.Passed() {
		t.Fatalf("replay run failed:\n%s", e.out.String())
	}
	s := rep.Tests[0].Steps[0]
	if actor.calls != 1 || s.Status != session.StatusHit || s.LLMCalls != 0 {
		t.Errorf("replay asked the model (%d calls) or did not hit: %+v", actor.calls, s)
	}
}

// fakeJudge answers every claim with a fixed verdict and counts calls.
type fakeJudge struct {
	pass   bool
	claims []string
}

func (j *fakeJudge) Judge(_ context.Context, _ *ax.Snapshot, claim string) (bool, string, int, error) {
	j.claims = append(j.claims, claim)
	return j.pass, "judged", 1, nil
}

func TestActEvidence(t *testing.T) {
	e := newEnv(t)
	e.actor = &scriptedActor{commands: []string{`--step-type CLICK --description "the Add to cart button"`}}
	if rep := e.run("", actTest); !rep.Passed() {
		t.Fatalf("record:\n%s", e.out.String())
	}
	key := e.key("act cart", "put the shoe in the cart", "")
	tr, err := e.db.Trajectory(context.Background(), key)
	if err != nil || tr == nil {
		t.Fatal(err)
	}
	e.heal = HealOff // this test is about the evidence, not healing
	// Evidence that no longer holds on its own: a recorded element is missing.
	tr.Evidence.Appeared = append(tr.Evidence.Appeared, `status "Shipped"`)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.db.PutTrajectory(context.Background(), tr))
	rep := e.run("", actTest)
	if rep.Passed() || !strings.Contains(rep.Tests[0].Steps[0].Error, `lacks status "Shipped"`) || e.actor.(*scriptedActor).calls != 1 {
		t.Fatalf("without a judge, inconclusive evidence must fail: %+v", rep.Tests[0].Steps[0])
	}
	// With a judge, the postcondition sentence decides.
	j := &fakeJudge{pass: true}
	e.judge = j
	rep = e.run("", actTest)
	if !rep.Passed() || len(j.claims) != 1 || j.claims[0] != "the cart shows one item" || rep.Tests[0].Steps[0].LLMCalls != 1 {
		t.Fatalf("judged replay: %+v, claims %v\n%s", rep.Tests[0].Steps[0], j.claims, e.out.String())
	}
	// A route that differs fails clearly, without asking.
	tr.Evidence.Route = "/checkout"
	must(e.db.PutTrajectory(context.Background(), tr))
	rep = e.run("", actTest)
	if rep.Passed() || len(j.claims) != 1 || !strings.Contains(rep.Tests[0].Steps[0].Error, "not /checkout") {
		t.Fatalf("route mismatch: %+v, claims %v", rep.Tests[0].Steps[0], j.claims)
	}
}

// healingActor answers each call with the next list of commands.
type healingActor struct {
	scripts  [][]string
	contexts []string
}

func (a *healingActor) Act(ctx context.Context, goal, testContext string, env session.ActEnv) (session.ActResult, error) {
	i := len(a.contexts)
	a.contexts = append(a.contexts, testContext)
	if i >= len(a.scripts) {
		return session.ActResult{ModelCalls: 1}, fmt.Errorf("healingActor: unexpected call %d, context %q", i+1, testContext)
	}
	res := session.ActResult{ModelCalls: 1, Postcondition: "the cart shows one item", Success: true}
	for _, c := range a.scripts[i] {
		out := env.Execute(ctx, c)
		if !out.OK {
			return res, fmt.Errorf("scripted step failed: %s", out.Result)
		}
		res.Steps = append(res.Steps, out.Command)
	}
	return res, nil
}

// TestPopupHealsByInsertingOneStep: a newsletter modal covers the recorded
// click; the agent inserts one step that closes it, the heal is staged, and
// the next run replays the healed trajectory without the model.
func TestPopupHealsByInsertingOneStep(t *testing.T) {
	e := newEnv(t)
	actor := &healingActor{scripts: [][]string{
		{`--step-type CLICK --description "the Add to cart button"`},
		{`--step-type CLICK --description "the No thanks button"`, `--step-type CLICK --description "the Add to cart button"`},
	}}
	e.actor = actor
	if rep := e.run("", actTest); !rep.Passed() {
		t.Fatalf("record:\n%s", e.out.String())
	}
	e.cfg.Timeouts.Step = 1500 * time.Millisecond
	rep := e.run("popup", actTest)
	if !rep.Passed() {
		t.Fatalf("healing run failed:\n%s", e.out.String())
	}
	s := rep.Tests[0].Steps[0]
	if len(actor.contexts) != 2 || !strings.Contains(actor.contexts[1], "Step 0 failed") || !strings.Contains(actor.contexts[1], "covered") {
		t.Fatalf("heal context: %q", actor.contexts)
	}
	if !strings.HasPrefix(s.MissReason, "healed (staged") || s.LLMCalls != 1 || !rep.Tests[0].Healed() {
		t.Errorf("heal step: %+v", s)
	}
	heals, err := e.db.Heals(context.Background(), "staged")
	if err != nil || len(heals) != 1 || len(heals[0].OldSteps) != 1 || len(heals[0].NewSteps) != 2 || heals[0].FailedIndex != 0 {
		t.Fatalf("heals: %+v %v", heals, err)
	}
	// The next run on the popup app uses the staged trajectory: no model.
	// The test still passes only through the unreviewed heal, and says so.
	rep = e.run("popup", actTest)
	s = rep.Tests[0].Steps[0]
	if !rep.Passed() || s.Status != session.StatusHit || len(actor.contexts) != 2 || !rep.Tests[0].Healed() ||
		!strings.Contains(s.MissReason, fmt.Sprintf("heal %d of ", heals[0].ID)) || !strings.Contains(s.MissReason, "not reviewed yet") {
		t.Fatalf("replay of the staged heal: %+v, %d actor calls\n%s", s, len(actor.contexts), e.out.String())
	}
	if !strings.Contains(e.out.String(), "1 passed (1 healed, staged for review)") {
		t.Errorf("the summary does not say the test passed through a staged heal:\n%s", e.out.String())
	}
	// With healing off, a failing replay fails.
	e.heal = HealOff
	if _, err := e.db.DecideHeal(context.Background(), heals[0].ID, false, "reviewer"); err != nil {
		t.Fatal(err)
	}
	if rep := e.run("popup", actTest); rep.Passed() || !strings.Contains(rep.Tests[0].Steps[0].Error, "covered") {
		t.Fatalf("heal off: %+v", rep.Tests[0].Steps[0])
	}
}

// TestRedesignHealRewritesTheTail: the login form becomes two steps with
// renamed fields; the replay gets as far as it can, and the agent's heal
// replaces the rest of the trajectory.
func TestRedesignHealRewritesTheTail(t *testing.T) {
	e := newEnv(t)
	e.vars["E2E_PASSWORD"] = "correct-horse"
	actor := &healingActor{scripts: [][]string{
		{
			`--step-type TYPE --description "the email field" --value "alice@example.com"`,
			`--step-type TYPE --description "the password field" --value "{{ secret.E2E_PASSWORD }}"`,
			`--step-type CLICK --description "the Sign in button"`,
		},
		{
			`--step-type CLICK --description "the Continue button"`,
			`--step-type TYPE --description "the Passphrase field" --value "{{ secret.E2E_PASSWORD }}"`,
			`--step-type CLICK --description "the Log in button"`,
		},
	}}
	e.actor, e.heal = actor, HealAccept
	src := `name: sign in
url: /login
steps:
  - act: sign in as alice
  - expect: { url: /users }
`
	if rep := e.run("", src); !rep.Passed() {
		t.Fatalf("record:\n%s", e.out.String())
	}
	e.cfg.Timeouts.Step = 1500 * time.Millisecond
	rep := e.run("redesign", src)
	if !rep.Passed() {
		t.Fatalf("redesign heal run:\n%s", e.out.String())
	}
	heals, err := e.db.Heals(context.Background(), "accepted")
	if err != nil || len(heals) != 1 {
		t.Fatalf("heals: %+v %v", heals, err)
	}
	h := heals[0]
	if h.FailedIndex != 1 || len(h.NewSteps) != 4 || h.NewSteps[0] != h.OldSteps[0] || !strings.Contains(h.NewSteps[3], "Log in") {
		t.Errorf("the tail was not rewritten after the replayed head: failed at %d\nold %q\nnew %q", h.FailedIndex, h.OldSteps, h.NewSteps)
	}
	for _, s := range append(h.OldSteps, h.NewSteps...) {
		if strings.Contains(s, "correct-horse") {
			t.Error("a secret value was stored in a trajectory")
		}
	}
	// Accepted: the redesigned app now replays without the model.
	rep = e.run("redesign", src)
	if !rep.Passed() || rep.Tests[0].Steps[0].Status != session.StatusHit || len(actor.contexts) != 2 {
		t.Fatalf("replay after the accepted heal: %+v\n%s", rep.Tests[0].Steps[0], e.out.String())
	}
}

func TestRouteShape(t *testing.T) {
	for in, want := range map[string]string{
		"http://x/users":                                  "/users",
		"http://x/users/42/edit":                          "/users/{id}/edit",
		"http://x/o/3f2a9c1d7e":                           "/o/{id}",
		"http://x/o/123e4567-e89b-12d3-a456-426614174000": "/o/{id}",
		"http://x/day/2026-11-29?x=1":                     "/day/{id}",
		"http://x/product/trail-runner-2":                 "/product/trail-runner-2",
		"http://x/feed/deadbeef":                          "/feed/{id}",
		"http://x/feed/cafe":                              "/feed/cafe",
	} {
		if got := routeShape(in); got != want {
			t.Errorf("routeShape(%q) = %q, want %q", in, got, want)
		}
	}
}

// renamingActor renames Alice to the test's unique value (as a variable),
// then reads the new name off the screen and uses it literally, as a model
// does.
type renamingActor struct{ calls int }

func (a *renamingActor) Act(ctx context.Context, goal, _ string, env session.ActEnv) (session.ActResult, error) {
	a.calls++
	res := session.ActResult{ModelCalls: 1, Postcondition: "the renamed row's menu is open"}
	for _, c := range []string{
		`--step-type CLICK --description "the Menu button in the Alice row"`,
		`--step-type CLICK --description "Edit"`,
		`--step-type TYPE --description "the Name field" --value "{{ unique \"user-\" }}"`,
		`--step-type CLICK --description "the Save button"`,
	} {
		out := env.Execute(ctx, c)
		if !out.OK {
			return res, fmt.Errorf("%s: %s", c, out.Result)
		}
		res.Steps = append(res.Steps, out.Command)
	}
	snap, err := env.Snapshot(ctx)
	if err != nil {
		return res, err
	}
	name := ""
	snap.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "row" && strings.HasPrefix(n.Name, "user-") {
			name, _, _ = strings.Cut(n.Name, " ")
		}
		return name == ""
	})
	if name == "" {
		return res, fmt.Errorf("no renamed row on screen")
	}
	out := env.Execute(ctx, `--step-type CLICK --description "the Menu button in the `+name+` row"`)
	if !out.OK {
		return res, fmt.Errorf("open the renamed row's menu: %s", out.Result)
	}
	res.Steps = append(res.Steps, out.Command)
	res.Success, res.Message = true, "renamed"
	return res, nil
}

// TestUniqueValuesAreSlots: a unique value the agent read off the screen
// and used literally is recorded as the variable (in its plain, URL and
// slug spellings), so the next run's fresh value replays through the same
// trajectory without the model.
func TestUniqueValuesAreSlots(t *testing.T) {
	e := newEnv(t)
	actor := &renamingActor{}
	e.actor, e.heal = actor, HealOff
	const test = `name: rename
url: /users
steps:
  - act: rename Alice to {{ unique "user-" }} and open that row's menu
  - expect: { visible: the Archive menu item }
`
	if rep := e.run("", test); !rep.Passed() || actor.calls != 1 {
		t.Fatalf("record (%d calls):\n%s", actor.calls, e.out.String())
	}
	tr, err := e.db.Trajectory(context.Background(), e.key("rename", `rename Alice to {{ unique "user-" }} and open that row's menu`, "", `{{ unique "user-" }}`))
	if err != nil || tr == nil {
		t.Fatalf("trajectory: %+v %v", tr, err)
	}
	last := tr.Steps[len(tr.Steps)-1]
	if !strings.Contains(last, `the Menu button in the {{ unique \"user-\" }} row`) {
		t.Errorf("the value read off the screen was recorded literally: %s", last)
	}
	for _, a := range tr.Evidence.Appeared {
		if strings.Contains(a, "user-") && !strings.Contains(a, `{{ unique "user-" }}`) {
			t.Errorf("evidence holds a literal unique value: %q", a)
		}
	}
	rep := e.run("", test)
	if !rep.Passed() || actor.calls != 1 || rep.Tests[0].Steps[0].Status != session.StatusHit {
		t.Fatalf("replay with a fresh value (%d calls):\n%s", actor.calls, e.out.String())
	}
}

// TestValuesReadOffTheScreenAreGaps: the agent typed a product name it read
// on the page; replay reads the name again from the same heading, so a run
// on another product replays the trajectory (and its evidence) without the
// model.
func TestValuesReadOffTheScreenAreGaps(t *testing.T) {
	e := newEnv(t)
	actor := &readingActor{commands: []string{
		`--step-type NAVIGATE --value "/search"`,
		`--step-type TYPE --description "the Search products box" --value "%s"`,
		`--step-type CLICK --description "the Search button"`,
	}}
	e.actor, e.heal = actor, HealOff
	const test = `name: search
url: /
steps:
  - navigate: /product?id={{ env.E2E_PRODUCT }}
  - act: search the shop for the product on this page
`
	e.vars["E2E_PRODUCT"] = "3" // Road Racer
	if rep := e.run("", test); !rep.Passed() || actor.calls != 1 {
		t.Fatalf("record (%d calls):\n%s", actor.calls, e.out.String())
	}
	tr, err := e.db.Trajectory(context.Background(), e.key("search", "search the shop for the product on this page", ""))
	if err != nil || tr == nil {
		t.Fatalf("trajectory: %+v %v", tr, err)
	}
	if len(tr.Gaps) != 1 || tr.Gaps[0].Value != "Road Racer" || tr.Gaps[0].Role != "heading" || tr.Gaps[0].At != 0 {
		t.Fatalf("gaps: %+v", tr.Gaps)
	}
	if !slices.Contains(tr.Evidence.Appeared, `link "Road Racer"`) {
		t.Fatalf("the evidence does not hold the result: %+v", tr.Evidence)
	}
	e.vars["E2E_PRODUCT"] = "8" // Headlamp 400
	rep := e.run("", test)
	if !rep.Passed() || actor.calls != 1 || rep.Tests[0].Steps[1].Status != session.StatusHit {
		t.Fatalf("replay on another product (%d calls):\n%s", actor.calls, e.out.String())
	}
}

// TestActIsToldOfDialogs: a dialog the agent's click opens is answered, and
// the step's result tells the agent what it said.
func TestActIsToldOfDialogs(t *testing.T) {
	e := newEnv(t)
	actor := &scriptedActor{commands: []string{`--step-type CLICK --description "the Delete the draft button"`}}
	e.actor = actor
	rep := e.run("", `name: act dialog
url: /dialogs
steps:
  - act: delete the draft
  - expect: { text: { in: the status, is: Draft deleted } }
`)
	if !rep.Passed() {
		t.Fatalf("the run failed:\n%s", e.out.String())
	}
	if out := actor.outcomes[0]; !out.OK || !strings.Contains(out.Result, `the page opened a confirm dialog "Delete the draft?", answered OK`) {
		t.Errorf("the agent was not told of the dialog: %+v", out)
	}
}

// readingActor reads the page's main heading, as a model reads a product
// name, and runs its commands with %s standing for it.
type readingActor struct {
	commands []string
	calls    int
}

func (a *readingActor) Act(ctx context.Context, goal, _ string, env session.ActEnv) (session.ActResult, error) {
	a.calls++
	res := session.ActResult{ModelCalls: 1, Postcondition: "the search lists the product"}
	snap, err := env.Snapshot(ctx)
	if err != nil {
		return res, err
	}
	name := ""
	snap.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "heading" && n.States.Level == 1 {
			name = n.Name
		}
		return name == ""
	})
	for _, c := range a.commands {
		c = strings.ReplaceAll(c, "%s", name)
		out := env.Execute(ctx, c)
		if !out.OK {
			return res, fmt.Errorf("%s: %s", c, out.Result)
		}
		res.Steps = append(res.Steps, out.Command)
	}
	res.Success, res.Message = true, "searched for "+name
	return res, nil
}

// TestHealsKeepGaps: a heal whose new steps type a value read off the
// screen records where it came from, so the staged heal replays on another
// product with that product's name, and accepting it keeps the gap.
func TestHealsKeepGaps(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 1500 * time.Millisecond
	const test = `name: search this product
url: /product?id={{ env.E2E_PRODUCT }}
steps:
  - act: search the shop for the product on this page
  - expect: { visible: "the {{ env.E2E_NAME }} link" }
`
	search := []string{
		`--step-type TYPE --description "the Search products box" --value "%s"`,
		`--step-type CLICK --description "the Search button"`,
	}
	recorder := &readingActor{commands: append([]string{`--step-type CLICK --description "the Search link"`}, search...)}
	e.actor = recorder
	e.vars["E2E_PRODUCT"], e.vars["E2E_NAME"] = "3", "Road Racer"
	if rep := e.run("", test); !rep.Passed() || recorder.calls != 1 {
		t.Fatalf("record (%d calls):\n%s", recorder.calls, e.out.String())
	}
	// The newsletter popup covers the Search link: the heal closes it first.
	healer := &readingActor{commands: append([]string{`--step-type CLICK --description "the No thanks button"`, `--step-type CLICK --description "the Search link"`}, search...)}
	e.actor = healer
	if rep := e.run("popup", test); !rep.Passed() || healer.calls != 1 || !rep.Tests[0].Healed() {
		t.Fatalf("heal (%d calls):\n%s", healer.calls, e.out.String())
	}
	heals, err := e.db.Heals(context.Background(), "staged")
	if err != nil || len(heals) != 1 {
		t.Fatalf("heals: %+v %v", heals, err)
	}
	if g := heals[0].Gaps; len(g) != 1 || g[0].Value != "Road Racer" || g[0].Role != "heading" || g[0].At != 0 {
		t.Fatalf("the heal's gaps: %+v (steps %q)", g, heals[0].NewSteps)
	}
	// Another product, the popup again: the staged heal replays without
	// the model and types this product's name.
	e.vars["E2E_PRODUCT"], e.vars["E2E_NAME"] = "8", "Headlamp 400"
	rep := e.run("popup", test)
	if !rep.Passed() || healer.calls != 1 || rep.Tests[0].Steps[0].Status != session.StatusHit {
		t.Fatalf("replay of the staged heal on another product (%d calls):\n%s", healer.calls, e.out.String())
	}
	if _, err := e.db.DecideHeal(context.Background(), heals[0].ID, true, "reviewer"); err != nil {
		t.Fatal(err)
	}
	tr, err := e.db.Trajectory(context.Background(), e.key("search this product", "search the shop for the product on this page", ""))
	if err != nil || tr == nil || len(tr.Steps) != 4 || len(tr.Gaps) != 1 || tr.Gaps[0].Value != "Road Racer" {
		t.Fatalf("the accepted trajectory: %+v %v", tr, err)
	}
}

// TestHealOfAFailedTestIsNotCalledStaged: a heal is staged only when its
// test passes; a test that fails after its act healed says the heal was
// not kept, in its step line and its result, and stages nothing.
func TestHealOfAFailedTestIsNotCalledStaged(t *testing.T) {
	e := newEnv(t)
	e.actor = &healingActor{scripts: [][]string{
		{`--step-type CLICK --description "the Add to cart button"`},
		{`--step-type CLICK --description "the No thanks button"`, `--step-type CLICK --description "the Add to cart button"`},
	}}
	if rep := e.run("", actTest); !rep.Passed() {
		t.Fatalf("record:\n%s", e.out.String())
	}
	e.cfg.Timeouts.Step = 1500 * time.Millisecond
	failing := strings.Replace(actTest, `is: "Cart: 1 item"`, `is: "Cart: 7 items"`, 1)
	e.out.Reset()
	rep := e.run("popup", failing)
	if rep.Passed() {
		t.Fatalf("the test passed:\n%s", e.out.String())
	}
	if s := rep.Tests[0].Steps[0]; s.MissReason != "healed (not kept: the test failed)" || rep.Tests[0].Healed() {
		t.Errorf("the healed step reads %q", s.MissReason)
	}
	if out := e.out.String(); strings.Contains(out, "healed (staged)") || !strings.Contains(out, "healed (staged if the test passes)") {
		t.Errorf("the console claims a staged heal:\n%s", out)
	}
	if heals, err := e.db.Heals(context.Background(), ""); err != nil || len(heals) != 0 {
		t.Errorf("heals: %+v %v", heals, err)
	}
}
