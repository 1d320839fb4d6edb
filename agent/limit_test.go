package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session/ax"
)

// An answer longer than MaxReplyBytes is a failed attempt, retried, and it
// is cut off: the client reads neither a streamed one (no Content-Length)
// nor an announced one whole.
func TestReplyOverLimitIsCutOffAndRetried(t *testing.T) {
	const huge = 64 << 20
	h := newHarness(t, func(c *agent.Config) { c.MaxReplyBytes = 64 << 10 },
		agenttest.Huge(huge).NoContentLength(),
		agenttest.Huge(huge),
		agenttest.Text("ok").Usage(10, 2))
	r, err := h.c.Complete(context.Background(), ask("locate"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Content != "ok" || r.Attempts != 3 {
		t.Errorf("got %d bytes after %d attempts, want \"ok\" after 3", len(r.Content), r.Attempts)
	}
	// What the server managed to write is the cap plus the socket's
	// buffers, far from the 128 MiB it meant to send.
	if w := h.srv.Written(); w > 24<<20 {
		t.Errorf("the server wrote %d bytes of the huge answers: the client read them", w)
	}
	if c := oneCall(t, h.rec); c.Outcome != "ok" || c.Attempts != 3 {
		t.Errorf("recorded %+v", c)
	}
}

func TestReplyOverLimitEveryTimeFailsClearly(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.MaxReplyBytes = 64 << 10; c.MaxRetries = 1 },
		agenttest.Huge(1<<20).NoContentLength(), agenttest.Huge(1<<20))
	_, err := h.c.Complete(context.Background(), ask("act"))
	var ce *agent.CallError
	if !errors.As(err, &ce) || !errors.Is(err, agent.ErrBadResponse) || ce.Attempts != 2 {
		t.Fatalf("err %v", err)
	}
	for _, want := range []string{"model sent an answer too large to read after 2 attempts", "the answer has 1.0 MiB, over the limit of 64 KiB"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if c := oneCall(t, h.rec); c.Outcome != "bad-response" {
		t.Errorf("recorded %+v", c)
	}
}

// A trickling answer is cut off at the cap as well: the client does not
// wait for the rest of it.
func TestTricklingReplyIsCutOffAtTheLimit(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.MaxReplyBytes = 16 << 10; c.MaxRetries = -1 },
		agenttest.Step{Content: agenttest.FillMarker, Fill: 4 << 20, Chunk: 4 << 10, Trickle: time.Millisecond, NoLength: true})
	_, err := h.c.Complete(context.Background(), ask("assert"))
	if !errors.Is(err, agent.ErrBadResponse) || !strings.Contains(err.Error(), "longer than the limit of 16 KiB") {
		t.Fatalf("err %v", err)
	}
	if w := h.srv.Written(); w > 1<<20 {
		t.Errorf("the server trickled %d bytes: the client kept reading past the cap", w)
	}
}

// The default cap takes a 1 MiB answer and refuses a 3 MiB one.
func TestDefaultReplyLimit(t *testing.T) {
	h := newHarness(t, nil, agenttest.Huge(1<<20), agenttest.Huge(3<<20), agenttest.Garbage(100), agenttest.Text("ok"))
	r, err := h.c.Complete(context.Background(), ask("act"))
	if err != nil || len(r.Content) != 1<<20 {
		t.Fatalf("1 MiB answer: %v", err)
	}
	r, err = h.c.Complete(context.Background(), ask("act"))
	if err != nil || r.Content != "ok" || r.Attempts != 3 {
		t.Fatalf("after a 3 MiB answer and garbage: %v", err)
	}
}

// The client counts the tokens it sends and receives, so that a server
// reporting no usage is still counted.
func TestCountedTokens(t *testing.T) {
	h := newHarness(t, nil, agenttest.Huge(8000), agenttest.Text("hi").Usage(50_000, 7))
	req := ask("act")
	req.Messages[1].Content = strings.Repeat("word ", 8000) // 40,000 bytes
	r, err := h.c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Usage != (agent.Usage{}) || r.Counted.In < 10_000 || r.Counted.In > 11_000 || r.Counted.Out < 2000 || r.Counted.Out > 2100 {
		t.Errorf("usage %+v, counted %+v; want none reported, about 10,000 in and 2,000 out counted", r.Usage, r.Counted)
	}
	if r.Tokens() != r.Counted.In+r.Counted.Out {
		t.Errorf("tokens %d", r.Tokens())
	}
	// A server that reports more than the estimate is believed.
	r, err = h.c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Tokens() != 50_007 || r.Counted.Out != 1 {
		t.Errorf("tokens %d, usage %+v, counted %+v", r.Tokens(), r.Usage, r.Counted)
	}
}

// A 512 KiB finish message and postcondition are kept cut, with a marker.
func TestActFinishTextsAreCut(t *testing.T) {
	env := &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
	h := newHarness(t, nil, finish(true, agenttest.FillMarker, "the page shows "+agenttest.FillMarker).Filled(512<<10))
	res, err := (&agent.Actor{Client: h.c}).Act(context.Background(), "sign in", "", env)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Message) > agent.MaxFinishMessage+40 || !strings.HasSuffix(res.Message, "more bytes cut]") {
		t.Errorf("message of %d bytes ending %q", len(res.Message), res.Message[max(0, len(res.Message)-40):])
	}
	if len(res.Postcondition) > agent.MaxPostcondition+40 || !strings.HasPrefix(res.Postcondition, "the page shows xxx") || !strings.HasSuffix(res.Postcondition, "more bytes cut]") {
		t.Errorf("postcondition of %d bytes", len(res.Postcondition))
	}
}

// A 10 MiB finish is never read: the act fails with the client's error.
func TestActTenMegabyteFinishIsRefused(t *testing.T) {
	env := &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
	big := finish(true, agenttest.FillMarker, "done").Filled(10 << 20)
	h := newHarness(t, func(c *agent.Config) { c.MaxRetries = 1 }, big, big)
	res, err := (&agent.Actor{Client: h.c}).Act(context.Background(), "sign in", "", env)
	if !errors.Is(err, agent.ErrBadResponse) || !strings.Contains(err.Error(), "act with the model: model sent an answer too large to read after 2 attempts") {
		t.Fatalf("err %v", err)
	}
	if res.Message != "" || res.Success {
		t.Errorf("result %+v", res)
	}
}

// Answers of 1 MiB, text and arguments, do not make the conversation
// grow: what is kept of each is capped, and every request stays small.
func TestActConversationStaysBounded(t *testing.T) {
	env := &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login"), fixture(t, "users")}}
	round := agenttest.Step{Content: agenttest.FillMarker, Calls: []agenttest.Call{{Name: agent.ExecuteStep,
		Arguments: `{"steps": ["--step-type CLICK --description \"the Email field\""], "pad": "` + agenttest.FillMarker + `"}`}}, Fill: 512 << 10}
	steps := []agenttest.Step{}
	for range 6 {
		steps = append(steps, round)
	}
	h := newHarness(t, nil, append(steps, finish(true, "ok", "done"))...)
	// Each answer costs about 260,000 tokens out, counted by the client.
	res, err := (&agent.Actor{Client: h.c, Budget: agent.Budget{MaxTokens: 10_000_000}}).Act(context.Background(), "sign in", "", env)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 6 {
		t.Errorf("trajectory %q: the padded calls must still run", res.Steps)
	}
	reqs := h.srv.Requests()
	first := len(reqs[0].Body)
	for i, r := range reqs {
		// Each round keeps at most 16 KiB of text, 16 KiB of arguments and
		// a capped tool result.
		if limit := first + i*64<<10; len(r.Body) > limit {
			t.Errorf("request %d has %d bytes, over %d", i+1, len(r.Body), limit)
		}
	}
	last := reqs[len(reqs)-1]
	a := last.Messages[2]
	if a.Role != "assistant" || !strings.HasSuffix(a.Content, "more bytes cut]") || len(a.ToolCalls) != 1 || !strings.HasPrefix(a.ToolCalls[0].Arguments, `{"cut":"{\"steps\"`) {
		t.Errorf("kept assistant message: %d bytes of text, calls %d", len(a.Content), len(a.ToolCalls))
	}
}

// A server that reports no usage still spends the token budget: the
// client counts what it sends and what it receives.
func TestActZeroUsageStillSpendsTokens(t *testing.T) {
	received := func() agenttest.Step {
		s := execute(clickEmail).Usage(0, 0)
		s.Content, s.Fill = agenttest.FillMarker, 200_000 // about 50,000 tokens out
		return s
	}
	env := &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
	h := newHarness(t, nil, received())
	_, err := (&agent.Actor{Client: h.c, Budget: agent.Budget{MaxTokens: 40_000}}).Act(context.Background(), "sign in", "", env)
	if !errors.Is(err, agent.ErrBudget) || !strings.Contains(err.Error(), "act budget spent: 40000 tokens (used 5") {
		t.Fatalf("received: err %v", err)
	}

	env = &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
	h = newHarness(t, nil, execute(clickEmail).Usage(0, 0))
	_, err = (&agent.Actor{Client: h.c, Budget: agent.Budget{MaxTokens: 40_000}}).Act(context.Background(), "sign in", strings.Repeat("context ", 25_000), env)
	if !errors.Is(err, agent.ErrBudget) || !strings.Contains(err.Error(), "act budget spent: 40000 tokens (used 5") {
		t.Fatalf("sent: err %v", err)
	}
}

// When every answer of an act was malformed, the error says so, and each
// of those calls is recorded as a bad response.
func TestActAllAnswersMalformed(t *testing.T) {
	env := &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
	h := newHarness(t, nil,
		agenttest.ToolCall("click_element", map[string]any{"ref": "e3"}),
		agenttest.ToolCall(agent.ExecuteStep, `{"steps": ["--step-type CLICK`),
		agenttest.Text("I would click the button."),
		agenttest.ToolCall(agent.Finish, `{"message": "done"}`),
	)
	res, err := (&agent.Actor{Client: h.c, Budget: agent.Budget{MaxToolCalls: 4}}).Act(context.Background(), "sign in", "", env)
	if !errors.Is(err, agent.ErrBudget) || !errors.Is(err, agent.ErrBadResponse) {
		t.Fatalf("err %v", err)
	}
	want := `the model's 4 answers were malformed: there is no tool "click_element". The tools are execute_step, splice_generated_steps and finish; the last: finish needs success, true or false`
	if err.Error() != want {
		t.Errorf("err\n%s\nwant\n%s", err, want)
	}
	if res.ModelCalls != 4 {
		t.Errorf("result %+v", res)
	}
	var outcomes []string
	for _, c := range h.rec.Calls() {
		outcomes = append(outcomes, c.Outcome)
	}
	if strings.Join(outcomes, ",") != "bad-response,bad-response,bad-response,bad-response" {
		t.Errorf("outcomes %v", outcomes)
	}

	// One usable answer among them: the budget is what ran out.
	env = &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
	h = newHarness(t, nil,
		agenttest.ToolCall(agent.ExecuteStep, `{"steps": 3}`),
		execute(clickEmail),
		agenttest.ToolCall("nope", `{}`),
	)
	_, err = (&agent.Actor{Client: h.c, Budget: agent.Budget{MaxToolCalls: 3}}).Act(context.Background(), "sign in", "", env)
	if err == nil || err.Error() != "act budget spent: 3 tool calls" || errors.Is(err, agent.ErrBadResponse) {
		t.Fatalf("mixed: err %v", err)
	}
	outcomes = nil
	for _, c := range h.rec.Calls() {
		outcomes = append(outcomes, c.Outcome)
	}
	if strings.Join(outcomes, ",") != "bad-response,ok,bad-response" {
		t.Errorf("mixed: outcomes %v", outcomes)
	}
}

// A step command over MaxStepCommand, or more than MaxStepsPerCall steps,
// is refused, not run and not stored.
func TestActRefusesHugeStepCommands(t *testing.T) {
	env := &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
	long := `--step-type TYPE --description "the Email field" --value "` + strings.Repeat("a", 20_000) + `"`
	many := make([]string, 60)
	for i := range many {
		many[i] = clickEmail
	}
	h := newHarness(t, nil,
		execute(long),
		execute(many...),
		splice(0, 0, many...),
		finish(false, "gave up", ""))
	res, err := (&agent.Actor{Client: h.c}).Act(context.Background(), "sign in", "", env)
	if err != nil {
		t.Fatal(err)
	}
	if len(env.commands()) != 0 || len(res.Steps) != 0 {
		t.Errorf("ran %d commands, trajectory %d steps", len(env.commands()), len(res.Steps))
	}
	reqs := h.srv.Requests()
	checks := []struct {
		req  int
		want string
	}{
		{1, "over the limit of 8192"},
		{2, "execute_step takes at most 50 steps a call, not 60"},
		{3, "splice_generated_steps takes at most 50 steps a call, not 60"},
	}
	for _, c := range checks {
		tm := toolMessages(reqs[c.req])
		got := tm[len(tm)-1].Content
		if !strings.Contains(got, c.want) || len(got) > 2000 {
			t.Errorf("request %d: tool answer of %d bytes %.300q, want %q", c.req+1, len(got), got, c.want)
		}
	}
}

// The locator's reasoning, printed and stored with a miss, is cut.
func TestLocatorReasoningIsCut(t *testing.T) {
	s := fixture(t, "product")
	h := newHarness(t, nil, choose(agenttest.FillMarker, "", map[string]any{}).Filled(1<<20))
	r, err := (&agent.Locator{Client: h.c}).Locate(context.Background(), s, greenCheckout)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Detail) > agent.MaxReasoning+40 || !strings.HasSuffix(r.Detail, "more bytes cut]") {
		t.Errorf("detail of %d bytes", len(r.Detail))
	}
}

// A tool name and a call id of 512 KiB each do not stay in the
// conversation either.
func TestActHugeToolNameAndCallID(t *testing.T) {
	env := &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
	raw := `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,` +
		`"tool_calls":[{"id":"` + agenttest.FillMarker + `","type":"function","function":{"name":"` + agenttest.FillMarker + `","arguments":"{}"}}]}}],` +
		`"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`
	h := newHarness(t, nil, agenttest.Step{Raw: raw, Fill: 512 << 10}, finish(true, "ok", "done"))
	if _, err := (&agent.Actor{Client: h.c, Budget: agent.Budget{MaxTokens: 10_000_000}}).Act(context.Background(), "sign in", "", env); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if n := len(reqs[1].Body) - len(reqs[0].Body); n > 8<<10 {
		t.Errorf("the second request is %d bytes longer than the first", n)
	}
	if tm := toolMessages(reqs[1]); len(tm) != 1 || !strings.Contains(tm[0].Content, "there is no tool") || len(tm[0].ToolCallID) > 100 {
		t.Errorf("tool messages: %d", len(tm))
	}
}
