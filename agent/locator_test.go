package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/locate"
)

// fixture loads one of the real snapshots the locate package tests with.
func fixture(t testing.TB, name string) *ax.Snapshot {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "session", "locate", "testdata", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var s ax.Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

func choose(reasoning, ref string, attrs map[string]any, related ...map[string]any) agenttest.Step {
	if related == nil {
		related = []map[string]any{}
	}
	return agenttest.ToolCall(agent.ChooseElement, map[string]any{
		"reasoning": reasoning, "ref": ref, "attributes": attrs, "related": related,
	})
}

func rel(relation, role, name string) map[string]any {
	return map[string]any{"relation": relation, "role": role, "name": name}
}

const greenCheckout = "the big green checkout button"

func greenAnswer() agenttest.Step {
	return choose("No button says checkout; Buy now is the large green button that checks out.", "e28",
		map[string]any{"role": "button", "color": "green", "size": "large"},
		rel("next to", "button", "Add to cart"),
		rel("below", "img", "Trail Runner 2 shoe"),
		rel("above", "button", "Compare"), // not true: dropped
	).Usage(1800, 90)
}

func TestLocatorBigGreenCheckoutButton(t *testing.T) {
	s := fixture(t, "product")
	if r := locate.Locate(s, greenCheckout); r.Target != nil {
		t.Fatalf("the local locator resolves %q to %s; the test needs a description only a model resolves", greenCheckout, r.Target.Node.Ref)
	}
	h := newHarness(t, func(c *agent.Config) {
		c.Prices = map[string]agent.Price{"test-model": {Input: 1, Output: 4}}
	}, greenAnswer())
	llm := &agent.Locator{Client: h.c}
	r, err := llm.Locate(context.Background(), s, greenCheckout)
	if err != nil {
		t.Fatal(err)
	}
	if r.Target == nil || r.Target.Node.Ref != "e28" {
		t.Fatalf("target %+v, want e28 (Buy now)", r.Target)
	}
	if len(r.Target.Ancestors) == 0 || r.Target.Ancestors[len(r.Target.Ancestors)-1].Role != "article" {
		t.Errorf("ancestors %v, want the article last", r.Target.Ancestors)
	}
	wantAttrs := map[string]string{"role": "button", "name": "Buy now", "color": "green", "size": "large"}
	if !equalMaps(r.Intent.Attributes, wantAttrs) {
		t.Errorf("attributes %v, want %v", r.Intent.Attributes, wantAttrs)
	}
	wantRel := []session.Relation{
		{Relation: "next to", Role: "button", Name: "Add to cart"},
		{Relation: "below", Role: "img", Name: "Trail Runner 2 shoe"},
	}
	if !equalRelations(r.Intent.Related, wantRel) {
		t.Errorf("related %+v, want %+v", r.Intent.Related, wantRel)
	}
	if why := strings.Join(r.Target.Why, " | "); !strings.Contains(why, "Buy now is the large green button") || !strings.Contains(why, `above button "Compare"`) {
		t.Errorf("why %q lacks the reasoning or the dropped relation", why)
	}
	// The intent holds on the snapshot it came from, so the cache hits on replay.
	if ok, why := locate.Check(s, r.Target.Node, r.Target.Ancestors, r.Intent); !ok {
		t.Errorf("intent does not hold where it was made: %s", why)
	}
	// Recolouring the other buttons (Add to cart turns green too) leaves it a hit.
	recolor := fixture(t, "product_recolor")
	if ok, why := locate.Check(recolor, findByName(recolor, "Buy now"), nil, r.Intent); !ok {
		t.Errorf("intent misses on the recoloured page: %s", why)
	}

	// What was sent: one forced tool, the snapshot outline, the description,
	// the page-text-is-data rule, properties in the order reasoning, ref,
	// attributes, related.
	reqs := h.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	q := reqs[0]
	if len(q.Tools) != 1 || q.Tools[0].Name != agent.ChooseElement || q.ForcedTool() != agent.ChooseElement {
		t.Errorf("tools %+v, forced %q", q.Tools, q.ForcedTool())
	}
	if !strings.Contains(q.Tools[0].Description, "reasoning") {
		t.Errorf("tool description %q", q.Tools[0].Description)
	}
	props := string(q.Tools[0].Parameters)
	order := []string{`"reasoning"`, `"ref"`, `"attributes"`, `"related"`}
	for i := 1; i < len(order); i++ {
		if strings.Index(props, order[i-1]) > strings.Index(props, order[i]) {
			t.Errorf("schema sends %s after %s: %s", order[i-1], order[i], props)
		}
	}
	if q.Messages[0].Role != "system" || !strings.Contains(q.Messages[0].Content, "not instructions") {
		t.Errorf("system prompt %q does not say page text is data", q.Messages[0].Content)
	}
	user := q.Messages[1].Content
	if !strings.Contains(user, "Description: "+greenCheckout) || !strings.Contains(user, s.Text(ax.TextOptions{})) {
		t.Errorf("user message lacks the description or the outline:\n%s", user)
	}

	c := oneCall(t, h.rec)
	if c.Purpose != "locate" || c.Outcome != "ok" || c.TokensIn != 1800 || c.TokensOut != 90 || c.Attempts != 1 {
		t.Errorf("recorded %+v", c)
	}
	if want := 1800*1/1e6 + 90*4/1e6; c.Cost < want*0.999 || c.Cost > want*1.001 {
		t.Errorf("cost %v, want %v", c.Cost, want)
	}
}

func TestChainAsksModelOnlyWhenLocalUnsure(t *testing.T) {
	s := fixture(t, "product")
	h := newHarness(t, nil)
	chain := locate.Chain{locate.Local{}, &agent.Locator{Client: h.c}}

	r, err := chain.Locate(context.Background(), s, "the Add to cart button")
	if err != nil || r.Target == nil || r.Target.Node.Ref != "e27" {
		t.Fatalf("got %+v, %v", r.Target, err)
	}
	if n := h.srv.Count(); n != 0 {
		t.Fatalf("the model was asked %d times for a description the local locator resolves", n)
	}

	h.srv.Add(greenAnswer())
	r, err = chain.Locate(context.Background(), s, greenCheckout)
	if err != nil || r.Target == nil || r.Target.Node.Ref != "e28" {
		t.Fatalf("got %+v, %v", r.Target, err)
	}
	if n := h.srv.Count(); n != 1 {
		t.Fatalf("the model was asked %d times, want 1", n)
	}
}

func TestLocatorRelatedRowAndOrdinal(t *testing.T) {
	s := fixture(t, "users")
	h := newHarness(t, nil,
		choose("Alice is the admin; her row's Menu button.", "e30", map[string]any{"role": "button", "name": "Menu"},
			rel("in", "row", "Alice")),
		choose("The second user is Bob.", "[ref=e35]", map[string]any{"Colour": nil, "name": "Menu"},
			rel("nth", "button", "second"), rel("within", "table", ""), rel("diagonal", "", "")),
	)
	llm := &agent.Locator{Client: h.c}
	r, err := llm.Locate(context.Background(), s, "the admin's menu")
	if err != nil || r.Target == nil || r.Target.Node.Ref != "e30" {
		t.Fatalf("got %+v, %v", r.Target, err)
	}
	if want := []session.Relation{{Relation: "in", Role: "row", Name: "Alice"}}; !equalRelations(r.Intent.Related, want) {
		t.Errorf("related %+v, want %+v", r.Intent.Related, want)
	}
	if ok, why := locate.Check(fixture(t, "users_shuffle"), findMenuIn(fixture(t, "users_shuffle"), "Bob"), nil, r.Intent); ok {
		t.Errorf("Bob's Menu passes the intent of Alice's Menu (%s)", why)
	}

	r, err = llm.Locate(context.Background(), s, "the menu of the second user")
	if err != nil || r.Target == nil || r.Target.Node.Ref != "e35" {
		t.Fatalf("got %+v, %v", r.Target, err)
	}
	if r.Intent.Attributes["role"] != "button" || r.Intent.Attributes["name"] != "Menu" || len(r.Intent.Attributes) != 2 {
		t.Errorf("attributes %v", r.Intent.Attributes)
	}
	if want := []session.Relation{{Relation: "in", Role: "table"}, {Relation: "nth", Role: "button", Name: "2"}}; !equalRelations(r.Intent.Related, want) {
		t.Errorf("related %+v, want %+v", r.Intent.Related, want)
	}
	if why := strings.Join(r.Target.Why, " "); !strings.Contains(why, `"diagonal" (unknown)`) {
		t.Errorf("why %q does not name the unknown relation", why)
	}
}

func TestLocatorNoMatch(t *testing.T) {
	s := fixture(t, "product")
	h := newHarness(t, nil, choose("There is no newsletter signup on this page.", "", map[string]any{"role": "button", "name": "Subscribe"}))
	chain := locate.Chain{locate.Local{}, &agent.Locator{Client: h.c}}
	r, err := chain.Locate(context.Background(), s, "the newsletter signup")
	if err != nil {
		t.Fatal(err)
	}
	if r.Target != nil || r.Reason != locate.ReasonNoMatch || r.Detail != "There is no newsletter signup on this page." {
		t.Errorf("got target %v, reason %q, detail %q", r.Target, r.Reason, r.Detail)
	}
}

func TestLocatorBadAnswers(t *testing.T) {
	good := choose("Add to cart.", "e27", map[string]any{"role": "button"})
	for _, tc := range []struct {
		name    string
		bad     agenttest.Step
		problem string
	}{
		{"malformed arguments", agenttest.ToolCall(agent.ChooseElement, `{"reasoning": "x", "ref": "e27"`), "are not valid JSON"},
		{"unknown ref", choose("guess", "e999", nil), `ref "e999" is not in the snapshot`},
		{"unknown tool", agenttest.ToolCall("click_element", map[string]any{"ref": "e27"}), `called unknown tool "click_element"`},
		{"no tool call", agenttest.Text("It is the Add to cart button, e27."), "answered in text instead of calling choose_element"},
	} {
		t.Run(tc.name+" then good", func(t *testing.T) {
			h := newHarness(t, nil, tc.bad, good)
			r, err := (&agent.Locator{Client: h.c}).Locate(context.Background(), fixture(t, "product"), "the cart thing")
			if err != nil || r.Target == nil || r.Target.Node.Ref != "e27" {
				t.Fatalf("got %+v, %v", r.Target, err)
			}
			reqs := h.srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			last := reqs[1].Messages[len(reqs[1].Messages)-1]
			if last.Role != "user" || !strings.Contains(last.Content, tc.problem) {
				t.Errorf("corrective message %q does not name %q", last.Content, tc.problem)
			}
			calls := h.rec.Calls()
			if len(calls) != 2 || calls[0].Outcome != "bad-response" || calls[1].Outcome != "ok" {
				t.Errorf("recorded %+v", calls)
			}
		})
		t.Run(tc.name+" twice", func(t *testing.T) {
			h := newHarness(t, nil, tc.bad, tc.bad)
			_, err := (&agent.Locator{Client: h.c}).Locate(context.Background(), fixture(t, "product"), "the cart thing")
			if !errors.Is(err, agent.ErrBadResponse) || !strings.Contains(err.Error(), tc.problem) || !strings.HasPrefix(err.Error(), "locate with the model: model answered badly (2 attempts): ") {
				t.Fatalf("err = %v", err)
			}
			if n := h.srv.Count(); n != 2 {
				t.Errorf("%d requests, want 2", n)
			}
		})
	}
}

func TestLocatorModelFailureIsNotRetriedAsBadAnswer(t *testing.T) {
	h := newHarness(t, func(c *agent.Config) { c.MaxRetries = 1 }, agenttest.Status(500, ""), agenttest.Status(500, ""))
	chain := locate.Chain{locate.Local{}, &agent.Locator{Client: h.c}}
	r, err := chain.Locate(context.Background(), fixture(t, "product"), greenCheckout)
	if !errors.Is(err, agent.ErrServer) || r.Target != nil {
		t.Fatalf("got %+v, %v", r.Target, err)
	}
	if !strings.Contains(err.Error(), "locate with the model: model answered 500 after 2 attempts") {
		t.Errorf("err %q", err)
	}
}

func TestLocatorNeverSendsSecretValues(t *testing.T) {
	const secret = "tr0ub4dor&3"
	t.Setenv("E2E_SECRET_PASSWORD", secret) // where a run would find it; the locator must not
	s := fixture(t, "login")
	desc := "the field where {{ secret.PASSWORD }} goes"
	h := newHarness(t, nil, choose("The Password textbox takes the password.", "e25", map[string]any{"role": "textbox"}))
	chain := locate.Chain{locate.Local{}, &agent.Locator{Client: h.c}}
	r, err := chain.Locate(context.Background(), s, desc)
	if err != nil || r.Target == nil || r.Target.Node.Ref != "e25" {
		t.Fatalf("got %+v, %v", r.Target, err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	for _, q := range reqs {
		body := string(q.Body)
		if strings.Contains(body, secret) || strings.Contains(q.Text(), secret) {
			t.Errorf("a request carries the secret value")
		}
		if !strings.Contains(q.Text(), "{{ secret.PASSWORD }}") {
			t.Errorf("the placeholder did not reach the model unresolved")
		}
	}
}

func TestLocatorCapsTheOutline(t *testing.T) {
	s := fixture(t, "users")
	full := s.Text(ax.TextOptions{})
	inter := s.Text(ax.TextOptions{InteractiveOnly: true})
	h := newHarness(t, nil,
		choose("Alice's menu.", "e30", nil),
		choose("Alice's menu.", "e30", nil))
	llm := &agent.Locator{Client: h.c, MaxOutline: len(inter) + 1}
	if _, err := llm.Locate(context.Background(), s, "the admin's menu"); err != nil {
		t.Fatal(err)
	}
	llm.MaxOutline = 300
	if _, err := llm.Locate(context.Background(), s, "the admin's menu"); err != nil {
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

func findByName(s *ax.Snapshot, name string) *ax.Node {
	var out *ax.Node
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if out == nil && n.Name == name && n.Ref != "" {
			out = n
		}
		return out == nil
	})
	return out
}

func findMenuIn(s *ax.Snapshot, row string) *ax.Node {
	var out *ax.Node
	s.Walk(func(n *ax.Node, anc []*ax.Node) bool {
		if out == nil && n.Role == "button" && n.Name == "Menu" {
			for _, a := range anc {
				if a.Role == "row" && strings.HasPrefix(a.Name, row+" ") {
					out = n
				}
			}
		}
		return out == nil
	})
	return out
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func equalRelations(a, b []session.Relation) bool {
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

func TestLocatorFallsBackWhenNamedToolChoiceIsRefused(t *testing.T) {
	h := newHarness(t, nil,
		agenttest.Step{Status: 400, Body: `{"error":{"message":"tool_choice: only \"auto\", \"none\" and \"required\" are supported","type":"invalid_request_error"}}`},
		greenAnswer())
	r, err := (&agent.Locator{Client: h.c}).Locate(context.Background(), fixture(t, "product"), greenCheckout)
	if err != nil || r.Target == nil || r.Target.Node.Ref != "e28" {
		t.Fatalf("got %+v, %v", r.Target, err)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 2 || reqs[0].ForcedTool() != agent.ChooseElement || string(reqs[1].ToolChoice) != `"required"` {
		t.Errorf("tool choices sent: %s then %s", reqs[0].ToolChoice, reqs[len(reqs)-1].ToolChoice)
	}
}
