package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session/ax"
)

// The three things the client asks a model to do, each against a server
// with quirks q playing steps; each returns what went wrong, if anything.
type purpose struct {
	name  string
	steps []agenttest.Step // a good script: what a model that calls tools answers
	run   func(t *testing.T, c *agent.Client) error
}

func purposes(t *testing.T) []purpose {
	return []purpose{
		{"locate", []agenttest.Step{greenAnswer()}, func(t *testing.T, c *agent.Client) error {
			r, err := (&agent.Locator{Client: c}).Locate(context.Background(), fixture(t, "product"), greenCheckout)
			if err == nil && (r.Target == nil || r.Target.Node.Ref != "e28") {
				t.Errorf("located %+v", r.Target)
			}
			return err
		}},
		{"assert", []agenttest.Step{verdict("The cart is empty.", []string{"status: Cart: 0 items"}, true)}, func(t *testing.T, c *agent.Client) error {
			pass, _, _, err := (&agent.Asserter{Client: c}).Judge(context.Background(), fixture(t, "product"), "the cart is empty")
			if err == nil && !pass {
				t.Error("the claim failed")
			}
			return err
		}},
		{"act", []agenttest.Step{execute(typeEmail, clickSign), finish(true, "Signed in.", "the account page is shown")}, func(t *testing.T, c *agent.Client) error {
			env := &fakeEnv{snaps: []*ax.Snapshot{fixture(t, "login")}}
			res, err := (&agent.Actor{Client: c}).Act(context.Background(), "sign in", "", env)
			if err == nil && (!res.Success || len(env.commands()) != 2) {
				t.Errorf("act: %+v, ran %v", res, env.commands())
			}
			return err
		}},
	}
}

// TestLocalServerQuirks: through the real openai-go client, act, locate and
// assert work against a server that ignores tool_choice and has the model
// write its call as JSON text (Ollama), one that refuses a named
// tool_choice (llama.cpp), and one that sends tool calls without ids; the
// client never asks for a stream (so usage sent only at a stream's end
// cannot arise).
func TestLocalServerQuirks(t *testing.T) {
	for _, q := range []struct {
		name   string
		quirks agenttest.Quirks
	}{
		{"calls written as text", agenttest.Quirks{IgnoreToolChoice: true}},
		{"named tool_choice refused", agenttest.Quirks{RefuseNamedToolChoice: true}},
		{"tool calls without ids", agenttest.Quirks{NoToolCallIDs: true}},
	} {
		for _, p := range purposes(t) {
			t.Run(q.name+"/"+p.name, func(t *testing.T) {
				h := newHarness(t, func(c *agent.Config) { c.MaxRetries = -1 }, p.steps...)
				h.srv.SetQuirks(q.quirks)
				if err := p.run(t, h.c); err != nil {
					t.Fatal(err)
				}
				for _, r := range h.srv.Requests() {
					if r.Stream {
						t.Error("the client asked for a stream")
					}
				}
				if p.name == "act" {
					// the tool messages answer the calls by ids the client made up
					for _, m := range toolMessages(h.srv.Requests()[1]) {
						if m.ToolCallID == "" {
							t.Errorf("a tool message answers no call: %+v", m)
						}
					}
				}
			})
		}
	}
}

// TestServerThatIgnoresToolChoiceWithProse: a server that ignores
// tool_choice with a model that answers in prose fails act, locate and
// assert with an error saying so and naming the setting to change.
func TestServerThatIgnoresToolChoiceWithProse(t *testing.T) {
	prose := agenttest.Text("The checkout button is the green one below the picture.")
	for _, p := range purposes(t) {
		t.Run(p.name, func(t *testing.T) {
			n := 2 // locate and assert ask again once
			if p.name == "act" {
				n = 3
			}
			var steps []agenttest.Step
			for range n {
				steps = append(steps, prose)
			}
			h := newHarness(t, func(c *agent.Config) { c.MaxRetries = -1 }, steps...)
			h.srv.SetQuirks(agenttest.Quirks{IgnoreToolChoice: true})
			err := p.run(t, h.c)
			if err == nil {
				t.Fatal("worked against a server that never calls tools")
			}
			for _, want := range []string{"answered in text", "ignores tool_choice", "set model.name in e2e.yaml (or E2E_MODEL, --model) to a model that supports tool calling"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}

// TestServerThatRefusesEveryToolChoice: a server that refuses "required"
// as well as a named tool_choice fails locate and assert saying so and
// naming the setting to change.
func TestServerThatRefusesEveryToolChoice(t *testing.T) {
	refuse := agenttest.Step{Status: 400, Body: `{"error":{"message":"Invalid tool_choice","type":"invalid_request_error"}}`}
	for _, p := range purposes(t)[:2] {
		t.Run(p.name, func(t *testing.T) {
			h := newHarness(t, func(c *agent.Config) { c.MaxRetries = -1 }, refuse, refuse)
			err := p.run(t, h.c)
			if err == nil || !strings.Contains(err.Error(), "the server refused tool_choice") || !strings.Contains(err.Error(), "set model.baseURL") {
				t.Fatalf("error %v", err)
			}
		})
	}
}
