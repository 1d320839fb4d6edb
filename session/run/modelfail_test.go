package run

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session"
)

// failingModel is the real LLM locator against a scripted server that
// answers 500 (no retries); play runs when the request arrives.
func failingModel(t *testing.T, play func()) (*agent.Locator, *agenttest.Server) {
	t.Helper()
	srv := agenttest.New(t, agenttest.Status(http.StatusInternalServerError, "").OnPlay(play))
	client, err := agent.New(agent.Config{BaseURL: srv.URL(), Model: "scripted", APIKey: "none", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return &agent.Locator{Client: client}, srv
}

// TestModelFailureKeepsLooking: the model, asked about an element that is
// not there yet, fails (500); the element appears once the model has been
// asked (the scripted server tells the page to add it), and the step finds
// it with the local locator instead of ending at once with the model's
// error. Without a model the same step passes too.
func TestModelFailureKeepsLooking(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 30 * time.Second // ends as soon as the button is found
	release := func(key string) func() {
		return func() {
			resp, err := http.Get(e.srv.URL + "/away/release?key=" + key)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		}
	}
	model, srv := failingModel(t, release("model"))
	e.model = model
	rep := e.run("", `name: later
url: /later?wait=model
steps:
  - click: the Pay now button
`)
	if !rep.Passed() {
		t.Fatalf("the step ended with the model's failure:\n%s", e.out.String())
	}
	if srv.Count() != 1 || rep.Tests[0].Steps[0].LLMCalls != 1 {
		t.Errorf("%d model requests, %d calls counted; want 1", srv.Count(), rep.Tests[0].Steps[0].LLMCalls)
	}
}

// TestModelFailureIsReportedBesideTheMiss: when the element never comes,
// the step fails once its time is up, with the miss and the model's error.
func TestModelFailureIsReportedBesideTheMiss(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 2 * time.Second
	model, _ := failingModel(t, func() {})
	e.model = model
	rep := e.run("", `name: never
url: /later?wait=never
steps:
  - click: the Pay now button
`)
	st := rep.Tests[0].Steps[0]
	if st.Status != session.StatusFailed || !strings.Contains(st.Error, `no element matches "the Pay now button"`) ||
		!strings.Contains(st.Error, "the model could not help: locate with the model: model answered 500") {
		t.Fatalf("step: %s %q", st.Status, st.Error)
	}
}
