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
// configured (flags, then e2e.yaml, then OPENAI_BASE_URL, OPENAI_API_KEY and
// E2E_MODEL), or nil when none is. A configured but invalid model is an error.
func configuredModel(cfg *testfile.Config, f modelFlags, rec *runCalls, red *redact.Redactor) (*model, error) {
	c := agent.Config{BaseURL: f.baseURL, Model: f.name, Recorder: rec, Redactor: red}
	if c.Model == "" {
		c.Model = cfg.Model.Name
	}
	if c.BaseURL == "" && cfg.File != "" && cfg.Model.Name != "" {
		c.BaseURL = cfg.Model.BaseURL
	}
	if cfg.Model.APIKeyEnv != "" {
		c.APIKey = os.Getenv(cfg.Model.APIKeyEnv)
	}
	c.Timeout = cfg.Model.Timeout
	if cfg.Model.Retries > 0 {
		c.MaxRetries = cfg.Model.Retries
	}
	c = agent.ConfigFromEnv(c)
	if c.Model == "" {
		return nil, nil
	}
	if p := cfg.Model.Price; p.Input > 0 || p.Output > 0 {
		c.Prices = map[string]agent.Price{c.Model: {Input: p.Input, Output: p.Output}}
	}
	if c.BaseURL == "" {
		c.BaseURL = "https://api.openai.com/v1"
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

// wire hands the model to a runner: the locator, judge and actor, and the
// agent configuration that enters every cache key.
func (m *model) wire(o *runner.Options) {
	o.Model, o.Judge, o.Actor = m.locator, m.judge, m.actor
	o.Agent = session.AgentConfig{Model: m.name, Prompt: agent.PromptVersion()}
}
