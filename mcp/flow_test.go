package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session/report"
)

const cartTestName = "add to cart"

// authorFlow is what a coding agent does through the server: open the
// product page, read it, preview three steps (one ambiguous), write the two
// that worked into a new test, and run it twice. It returns the test file.
func authorFlow(t *testing.T, cs *sdk.ClientSession, dir string, modelCalls func() int) string {
	t.Helper()
	var open sessionOpenOut
	ok(t, cs, "session_open", map[string]any{"url": "/product", "test": cartTestName}, &open)
	if open.Session == "" || !strings.Contains(open.Title, "Trail Runner 2") {
		t.Fatalf("session_open: %+v", open)
	}
	var snap snapshotOut
	ok(t, cs, "snapshot", map[string]any{"session": open.Session}, &snap)
	if !strings.Contains(snap.Outline, `button "Add to cart" [ref=`) || !strings.Contains(snap.Outline, "status: Cart: 0 items") {
		t.Fatalf("snapshot:\n%s", snap.Outline)
	}
	var small snapshotOut
	ok(t, cs, "snapshot", map[string]any{"session": open.Session, "maxChars": 100}, &small)
	if !small.Truncated || len([]rune(small.Outline)) > 200 {
		t.Errorf("maxChars 100: truncated %v, %d characters", small.Truncated, len(small.Outline))
	}
	var pv previewOut
	ok(t, cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		"click: the Add to cart button",
		"click: the button",
		`expect: { text: { in: the cart status, is: "Cart: 1 item" } }`,
	}}, &pv)
	if len(pv.Steps) != 3 {
		t.Fatalf("preview: %+v", pv)
	}
	add, amb, exp := pv.Steps[0], pv.Steps[1], pv.Steps[2]
	if add.ID != "p1" || add.Status == "failed" || add.Element == nil || add.Element.Role != "button" || add.Element.Name != "Add to cart" ||
		len(add.CacheKeys) != 1 || !hasLine(add.PageChange, "+", "Cart: 1 item") {
		t.Errorf("the Add to cart step: %+v", add)
	}
	if amb.ID != "" || amb.Status != "failed" || amb.Reason != "ambiguous" || len(amb.Candidates) < 2 || !strings.Contains(amb.Error, "several elements") {
		t.Errorf("the ambiguous step: %+v", amb)
	}
	var names []string
	for _, c := range amb.Candidates {
		names = append(names, c.Line)
	}
	if j := strings.Join(names, "\n"); !strings.Contains(j, `"Buy now"`) || !strings.Contains(j, `"Compare"`) {
		t.Errorf("candidates: %s", j)
	}
	if exp.ID != "p2" || exp.Status == "failed" || len(exp.CacheKeys) != 1 {
		t.Errorf("the expect step: %+v", exp)
	}
	// Only steps that passed may be written; the ambiguous one has no id.
	fails(t, cs, "write_test", map[string]any{"session": open.Session, "path": "tests/cart.e2e.yaml", "steps": []string{"p1", "p3"}}, `step "p3" was not previewed successfully`)
	if _, err := os.Stat(filepath.Join(dir, "tests", "cart.e2e.yaml")); !os.IsNotExist(err) {
		t.Fatalf("a refused write left a file: %v", err)
	}
	var w writeTestOut
	ok(t, cs, "write_test", map[string]any{"session": open.Session, "path": "tests/cart.e2e.yaml", "steps": []string{"p1", "p2"}}, &w)
	if !w.Created || w.Steps != 2 || w.Path != "tests/cart.e2e.yaml" {
		t.Errorf("write_test: %+v", w)
	}
	file := filepath.Join(dir, "tests", "cart.e2e.yaml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "name: \"add to cart\"\nurl: \"/product\"\nsteps:\n  - click: the Add to cart button\n  - expect: { text: { in: the cart status, is: \"Cart: 1 item\" } }\n"
	if string(src) != want {
		t.Errorf("the test file:\n%s\nwant:\n%s", src, want)
	}
	ok(t, cs, "session_close", map[string]any{"session": open.Session}, nil)
	fails(t, cs, "snapshot", map[string]any{"session": open.Session}, "no open session")

	calls := modelCalls()
	for run := 1; run <= 2; run++ {
		var rep report.JSON
		ok(t, cs, "run_tests", map[string]any{"paths": []string{"tests/cart.e2e.yaml"}}, &rep)
		if rep.Run.Status != "passed" || len(rep.Tests) != 1 || len(rep.Tests[0].Steps) != 2 {
			t.Fatalf("run %d: %+v", run, rep)
		}
		// The rows the preview wrote are the ones the run reads: every step
		// replays from the cache, with no model call.
		for _, st := range rep.Tests[0].Steps {
			if st.Status != "hit" || st.Cache != "hit" || st.LLMCalls != 0 {
				t.Errorf("run %d step %d: %s, cache %s (%s), %d model calls", run, st.Index, st.Status, st.Cache, st.MissReason, st.LLMCalls)
			}
		}
		if rep.Summary.ModelCalls != 0 || modelCalls() != calls {
			t.Errorf("run %d: %d model calls", run, rep.Summary.ModelCalls)
		}
	}
	return file
}

func hasLine(lines []string, prefix, sub string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) && strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

const actTest = `name: act
url: /product
steps:
  - act: put the shoe in the cart
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
`

// scriptedHeal scripts the model to record the act and, next, to heal it
// through the newsletter popup.
func scriptedHeal(t *testing.T) *agenttest.Server {
	finish := agenttest.ToolCall("finish", map[string]any{"success": true, "message": "done", "autoGeneratedPostcondition": "the cart shows one item"})
	return agenttest.New(t,
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type CLICK --description "the Add to cart button"`}}), finish,
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{
			`--step-type CLICK --description "the No thanks button"`, `--step-type CLICK --description "the Add to cart button"`}}), finish)
}

// healFlow records the act, stages a heal through the popup variant, and
// shows it; it returns the heal's id.
func healFlow(t *testing.T, cs *sdk.ClientSession) int64 {
	t.Helper()
	var rep report.JSON
	ok(t, cs, "run_tests", map[string]any{"paths": []string{"act.e2e.yaml"}}, &rep)
	if rep.Run.Status != "passed" {
		t.Fatalf("record the act: %+v", rep)
	}
	ok(t, cs, "run_tests", map[string]any{"grep": "^act$", "variant": "popup"}, &rep)
	if rep.Run.Status != "passed" || len(rep.Tests) != 1 || !rep.Tests[0].Healed || len(rep.Tests[0].Heals) != 1 {
		t.Fatalf("heal run: %+v", rep)
	}
	var list struct{ Heals []healSummary }
	ok(t, cs, "heals_list", map[string]any{}, &list)
	if len(list.Heals) != 1 || list.Heals[0].Status != "staged" || list.Heals[0].Old != 1 || list.Heals[0].New != 2 {
		t.Fatalf("heals_list: %+v", list)
	}
	id := list.Heals[0].ID
	var show healShowOut
	ok(t, cs, "heals_show", map[string]any{"id": id}, &show)
	if !hasLine(show.Diff, "+ ", "the No thanks button") || !hasLine(show.PageChange, "- ", `dialog "Subscribe to our newsletter"`) {
		t.Fatalf("heals_show: %+v", show)
	}
	return id
}

// TestMCPInMemory drives the server with the SDK's client in memory: a
// test authored, written and replayed with no model call; a heal staged and
// refused review without --allow-review, accepted with it.
func TestMCPInMemory(t *testing.T) {
	model := scriptedHeal(t)
	h := newHarness(t, harnessOptions{model: model, files: map[string]string{"act.e2e.yaml": actTest}})
	authorFlow(t, h.cs, h.dir, model.Count)
	id := healFlow(t, h.cs)
	fails(t, h.cs, "heals_accept", map[string]any{"id": id, "reviewer": "ada"}, "started without --allow-review")
	fails(t, h.cs, "heals_reject", map[string]any{"id": id, "reviewer": "ada"}, "started without --allow-review")

	// A server started with --allow-review over the same project.
	rv, err := New(Options{Config: h.s.o.Config, Store: h.db, Redactor: h.red, AllowReview: true, Launch: h.s.o.Launch})
	if err != nil {
		t.Fatal(err)
	}
	defer rv.Close()
	h2 := &harness{t: t, s: rv}
	cs := h2.connect(context.Background(), nil)
	defer cs.Close()
	fails(t, cs, "heals_accept", map[string]any{"id": id, "reviewer": " "}, "reviewer")
	var d healDecideOut
	ok(t, cs, "heals_accept", map[string]any{"id": id, "reviewer": "ada"}, &d)
	if d.Status != "accepted" || d.DecidedBy != "mcp:ada" {
		t.Errorf("heals_accept: %+v", d)
	}
	fails(t, cs, "heals_reject", map[string]any{"id": id, "reviewer": "ada"}, "already accepted")
	// The accepted heal replays: no model call.
	n := model.Count()
	var rep report.JSON
	ok(t, h.cs, "run_tests", map[string]any{"paths": []string{"act.e2e.yaml"}, "variant": "popup"}, &rep)
	if rep.Run.Status != "passed" || model.Count() != n {
		t.Errorf("replay after accept: %s, %d model calls", rep.Run.Status, model.Count()-n)
	}
	// The last report and the test files are resources.
	ctx := context.Background()
	res, err := h.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "e2e://report/last"})
	if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, `"name": "act"`) {
		t.Errorf("report resource: %v %+v", err, res)
	}
	res, err = h.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "e2e://tests/tests/cart.e2e.yaml"})
	if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "click: the Add to cart button") {
		t.Errorf("test resource: %v %+v", err, res)
	}
	if _, err := h.cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: "e2e://tests/../../etc/passwd.e2e.yaml"}); err == nil {
		t.Error("a resource outside the project was read")
	}
}

// TestMCPRunTestsProgress: run_tests tells a client that asks how far it is
// after each test.
func TestMCPRunTestsProgress(t *testing.T) {
	h := newHarness(t, harnessOptions{files: map[string]string{
		"a.e2e.yaml": "name: a\nurl: /product\nsteps:\n  - click: the Add to cart button\n",
		"b.e2e.yaml": "name: b\nurl: /product\nsteps:\n  - click: the Buy now button\n",
	}})
	var mu sync.Mutex
	var got []string
	cs := h.connect(context.Background(), &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		mu.Lock()
		got = append(got, r.Params.Message)
		mu.Unlock()
	}})
	defer cs.Close()
	p := &sdk.CallToolParams{Name: "run_tests", Arguments: map[string]any{}}
	p.SetProgressToken("run-1")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, p)
	if err != nil || res.IsError {
		t.Fatalf("run_tests: %v %+v", err, res)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || !strings.Contains(strings.Join(got, ";"), "a: passed") || !strings.Contains(strings.Join(got, ";"), "b: passed") {
		t.Errorf("progress: %q", got)
	}
}

// TestMCPListsFlows: e2e://flows lists each flow with its params and file,
// and a flow file's problems at their file:line:col.
func TestMCPListsFlows(t *testing.T) {
	h := newHarness(t, harnessOptions{files: map[string]string{
		"flows/sign-in.flow.yaml": "name: sign in\nparams: [user, password]\nsteps:\n  - click: the Sign in button\n",
		"flows/broken.flow.yaml":  "name: broken\nsteps:\n  - click: \"the {{ who }} button\"\n",
	}})
	res, err := h.cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "e2e://flows"})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("flows resource: %v %+v", err, res)
	}
	text := res.Contents[0].Text
	for _, want := range []string{"sign in (user, password): flows/sign-in.flow.yaml\n", `broken.flow.yaml:3:17: unknown parameter "who"`} {
		if !strings.Contains(text, want) {
			t.Errorf("e2e://flows lacks %q:\n%s", want, text)
		}
	}
}
