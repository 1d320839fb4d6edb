package agent_test

import (
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session"
)

// harness is a client talking to a scripted server, with a recorder and a
// clock that does not sleep.
type harness struct {
	srv   *agenttest.Server
	rec   *agenttest.Recorder
	clock *agenttest.Clock
	c     *agent.Client
}

func newHarness(t testing.TB, edit func(*agent.Config), steps ...agenttest.Step) *harness {
	t.Helper()
	h := &harness{srv: agenttest.New(t, steps...), rec: &agenttest.Recorder{}, clock: &agenttest.Clock{}}
	cfg := agent.Config{
		BaseURL:  h.srv.URL(),
		APIKey:   "test-key",
		Model:    "test-model",
		Timeout:  5 * time.Second,
		Recorder: h.rec,
		RunID:    7,
		Clock:    h.clock,
		Jitter:   func() float64 { return 0.5 },
	}
	if edit != nil {
		edit(&cfg)
	}
	c, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.c = c
	return h
}

func ask(purpose string) agent.Request {
	return agent.Request{
		Purpose:  purpose,
		Messages: []agent.Message{{Role: agent.RoleSystem, Content: "be brief"}, {Role: agent.RoleUser, Content: "hello"}},
	}
}

func oneCall(t *testing.T, rec *agenttest.Recorder) session.ModelCall {
	t.Helper()
	calls := rec.Calls()
	if len(calls) != 1 {
		t.Fatalf("recorded %d calls, want 1: %+v", len(calls), calls)
	}
	return calls[0]
}

func TestRateLimitedThenSuccessHonoursRetryAfter(t *testing.T) {
	h := newHarness(t, nil, agenttest.Status(429, "1"), agenttest.Text("hi").Usage(30, 4))
	r, err := h.c.Complete(context.Background(), ask("assert"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Content != "hi" || r.Attempts != 2 {
		t.Errorf("got %q after %d attempts, want \"hi\" after 2", r.Content, r.Attempts)
	}
	if got := h.clock.Sleeps(); len(got) != 1 || got[0] != time.Second {
		t.Errorf("slept %v, want [1s] from Retry-After", got)
	}
	c := oneCall(t, h.rec)
	if c.Outcome != "ok" || c.Attempts != 2 || c.TokensIn != 30 || c.TokensOut != 4 || c.Purpose != "assert" || c.RunID != 7 || c.Model != "test-model" {
		t.Errorf("recorded %+v", c)
	}
	if c.LatencyMS < 1000 {
		t.Errorf("latency %dms does not include the 1s wait", c.LatencyMS)
	}
}

func TestServerErrorUntilBudgetSpent(t *testing.T) {
	h := newHarness(t, nil,
		agenttest.Status(502, ""), agenttest.Status(503, ""), agenttest.Status(500, ""))
	_, err := h.c.Complete(context.Background(), ask("locate"))
	if !errors.Is(err, agent.ErrServer) {
		t.Fatalf("err = %v, want ErrServer", err)
	}
	want := regexp.MustCompile(`^model answered 500 after 3 attempts over 1\.[0-9]s: scripted 500$`)
	if !want.MatchString(err.Error()) {
		t.Errorf("error %q does not match %s", err, want)
	}
	var ce *agent.CallError
	if !errors.As(err, &ce) || ce.Attempts != 3 || ce.Status != 500 {
		t.Errorf("CallError = %+v", ce)
	}
	if n := h.srv.Count(); n != 3 {
		t.Errorf("server got %d requests, want 3 (the default: 2 retries)", n)
	}
	// Backoff 500ms doubling, its upper half jittered (fixed at the middle here).
	wantSleeps := []time.Duration{375 * time.Millisecond, 750 * time.Millisecond}
	if got := h.clock.Sleeps(); !equalDurations(got, wantSleeps) {
		t.Errorf("slept %v, want %v", got, wantSleeps)
	}
	c := oneCall(t, h.rec)
	if c.Outcome != "server-error" || c.Attempts != 3 || c.TokensIn != 0 {
		t.Errorf("recorded %+v", c)
	}
}

func TestRateLimitedUntilBudgetSpent(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.MaxRetries = 2 },
		agenttest.Status(429, "2"), agenttest.Status(429, "120"), agenttest.Status(429, ""))
	_, err := h.c.Complete(context.Background(), ask("act"))
	if !errors.Is(err, agent.ErrRateLimited) {
		t.Fatalf("err = %v, want ErrRateLimited", err)
	}
	// 2s asked, 120s capped at 30s.
	if got, want := h.clock.Sleeps(), []time.Duration{2 * time.Second, 30 * time.Second}; !equalDurations(got, want) {
		t.Errorf("slept %v, want %v", got, want)
	}
	if !regexp.MustCompile(`^model rate-limited \(429\) after 3 attempts over 32\.[0-9]s: scripted 429$`).MatchString(err.Error()) {
		t.Errorf("error %q", err)
	}
	if c := oneCall(t, h.rec); c.Outcome != "rate-limited" || c.Attempts != 3 {
		t.Errorf("recorded %+v", c)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	when := time.Now().Add(5 * time.Second).UTC().Format(http.TimeFormat)
	h := newHarness(t, nil, agenttest.Status(503, when), agenttest.Text("ok"))
	if _, err := h.c.Complete(context.Background(), ask("assert")); err != nil {
		t.Fatal(err)
	}
	got := h.clock.Sleeps()
	if len(got) != 1 || got[0] < 3*time.Second || got[0] > 5*time.Second {
		t.Errorf("slept %v, want about 4–5s from an HTTP-date Retry-After", got)
	}
}

func TestTimeout(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.Timeout = 200 * time.Millisecond; c.MaxRetries = 1 },
		agenttest.Hang(5*time.Second), agenttest.Hang(5*time.Second))
	start := time.Now()
	_, err := h.c.Complete(context.Background(), ask("locate"))
	if !errors.Is(err, agent.ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if err.Error() != "model timed out after 200ms (2 attempts)" {
		t.Errorf("error %q", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v; the timeout did not cut the requests", d)
	}
	if c := oneCall(t, h.rec); c.Outcome != "timeout" || c.Attempts != 2 {
		t.Errorf("recorded %+v", c)
	}
}

func TestMalformedResponseRetriedThenBadResponse(t *testing.T) {
	t.Run("recovers", func(t *testing.T) {
		h := newHarness(t, nil, agenttest.Malformed(), agenttest.Text("fine"))
		r, err := h.c.Complete(context.Background(), ask("assert"))
		if err != nil || r.Content != "fine" || r.Attempts != 2 {
			t.Fatalf("got %+v, %v", r, err)
		}
	})
	t.Run("gives up", func(t *testing.T) {
		h := newHarness(t, func(c *agent.Config) { c.MaxRetries = 1 }, agenttest.Malformed(), agenttest.Step{Raw: `{"choices":[]}`})
		_, err := h.c.Complete(context.Background(), ask("assert"))
		if !errors.Is(err, agent.ErrBadResponse) {
			t.Fatalf("err = %v, want ErrBadResponse", err)
		}
		if !strings.HasPrefix(err.Error(), "model sent a malformed response after 2 attempts") {
			t.Errorf("error %q", err)
		}
		if c := oneCall(t, h.rec); c.Outcome != "bad-response" || c.Attempts != 2 {
			t.Errorf("recorded %+v", c)
		}
	})
}

func TestRejectedIsNotRetried(t *testing.T) {
	h := newHarness(t, nil, agenttest.Step{Status: 401, Body: "invalid api key"})
	_, err := h.c.Complete(context.Background(), ask("act"))
	if !errors.Is(err, agent.ErrRejected) || err.Error() != "model rejected the request (401): invalid api key" {
		t.Fatalf("err = %v", err)
	}
	if h.srv.Count() != 1 || len(h.clock.Sleeps()) != 0 {
		t.Errorf("retried a 401: %d requests, sleeps %v", h.srv.Count(), h.clock.Sleeps())
	}
}

func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	rec := &agenttest.Recorder{}
	c, err := agent.New(agent.Config{BaseURL: "http://" + addr + "/v1", Model: "m", MaxRetries: 1, Clock: &agenttest.Clock{}, Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Complete(context.Background(), ask("act"))
	if !errors.Is(err, agent.ErrUnreachable) || !strings.Contains(err.Error(), "model unreachable at http://"+addr+"/v1 after 2 attempts") {
		t.Fatalf("err = %v", err)
	}
	if c := oneCall(t, rec); c.Outcome != "unreachable" {
		t.Errorf("recorded %+v", c)
	}
}

func TestCanceled(t *testing.T) {
	h := newHarness(t, nil, agenttest.Hang(5*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := h.c.Complete(ctx, ask("act"))
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, agent.ErrTimeout) {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
	if c := oneCall(t, h.rec); c.Outcome != "canceled" {
		t.Errorf("recorded %+v", c)
	}
}

func TestCostFromPriceTable(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) {
		c.Prices = map[string]agent.Price{"test-model": {Input: 2.5, Output: 10}, "other": {Input: 100, Output: 100}}
	}, agenttest.Text("x").Usage(1000, 200))
	r, err := h.c.Complete(context.Background(), ask("heal"))
	if err != nil {
		t.Fatal(err)
	}
	want := 1000*2.5/1e6 + 200*10/1e6
	c := oneCall(t, h.rec)
	if math.Abs(r.Cost-want) > 1e-12 || math.Abs(c.Cost-want) > 1e-12 || c.TokensIn != 1000 || c.TokensOut != 200 || c.Purpose != "heal" {
		t.Errorf("cost %v, recorded %+v; want %v", r.Cost, c, want)
	}
}

func TestRequestWireShape(t *testing.T) {
	h := newHarness(t, nil, agenttest.ToolCall("pick", map[string]any{"x": 1}))
	req := ask("act")
	req.Messages = append(req.Messages,
		agent.Message{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c1", Name: "pick", Arguments: `{"x":0}`}}},
		agent.Message{Role: agent.RoleTool, ToolCallID: "c1", Content: "done"})
	req.Tools = []agent.Tool{{Name: "pick", Description: "Pick one.", Parameters: map[string]any{"type": "object"}}}
	req.ToolChoice = "pick"
	r, err := h.c.Complete(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "pick" || r.ToolCalls[0].Arguments != `{"x":1}` || r.ToolCalls[0].ID == "" {
		t.Errorf("tool calls %+v", r.ToolCalls)
	}
	got := h.srv.Requests()[0]
	if got.Model != "test-model" || got.ForcedTool() != "pick" || len(got.Tools) != 1 || got.Tools[0].Description != "Pick one." {
		t.Errorf("request %+v", got)
	}
	roles := []string{}
	for _, m := range got.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool" || got.Messages[2].ToolCalls[0].Name != "pick" || got.Messages[3].ToolCallID != "c1" {
		t.Errorf("messages %+v", got.Messages)
	}
	if a := got.Header.Get("Authorization"); a != "Bearer test-key" {
		t.Errorf("Authorization %q", a)
	}
	if got.Header.Get("X-Stainless-Retry-Count") != "0" {
		t.Errorf("openai-go retried on its own: %q", got.Header.Get("X-Stainless-Retry-Count"))
	}
}

func TestConfig(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"http://localhost:11434", `base URL "http://localhost:11434" must end in /v1 (e.g. http://localhost:11434/v1)`},
		{"localhost:11434/v1", "is not an http(s) URL"},
		{"", "no base URL"},
	} {
		_, err := agent.New(agent.Config{BaseURL: tc.url, Model: "m"})
		if !errors.Is(err, agent.ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q) = %v, want ErrConfig with %q", tc.url, err, tc.want)
		}
	}
	if _, err := agent.New(agent.Config{BaseURL: "http://localhost:11434/v1/"}); !errors.Is(err, agent.ErrConfig) || !strings.Contains(err.Error(), "no model") {
		t.Errorf("no model: %v", err)
	}
	t.Setenv("OPENAI_BASE_URL", "http://env/v1")
	t.Setenv("OPENAI_API_KEY", "env-key")
	t.Setenv("E2E_MODEL", "env-model")
	got := agent.ConfigFromEnv(agent.Config{Model: "flag-model"})
	if got.BaseURL != "http://env/v1" || got.APIKey != "env-key" || got.Model != "flag-model" {
		t.Errorf("ConfigFromEnv = %+v", got)
	}
}

func TestOutcomeWords(t *testing.T) {
	for err, want := range map[error]string{
		nil:                                      "ok",
		agent.ErrRateLimited:                     "rate-limited",
		&agent.CallError{Kind: agent.ErrTimeout}: "timeout",
		context.Canceled:                         "canceled",
		errors.New("other"):                      "error",
		agent.ErrBadResponse:                     "bad-response",
		agent.ErrUnreachable:                     "unreachable",
		agent.ErrRejected:                        "rejected",
		agent.ErrServer:                          "server-error",
	} {
		if got := agent.Outcome(err); got != want {
			t.Errorf("Outcome(%v) = %q, want %q", err, got, want)
		}
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
