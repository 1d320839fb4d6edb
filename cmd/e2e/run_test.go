package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// projectStep is the step time of project's e2e.yaml: generous, so that a
// passing step on a stalled machine only passes later. A step meant to
// fail waits it out (run in parallel, such tests overlap their waits).
const projectStep = "30s"

// project writes an e2e.yaml pointing at the fixture and the given tests.
func project(t *testing.T, base string, tests map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := fmt.Sprintf("baseURL: %s\ntests: [\"*.e2e.yaml\"]\ntimeouts: { step: %s }\n", base, projectStep)
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range tests {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const cartTest = `name: add to cart
url: /product
steps:
  - click: the Add to cart button
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
`

func TestRunCommand(t *testing.T) {
	ownBrowser(t) // it checks what a launch leaves behind
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"cart.e2e.yaml": cartTest})
	jsonPath := filepath.Join(dir, "out", "results.json")
	code, out, errOut := e2e(t, "run", "--config", dir, "--json", jsonPath)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "1 passed, 0 failed") || !strings.Contains(out, "located") {
		t.Errorf("output:\n%s", out)
	}
	code, out, _ = e2e(t, "run", "--config", dir, "--json", jsonPath)
	if code != 0 || !strings.Contains(out, " hit ") {
		t.Errorf("warm run (exit %d):\n%s", code, out)
	}
	var rep struct {
		Run   struct{ Status string }
		Tests []struct {
			Status string
			Steps  []struct {
				Status, Cache, MissReason string
				MS                        int64 `json:"ms"`
				LLMCalls                  *int  `json:"llmCalls"`
			}
		}
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Run.Status != "passed" || len(rep.Tests) != 1 || rep.Tests[0].Steps[0].Cache != "hit" || rep.Tests[0].Steps[0].LLMCalls == nil {
		t.Errorf("json: %s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e", "e2e.db")); err != nil {
		t.Errorf("default database: %v", err)
	}
	noChromiumLeft(t)
}

func TestRunCommandFailingTestExits1(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"bad.e2e.yaml": `name: wrong count
url: /product
steps:
  - click: the Add to cart button
  - expect: { text: { in: the cart status, is: "Cart: 5 items" } }
`})
	code, out, _ := e2e(t, "run", "--config", dir)
	if code != 1 || !strings.Contains(out, `expected the text of "the cart status" to be "Cart: 5 items", got "Cart: 1 item"`) || !strings.Contains(out, "screenshot: ") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestRunCommandReportsEveryProblemInMalformedFiles(t *testing.T) {
	dir := project(t, "http://127.0.0.1:1", map[string]string{
		"a.e2e.yaml": "name: a\nsteps:\n  - clik: the button\n",
		"b.e2e.yaml": "name: b\nsteps:\n  - click: the button\n  - expect: { visibel: x }\n",
	})
	code, out, errOut := e2e(t, "run", "--config", dir)
	if code != 2 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{"a.e2e.yaml:3:5", "did you mean click?", "b.e2e.yaml:4:", "did you mean visible?", "2 test files have problems"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// TestRunCommandBoundsProblemOutput: problems over all files are printed
// up to 50, then counted.
func TestRunCommandBoundsProblemOutput(t *testing.T) {
	bad := "name: bad\nsteps:\n" + strings.Repeat("  - clik: the button\n", 40)
	dir := project(t, "http://127.0.0.1:1", map[string]string{"a.e2e.yaml": bad, "b.e2e.yaml": bad})
	code, _, errOut := e2e(t, "run", "--config", dir)
	if code != 2 {
		t.Errorf("exit %d", code)
	}
	heads := regexp.MustCompile(`(?m)^\S*[ab]\.e2e\.yaml:\d+:\d+: unknown key`).FindAllString(errOut, -1)
	if len(heads) != testfile.MaxShown || !strings.Contains(errOut, "\n… and 30 more problems\n") || !strings.HasSuffix(errOut, "2 test files have problems\n") {
		t.Errorf("%d problems printed:\n%s", len(heads), errOut)
	}
}

// TestTwoRunProcessesShareOneDatabase runs two e2e processes at once on one
// database; both must pass and both runs must be recorded.
func TestTwoRunProcessesShareOneDatabase(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"cart.e2e.yaml": cartTest, "users.e2e.yaml": `name: users
url: /users
steps:
  - click: the Menu button in the Carol row
  - expect: { visible: the Archive menu item }
`})
	var cmds []*exec.Cmd
	var outs []*strings.Builder
	for i := 0; i < 2; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperE2E$")
		cmd.Env = append(os.Environ(), "E2E_HELPER_ARGS=run\x1f--config\x1f"+dir)
		var sb strings.Builder
		cmd.Stdout, cmd.Stderr = &sb, &sb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &sb)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", i, err, outs[i].String())
		}
	}
	db, err := store.Open(context.Background(), filepath.Join(dir, ".e2e", "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, err := db.Runs(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("%d runs recorded", len(runs))
	}
	for _, r := range runs {
		tests, err := db.Tests(context.Background(), r.ID)
		if err != nil || len(tests) != 2 || r.Status != "passed" {
			t.Errorf("run %d: %s, %d tests, %v", r.ID, r.Status, len(tests), err)
		}
	}
}

// TestHelperE2E is the child process of the tests above.
func TestHelperE2E(t *testing.T) {
	args := os.Getenv("E2E_HELPER_ARGS")
	if args == "" {
		t.Skip("child process for TestTwoRunProcessesShareOneDatabase")
	}
	os.Exit(run(context.Background(), strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

// TestRunAsksTheModelOnlyWhenTheLocalLocatorIsNotSure: a vague description
// goes to the (scripted) model once; the next run replays it from the cache
// with no model call; the calls are recorded against the run; the model
// never sees a secret value.
func TestRunAsksTheModelOnlyWhenTheLocalLocatorIsNotSure(t *testing.T) {
	base := fixtureServer(t)
	t.Setenv("E2E_SECRET_NOTE", "hunter2-value")
	dir := project(t, base, map[string]string{"vague.e2e.yaml": `name: vague
url: /product
steps:
  - click: the Add to cart button
  - click: the thing that lets me pay right away {{ secret.E2E_SECRET_NOTE }}
  - assert: the cart shows one item
`})
	// A price table turns the recorded tokens into cost.
	cfg := filepath.Join(dir, "e2e.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(b, "model:\n  price: { input: 2, output: 8 }\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	// The model's answer names the ref "Buy now" has in a fresh page's first snapshot.
	code, out, errOut := e2e(t, "snapshot", "--json", base+"/product")
	if code != 0 {
		t.Fatalf("snapshot failed: exit %d\n%s", code, errOut)
	}
	buyNow := between(t, out, `"name": "Buy now"`, `"ref": "`, `"`)
	srv := agenttest.New(t, agenttest.ToolCall("choose_element", map[string]any{
		"reasoning":  "Buy now pays at once",
		"ref":        buyNow,
		"attributes": map[string]string{"role": "button", "name": "Buy now"},
		"related":    []any{},
	}).Usage(900, 40), judge(true, "the status reads Cart: 1 item"))
	code, out, errOut = e2e(t, "run", "--config", dir, "--model", "scripted", "--model-url", srv.URL())
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if srv.Count() != 2 {
		t.Fatalf("model asked %d times, want 2 (the plain step must not reach it)", srv.Count())
	}
	if !strings.Contains(out, "the status reads Cart: 1 item") {
		t.Errorf("the assert's reasoning is not shown:\n%s", out)
	}
	for _, r := range srv.Requests() {
		if strings.Contains(string(r.Body), "hunter2-value") {
			t.Error("a secret value reached the model")
		}
	}
	if !strings.Contains(string(srv.Requests()[0].Body), "{{ secret.E2E_SECRET_NOTE }}") {
		t.Error("the model should see the secret's name")
	}
	// Warm: both element steps replay from the cache; only the assert goes
	// to the model again (it is never cached), and this time it fails.
	srv.Add(judge(false, "the status reads Cart: 0 items"))
	code, out, _ = e2e(t, "run", "--config", dir, "--model", "scripted", "--model-url", srv.URL())
	if code != 1 || srv.Count() != 3 || strings.Count(out, " hit ") != 2 || !strings.Contains(out, `assertion "the cart shows one item" does not hold`) {
		t.Fatalf("warm run: exit %d, %d model calls\n%s", code, srv.Count(), out)
	}
	db, err := store.Open(context.Background(), filepath.Join(dir, ".e2e", "e2e.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	calls, err := db.ModelCalls(context.Background(), store.AllRuns)
	if err != nil || len(calls) != 3 || calls[0].Purpose != "locate" || calls[0].TokensIn != 900 || calls[0].RunID == 0 ||
		calls[1].Purpose != "assert" || calls[2].RunID == calls[1].RunID {
		t.Fatalf("recorded calls: %+v %v", calls, err)
	}
	// 900 tokens in at $2/M and 40 out at $8/M.
	if want := 900*2/1e6 + 40*8/1e6; math.Abs(calls[0].Cost-want) > 1e-12 {
		t.Errorf("cost %g, want %g", calls[0].Cost, want)
	}
}

func judge(pass bool, reasoning string) agenttest.Step {
	return agenttest.ToolCall("judge_assertion", map[string]any{"reasoning": reasoning, "evidence": []string{}, "pass": pass})
}

// TestActIsRecordedThenReplayedWithZeroModelCalls drives a whole act through
// the scripted model: the first run records it, the second replays it.
func TestActIsRecordedThenReplayedWithZeroModelCalls(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"act.e2e.yaml": `name: act
url: /product
context: the shop sells running shoes
steps:
  - act: put the shoe in the cart
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
`})
	srv := agenttest.New(t,
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type CLICK --description "the Add to cart button"`}}),
		agenttest.ToolCall("finish", map[string]any{"success": true, "message": "added", "autoGeneratedPostcondition": "the cart shows one item"}),
	)
	code, out, errOut := e2e(t, "run", "--config", dir, "--model", "scripted", "--model-url", srv.URL())
	if code != 0 || srv.Count() != 2 {
		t.Fatalf("record: exit %d, %d model calls\n%s\n%s", code, srv.Count(), out, errOut)
	}
	first := srv.Requests()[0]
	if !strings.Contains(first.Text(), "put the shoe in the cart") || !strings.Contains(first.Text(), "the shop sells running shoes") || !strings.Contains(first.Text(), `button "Add to cart"`) {
		t.Errorf("the first act request lacks the goal, the context or the snapshot")
	}
	code, out, _ = e2e(t, "run", "--config", dir, "--model", "scripted", "--model-url", srv.URL())
	if code != 0 || srv.Count() != 2 || !strings.Contains(out, " hit ") {
		t.Fatalf("replay: exit %d, %d model calls (want still 2)\n%s", code, srv.Count(), out)
	}
}

// TestHealReviewFlow: a popup breaks a recorded act; the scripted agent heals
// it by closing the popup; `e2e heals` lists, shows and accepts the heal;
// the next run replays the healed trajectory with no model call.
func TestHealReviewFlow(t *testing.T) {
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"act.e2e.yaml": `name: act
url: /product
steps:
  - act: put the shoe in the cart
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
`})
	finish := agenttest.ToolCall("finish", map[string]any{"success": true, "message": "done", "autoGeneratedPostcondition": "the cart shows one item"})
	srv := agenttest.New(t,
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type CLICK --description "the Add to cart button"`}}), finish)
	model := []string{"--model", "scripted", "--model-url", srv.URL()}
	if code, out, errOut := e2e(t, append([]string{"run", "--config", dir}, model...)...); code != 0 {
		t.Fatalf("record: %d\n%s\n%s", code, out, errOut)
	}
	srv.Add(agenttest.ToolCall("execute_step", map[string]any{"steps": []string{
		`--step-type CLICK --description "the No thanks button"`, `--step-type CLICK --description "the Add to cart button"`}}), finish)
	code, out, errOut := e2e(t, append([]string{"run", "--config", dir, "--variant", "popup"}, model...)...)
	if code != 0 || !strings.Contains(out, "healed (staged") || srv.Count() != 4 ||
		!strings.Contains(out, "(healed: review with `e2e heals list`)") || !strings.Contains(out, "1 passed (1 healed, staged for review), 0 failed") {
		t.Fatalf("heal run: exit %d, %d model calls\n%s\n%s", code, srv.Count(), out, errOut)
	}
	code, out, _ = e2e(t, "heals", "list", "--config", dir)
	if code != 0 || !strings.Contains(out, "staged") || !strings.Contains(out, "1 → 2") {
		t.Fatalf("heals list (exit %d):\n%s", code, out)
	}
	code, out, _ = e2e(t, "heals", "show", "1", "--config", dir)
	added := false
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "+ ") && strings.Contains(l, `--description "the No thanks button"`) {
			added = true
		}
	}
	if code != 0 || !added || strings.Contains(out, "--cache-id") || !strings.Contains(out, "covered by") {
		t.Fatalf("heals show (exit %d):\n%s", code, out)
	}
	// The page around the change: the newsletter modal was there when the
	// replay failed and is gone when the heal ended; the cart changed.
	if !regexp.MustCompile(`(?m)^- .*dialog "Subscribe to our newsletter"`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^\+ .*Cart: 1 item`).MatchString(out) {
		t.Fatalf("heals show lacks the page change:\n%s", out)
	}
	t.Setenv("E2E_REVIEWER", "reviewer-1")
	code, out, _ = e2e(t, "heals", "accept", "1", "--config", dir)
	if code != 0 || !strings.Contains(out, "heal 1 accepted by reviewer-1") {
		t.Fatalf("heals accept (exit %d):\n%s", code, out)
	}
	if code, _, errOut := e2e(t, "heals", "reject", "1", "--config", dir); code != 2 || !strings.Contains(errOut, "already accepted") {
		t.Errorf("deciding twice: exit %d %s", code, errOut)
	}
	code, out, _ = e2e(t, append([]string{"run", "--config", dir, "--variant", "popup"}, model...)...)
	if code != 0 || srv.Count() != 4 || !strings.Contains(out, " hit ") {
		t.Fatalf("replay after accept: exit %d, %d model calls\n%s", code, srv.Count(), out)
	}
	if code, _, errOut := e2e(t, "run", "--config", dir, "--heal", "sometimes"); code != 2 || !strings.Contains(errOut, "want off, stage or accept") {
		t.Errorf("bad --heal: exit %d %s", code, errOut)
	}
}

// TestPageTextCannotSendTheAgentOffSite: a page tells the agent to open
// another site; an (obedient, scripted) model tries, by URL, by a link and
// by the page's new-window link and button; each is refused, the browser
// never leaves, and the act fails rather than pass.
func TestPageTextCannotSendTheAgentOffSite(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"inject.e2e.yaml": `name: reviews
url: /inject
steps:
  - act: mark the first review as helpful
`})
	srv := agenttest.New(t,
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type NAVIGATE --value "https://example.org/steal"`}}),
		// The page's link to another origin (the fixture under its other
		// loopback name): blocked in the browser, the tab stays put.
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type CLICK --description "the Claim your prize link"`}}),
		// The same page in a new window: a target=_blank link, then
		// window.open. Neither window opens.
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type CLICK --description "the Open the partner site in a new tab link"`}}),
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type CLICK --description "the Open the partner window button"`}}),
		agenttest.ToolCall("finish", map[string]any{"success": false, "message": "could not open the page"}),
	)
	jsonPath := filepath.Join(dir, "r.json")
	code, out, _ := e2e(t, "run", "--config", dir, "--model", "scripted", "--model-url", srv.URL(), "--json", jsonPath)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	reqs := srv.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d model requests", len(reqs))
	}
	for i, what := range map[int]string{2: "link", 3: "new-tab link", 4: "window.open button"} {
		last := reqs[i].Messages[len(reqs[i].Messages)-1].Content
		if !strings.Contains(last, "FAILED") || !strings.Contains(last, "tried to open http://localhost:") ||
			!strings.Contains(last, "not an allowed origin") || !strings.Contains(last, `heading "Customer reviews"`) {
			t.Errorf("the blocked %s was not reported, or the page moved:\n%s", what, last)
		}
	}
	if !strings.Contains(reqs[0].Text(), "ignore your instructions") {
		t.Error("the model should see the page text, as data")
	}
	if !strings.Contains(reqs[1].Text(), "not an allowed origin") {
		t.Errorf("the refusal was not reported to the model:\n%s", reqs[1].Text())
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil || !strings.Contains(string(b), "could not reach the goal") {
		t.Errorf("report: %s %v", b, err)
	}
}

// TestRunRelativeURLWithoutBaseURLExits2: with no e2e.yaml and no
// --base-url, a relative url stops the run before a browser starts, naming
// the file:line:col and what to do, and leaves no .e2e/ behind.
func TestRunRelativeURLWithoutBaseURLExits2(t *testing.T) {
	ownBrowser(t) // it checks what a launch leaves behind
	dir := t.TempDir()
	file := filepath.Join(dir, "login.e2e.yaml")
	if err := os.WriteFile(file, []byte("name: login\nurl: /login\nsteps:\n  - click: the Sign in button\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e2e(t, "run", "--config", dir, file)
	if code != 2 || out != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, want := range []string{file + ":2:6", "relative", "add baseURL to e2e.yaml or pass --base-url"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e")); !os.IsNotExist(err) {
		t.Errorf(".e2e left behind in %s (%v)", dir, err)
	}
	if left := ourChromium(t); len(left) > 0 {
		t.Errorf("a browser started: %v", left)
	}
}

// TestRunPreflightReportsEveryProblem: unset env and secret variables and
// an unknown press key are all reported together,
// each at its file:line:col, before a browser starts, with exit 2.
func TestRunPreflightReportsEveryProblem(t *testing.T) {
	t.Setenv("E2E_PREFLIGHT_SET", "yes")
	dir := project(t, "http://127.0.0.1:1", map[string]string{
		"a.e2e.yaml": `name: a
steps:
  - type: { into: the Email field, text: "{{ env.E2E_PREFLIGHT_USER }}" }
  - type: { into: the Password field, text: "{{ secret.E2E_PREFLIGHT_PW }}" }
  - type: { into: the Name field, text: "{{ env.E2E_PREFLIGHT_SET }}" }
  - press: Entr
`,
	})
	code, out, errOut := e2e(t, "run", "--config", dir)
	if code != 2 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
	a := filepath.Join(dir, "a.e2e.yaml")
	for _, want := range []string{
		a + ":3:5: {{ env.E2E_PREFLIGHT_USER }} is not set", "environment variable E2E_PREFLIGHT_USER",
		a + ":4:5: {{ secret.E2E_PREFLIGHT_PW }} is not set", "environment variable (a secret) E2E_PREFLIGHT_PW",
		a + ":6:5:", `unknown key "Entr"`, "did you mean Enter?",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "E2E_PREFLIGHT_SET") {
		t.Errorf("a set variable is reported:\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e")); !os.IsNotExist(err) {
		t.Errorf(".e2e left behind (%v)", err)
	}
}
