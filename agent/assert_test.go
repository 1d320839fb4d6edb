package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session/ax"
)

func verdict(reasoning string, evidence []string, pass bool) agenttest.Step {
	return agenttest.ToolCall(agent.JudgeAssertion, map[string]any{
		"reasoning": reasoning, "evidence": evidence, "pass": pass,
	})
}

func TestAsserterPass(t *testing.T) {
	s := fixture(t, "product")
	h := newHarness(t, nil, verdict("The cart status says it holds no items.", []string{"status: Cart: 0 items"}, true).Usage(1500, 60))
	pass, why, calls, err := (&agent.Asserter{Client: h.c}).Judge(context.Background(), s, "the cart is empty")
	if err != nil {
		t.Fatal(err)
	}
	if !pass || calls != 1 {
		t.Errorf("pass %v after %d calls, want true after 1", pass, calls)
	}
	if why != "The cart status says it holds no items. (evidence: status: Cart: 0 items)" {
		t.Errorf("reasoning %q", why)
	}

	// What was sent: one forced tool with reasoning, evidence and pass in
	// that order, the rules in the system prompt, the claim and the outline.
	reqs := h.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	q := reqs[0]
	if len(q.Tools) != 1 || q.Tools[0].Name != agent.JudgeAssertion || q.ForcedTool() != agent.JudgeAssertion {
		t.Errorf("tools %+v, forced %q", q.Tools, q.ForcedTool())
	}
	props := string(q.Tools[0].Parameters)
	order := []string{`"reasoning"`, `"evidence"`, `"pass"`}
	for i := 1; i < len(order); i++ {
		if strings.Index(props, order[i-1]) > strings.Index(props, order[i]) {
			t.Errorf("schema sends %s after %s: %s", order[i-1], order[i], props)
		}
	}
	sys := q.Messages[0].Content
	for _, rule := range []string{"Judge only from the snapshot", "not instructions", "{{ secret.PASSWORD }}", "pass=false"} {
		if q.Messages[0].Role != "system" || !strings.Contains(sys, rule) {
			t.Errorf("system prompt lacks %q", rule)
		}
	}
	user := q.Messages[1].Content
	if !strings.Contains(user, "Claim: the cart is empty") || !strings.Contains(user, s.Text(ax.TextOptions{})) {
		t.Errorf("user message lacks the claim or the outline:\n%s", user)
	}

	c := oneCall(t, h.rec)
	if c.Purpose != "assert" || c.Outcome != "ok" || c.TokensIn != 1500 || c.TokensOut != 60 || c.Attempts != 1 {
		t.Errorf("recorded %+v", c)
	}
}

func TestAsserterFail(t *testing.T) {
	h := newHarness(t, nil, verdict("The cart status shows 0 items, not 2.", []string{"status: Cart: 0 items"}, false))
	pass, why, calls, err := (&agent.Asserter{Client: h.c}).Judge(context.Background(), fixture(t, "product"), "the cart shows 2 items")
	if err != nil {
		t.Fatal(err)
	}
	if pass || calls != 1 || !strings.Contains(why, "0 items, not 2") || !strings.Contains(why, "(evidence: status: Cart: 0 items)") {
		t.Errorf("pass %v, calls %d, reasoning %q", pass, calls, why)
	}
}

func TestAsserterIsNeverCached(t *testing.T) {
	s := fixture(t, "product")
	h := newHarness(t, nil, verdict("Empty.", nil, true), verdict("Empty.", nil, true))
	a := &agent.Asserter{Client: h.c}
	for range 2 {
		if pass, _, _, err := a.Judge(context.Background(), s, "the cart is empty"); err != nil || !pass {
			t.Fatalf("pass %v, %v", pass, err)
		}
	}
	if n := h.srv.Count(); n != 2 {
		t.Errorf("%d requests for two judgements of the same claim, want 2", n)
	}
}

func TestAsserterCapsReasoning(t *testing.T) {
	long := strings.Repeat("word ", 200)
	h := newHarness(t, nil, verdict(long, []string{"status: Cart: 0 items"}, true))
	_, why, _, err := (&agent.Asserter{Client: h.c}).Judge(context.Background(), fixture(t, "product"), "the cart is empty")
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(why)); n > agent.MaxReasoning || !strings.HasSuffix(why, "…") {
		t.Errorf("reasoning of %d characters: %q", n, why)
	}
}

func TestAsserterBadAnswers(t *testing.T) {
	good := verdict("Cart: 0 items.", []string{"status: Cart: 0 items"}, true)
	for _, tc := range []struct {
		name    string
		bad     agenttest.Step
		problem string
	}{
		{"malformed arguments", agenttest.ToolCall(agent.JudgeAssertion, `{"reasoning": "x", "pass": tru`), "are not valid JSON"},
		{"missing pass", agenttest.ToolCall(agent.JudgeAssertion, map[string]any{"reasoning": "x", "evidence": []string{}}), "have no pass"},
		{"unknown tool", agenttest.ToolCall("choose_element", map[string]any{"ref": "e27"}), `called unknown tool "choose_element"`},
		{"text instead", agenttest.Text("Yes, the cart is empty."), "answered in text instead of calling judge_assertion"},
		{"no tool call", agenttest.Text(""), "no tool call"},
	} {
		t.Run(tc.name+" then good", func(t *testing.T) {
			h := newHarness(t, nil, tc.bad, good)
			pass, _, calls, err := (&agent.Asserter{Client: h.c}).Judge(context.Background(), fixture(t, "product"), "the cart is empty")
			if err != nil || !pass || calls != 2 {
				t.Fatalf("pass %v after %d calls, %v", pass, calls, err)
			}
			reqs := h.srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			last := reqs[1].Messages[len(reqs[1].Messages)-1]
			if last.Role != "user" || !strings.Contains(last.Content, tc.problem) {
				t.Errorf("corrective message %q does not name %q", last.Content, tc.problem)
			}
			calls2 := h.rec.Calls()
			if len(calls2) != 2 || calls2[0].Outcome != "bad-response" || calls2[1].Outcome != "ok" || calls2[0].Purpose != "assert" || calls2[1].Purpose != "assert" {
				t.Errorf("recorded %+v", calls2)
			}
		})
		t.Run(tc.name+" twice", func(t *testing.T) {
			h := newHarness(t, nil, tc.bad, tc.bad)
			pass, why, calls, err := (&agent.Asserter{Client: h.c}).Judge(context.Background(), fixture(t, "product"), "the cart is empty")
			if !errors.Is(err, agent.ErrBadResponse) || !strings.Contains(err.Error(), tc.problem) ||
				!strings.HasPrefix(err.Error(), "judge assertion with the model: model answered badly (2 attempts): ") {
				t.Fatalf("err = %v", err)
			}
			if pass || why != "" || calls != 2 {
				t.Errorf("pass %v, reasoning %q, calls %d", pass, why, calls)
			}
		})
	}
}

func TestAsserterServerErrorThenSuccess(t *testing.T) {
	h := newHarness(t, nil, agenttest.Status(500, ""), verdict("Cart: 0 items.", nil, true))
	pass, _, calls, err := (&agent.Asserter{Client: h.c}).Judge(context.Background(), fixture(t, "product"), "the cart is empty")
	if err != nil || !pass {
		t.Fatalf("pass %v, %v", pass, err)
	}
	if calls != 1 || h.srv.Count() != 2 {
		t.Errorf("%d Complete calls over %d requests, want 1 over 2 (the client retries)", calls, h.srv.Count())
	}
	if got := h.clock.Sleeps(); len(got) != 1 {
		t.Errorf("slept %v, want one backoff", got)
	}
	if c := oneCall(t, h.rec); c.Purpose != "assert" || c.Outcome != "ok" || c.Attempts != 2 {
		t.Errorf("recorded %+v", c)
	}
}

func TestAsserterModelFailurePassesThrough(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.MaxRetries = 1 }, agenttest.Status(429, "1"), agenttest.Status(429, "1"))
	pass, _, calls, err := (&agent.Asserter{Client: h.c}).Judge(context.Background(), fixture(t, "product"), "the cart is empty")
	if !errors.Is(err, agent.ErrRateLimited) || pass || calls != 1 {
		t.Fatalf("pass %v, calls %d, err %v", pass, calls, err)
	}
	if !strings.HasPrefix(err.Error(), "judge assertion with the model: model rate-limited (429) after 2 attempts") {
		t.Errorf("err %q", err)
	}
	if c := oneCall(t, h.rec); c.Purpose != "assert" || c.Outcome != "rate-limited" {
		t.Errorf("recorded %+v", c)
	}
}

func TestAsserterNeverSendsSecretValues(t *testing.T) {
	const secret = "tr0ub4dor&3"
	t.Setenv("E2E_SECRET_USER", secret) // where a run would find it; the asserter must not
	claim := "the greeting names {{ secret.USER }}"
	h := newHarness(t, nil, verdict("The page shows no greeting; cannot tell.", nil, false))
	pass, why, _, err := (&agent.Asserter{Client: h.c}).Judge(context.Background(), fixture(t, "login"), claim)
	if err != nil || pass || !strings.Contains(why, "cannot tell") {
		t.Fatalf("pass %v, %q, %v", pass, why, err)
	}
	q := h.srv.Requests()[0]
	if strings.Contains(string(q.Body), secret) || strings.Contains(q.Text(), secret) {
		t.Errorf("the request carries the secret value")
	}
	if !strings.Contains(q.Messages[1].Content, "Claim: "+claim) || !strings.Contains(string(q.Body), "{{ secret.USER }}") {
		t.Errorf("the placeholder did not reach the model unresolved")
	}
}

func TestAsserterCapsTheOutline(t *testing.T) {
	s := fixture(t, "users")
	full := s.Text(ax.TextOptions{})
	inter := s.Text(ax.TextOptions{InteractiveOnly: true})
	h := newHarness(t, nil, verdict("x", nil, false), verdict("x", nil, false))
	a := &agent.Asserter{Client: h.c, MaxOutline: len(inter) + 1}
	if _, _, _, err := a.Judge(context.Background(), s, "Alice is an admin"); err != nil {
		t.Fatal(err)
	}
	a.MaxOutline = 300
	if _, _, _, err := a.Judge(context.Background(), s, "Alice is an admin"); err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	u1, u2 := reqs[0].Messages[1].Content, reqs[1].Messages[1].Content
	if !strings.Contains(u1, inter) || strings.Contains(u1, full) || !strings.Contains(u1, "only interactable elements") {
		t.Errorf("first request:\n%s", u1)
	}
	snap := u2[strings.Index(u2, "<snapshot>"):]
	if len(snap) > 300+len("<snapshot>\n</snapshot>\n") || !strings.Contains(u2, "cut after") {
		t.Errorf("second request (%d characters of snapshot):\n%s", len(snap), u2)
	}
}

func TestAsserterWithoutClient(t *testing.T) {
	_, _, calls, err := (&agent.Asserter{}).Judge(context.Background(), fixture(t, "product"), "x")
	if !errors.Is(err, agent.ErrConfig) || calls != 0 {
		t.Errorf("calls %d, err %v", calls, err)
	}
}
