package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/locate"
	"github.com/e2e-dev/e2e/session/redact"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/testfile"
)

// modelFlags override the model settings of e2e.yaml.
type modelFlags struct {
	name    string
	baseURL string
}

// runCalls records model calls against the run in progress.
type runCalls struct {
	rec   session.CallRecorder
	runID atomic.Int64
}

func (r *runCalls) RecordModelCall(ctx context.Context, c *session.ModelCall) error {
	if c.RunID == 0 {
		c.RunID = r.runID.Load()
	}
	runner.NoteModelCall(ctx, c) // tokens per step, for the reports
	return r.rec.RecordModelCall(ctx, c)
}

// model is what a configured model does for a run.
type model struct {
	locator locate.Locator
	judge   *agent.Asserter
	actor   *agent.Actor
	name    string // the model's name, for cache keys
	about   string
}

// configuredModel returns the model's locator and judge when a model is
// configured (see modelConfig), or nil when none is. A configured but
// invalid model is an error.
func configuredModel(cfg *testfile.Config, f modelFlags, rec *runCalls, red *redact.Redactor) (*model, error) {
	c := modelConfig(cfg, f, os.Getenv)
	c.Recorder, c.Redactor = rec, red
	if c.Model == "" {
		return nil, nil
	}
	if p := cfg.Model.Price; p.Input > 0 || p.Output > 0 {
		c.Prices = map[string]agent.Price{c.Model: {Input: p.Input, Output: p.Output}}
	}
	client, err := agent.New(c)
	if err != nil {
		if errors.Is(err, agent.ErrConfig) { // it already says "model misconfigured"
			return nil, err
		}
		return nil, fmt.Errorf("model: %w", err)
	}
	return &model{locator: &agent.Locator{Client: client}, judge: &agent.Asserter{Client: client}, actor: &agent.Actor{Client: client, Budget: agent.Budget{
		MaxToolCalls: cfg.Model.Act.MaxToolCalls, MaxTokens: cfg.Model.Act.MaxTokens, MaxTime: cfg.Model.Act.MaxTime}},
		name: c.Model, about: c.Model + " at " + c.BaseURL}, nil
}

// publicAPI is where requests go when no base URL is set anywhere.
const publicAPI = "https://api.openai.com/v1"

// modelConfig resolves the model's settings, each from its own highest
// source (docs/model.md): the flag (--model, --model-url), else e2e.yaml
// (model.name, model.baseURL), else the environment (E2E_MODEL,
// OPENAI_BASE_URL); the base URL is the public OpenAI API only when none of
// the three sets it. The key is read from the variable model.apiKeyEnv
// names, else OPENAI_API_KEY. model.retries is taken as written: 0 means
// one attempt and no retry. Model is "" when no source names a model.
func modelConfig(cfg *testfile.Config, f modelFlags, getenv func(string) string) agent.Config {
	first := func(vs ...string) string {
		for _, v := range vs {
			if v != "" {
				return v
			}
		}
		return ""
	}
	c := agent.Config{
		Model:   first(f.name, cfg.Model.Name, getenv("E2E_MODEL")),
		BaseURL: first(f.baseURL, cfg.Model.BaseURL, getenv("OPENAI_BASE_URL"), publicAPI),
		Timeout: cfg.Model.Timeout,
	}
	if cfg.Model.APIKeyEnv != "" {
		c.APIKey = getenv(cfg.Model.APIKeyEnv)
	}
	if c.APIKey == "" {
		c.APIKey = getenv("OPENAI_API_KEY")
	}
	c.MaxRetries = cfg.Model.Retries
	if c.MaxRetries == 0 {
		c.MaxRetries = -1 // agent.Config's zero is its default; the file's 0 is none
	}
	return c
}

// wire hands the model to a runner: the locator, judge and actor, and the
// agent configuration that enters every cache key.
func (m *model) wire(o *runner.Options) {
	o.Model, o.Judge, o.Actor = m.locator, m.judge, m.actor
	o.Agent = session.AgentConfig{Model: m.name, Prompt: agent.PromptVersion()}
}
