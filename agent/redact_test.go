package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session/redact"
)

// TestRequestsAreRedactedBeforeTheyLeave: whatever a caller puts in a
// request (a page with the secret in its URL, a tool result quoting it, an
// assistant's earlier tool call holding it), no form of a secret the
// client's redactor knows reaches the server, and the body is still a valid
// request.
func TestRequestsAreRedactedBeforeTheyLeave(t *testing.T) {
	secret := `hunter2"q&pässwörd`
	red := redact.New()
	h := newHarness(t, func(c *agent.Config) { c.Redactor = red }, agenttest.Text("ok"))
	red.Add(secret)
	args, _ := json.Marshal(map[string]any{"steps": []string{fmt.Sprintf("--step-type TYPE --value %q", secret)}})
	req := agent.Request{Purpose: "act", Messages: []agent.Message{
		{Role: agent.RoleSystem, Content: "be brief"},
		{Role: agent.RoleUser, Content: "- main:\n  - text \"" + secret + "\"\npage: http://h/echo?pw=" + url.QueryEscape(secret)},
		{Role: agent.RoleAssistant, ToolCalls: []agent.ToolCall{{ID: "c1", Name: "execute_step", Arguments: string(args)}}},
		{Role: agent.RoleTool, ToolCallID: "c1", Content: fmt.Sprintf("failed: got %q", secret)},
	}}
	if _, err := h.c.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body := string(h.srv.Requests()[0].Body)
	for _, f := range append(redact.Forms(secret), "hunter2", "pässwörd", "p%C3%A4ssw", `p\u00e4ssw`) {
		if strings.Contains(body, f) {
			t.Errorf("the request holds %q:\n%s", f, body)
		}
	}
	if !strings.Contains(body, redact.Marker) || !strings.Contains(body, "execute_step") || !strings.Contains(body, "be brief") {
		t.Errorf("the request lost more than the secret:\n%s", body)
	}
	// Without the redactor the same request would carry it: the test can fail.
	h2 := newHarness(t, nil, agenttest.Text("ok"))
	if _, err := h2.c.Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(h2.srv.Requests()[0].Body), "p%C3%A4ssw") {
		t.Error("the unredacted request does not hold the encoded secret")
	}
}
