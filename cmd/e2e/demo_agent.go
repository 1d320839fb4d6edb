package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"path"
	"path/filepath"
	"sort"
	"text/tabwriter"
	"time"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/scripted"
	"github.com/e2e-dev/e2e/examples"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/redact"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// agentPhases are the runs of the act examples, in order, on one store.
// Between them the demo reviews heals the way an engineer would.
var agentPhases = []struct {
	name, variants string
	review         string // after the run: "reject" or "accept" its heals
}{
	{"cold (records)", "", ""},
	{"warm (replays)", "", ""},
	{"popup (heals)", "popup", ""},
	{"popup again", "popup", "reject"},
	{"redesign (heals)", "redesign", ""},
	{"redesign again", "redesign", "accept"},
}

// demoAgent runs the act examples: recorded by the model, replayed without
// it, healed when the app changes. With no model configured it uses the
// scripted model bundled with the examples, and says so. With keep set it
// leaves the redesign's heal staged instead of accepting it, writes the
// kept project and prints the commands to try in it. pr (nil: none) is
// told as each run starts and ends.
func demoAgent(ctx context.Context, out io.Writer, pr *demoProgress, verbose bool, dir, base string, b *browser.Browser, db *store.DB,
	env func(string) (string, bool), red *redact.Redactor, keep *keptProject) error {
	cfg, tests, err := demoAgentSuite(dir, base)
	if err != nil {
		return err
	}
	project, shots := "examples-agent", filepath.Join(dir, "screenshots")
	if keep != nil {
		project, shots, cfg.Cache.App = "", keep.screenshots(), demoApp
	}
	// A replayed step that cannot succeed waits this long for its element
	// before the heal starts (e2e.yaml's timeouts.step in a real suite).
	cfg.Timeouts.Step = 2 * time.Second
	rec := &runCalls{rec: db}
	m, err := configuredModel(cfg, modelFlags{}, rec, red)
	if err != nil {
		return err
	}
	var actor session.Actor
	// The agent configuration enters the cache keys as in e2e run, so that
	// a kept project replays what the demo recorded.
	agentCfg := demoAgentConfig(m)
	if m != nil {
		actor = m.actor
		fmt.Fprintf(out, "\nact examples: %s, model %s\n", plural.Count(len(tests), "test"), m.about)
	} else {
		stop, a, err := scriptedActor(rec, red)
		if err != nil {
			return err
		}
		defer stop()
		actor = a
		fmt.Fprintf(out, "\nact examples: %s. No model is configured, so they use the scripted model bundled with the\n", plural.Count(len(tests), "test"))
		fmt.Fprintln(out, "examples (examples/agent/model.json): it plays written answers through the real agent, tools and")
		fmt.Fprintln(out, "client, but it does not think, and its token counts are estimates. Set OPENAI_BASE_URL and E2E_MODEL")
		fmt.Fprintln(out, "to use a real model.")
		fmt.Fprintln(out)
	}
	if keep != nil {
		if err := keep.write(m == nil); err != nil {
			return fmt.Errorf("demo --keep: %w", err)
		}
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "run\ttests passed\tacts\treplayed\thealed\tmodel calls\ttokens\tmedian ms/act\t")
	type healRow struct {
		phase, test         string
		old, new, ins, dels int
		calls               int
	}
	var heals []healRow
	var failures []string
	var coldMS, warmMS float64
	for i, ph := range agentPhases {
		w := io.Discard
		if verbose {
			fmt.Fprintf(out, "── %s\n", ph.name)
			w = out
		}
		r, err := runner.New(runner.Options{Config: cfg, Project: project, Store: db, Browser: b, Out: w, Env: env,
			Actor: actor, Agent: agentCfg, Variants: ph.variants, Version: toolVersion(), Screenshots: shots,
			OnRunStart: func(id int64) { rec.runID.Store(id) }, Redactor: red})
		if err != nil {
			return err
		}
		pr.started(ph.name, len(tests))
		rep, err := r.Run(ctx, tests)
		if err != nil {
			return err
		}
		pr.finished(ph.name, rep)
		calls, err := db.ModelCalls(ctx, rep.Run.ID)
		if err != nil {
			return err
		}
		tokens := 0
		for _, c := range calls {
			tokens += c.TokensIn + c.TokensOut
		}
		passed, acts, replayed, healed := 0, 0, 0, 0
		for _, t := range rep.Tests {
			if t.Status == "passed" {
				passed++
			} else {
				failures = append(failures, fmt.Sprintf("  %s — %s: %s", ph.name, t.Name, t.Error))
			}
			for _, s := range t.Steps {
				if s.Kind != "ACT" {
					continue
				}
				acts++
				switch s.Status {
				case session.StatusHit:
					replayed++
				case session.StatusRelocated:
					healed++
				}
			}
		}
		isAct := func(s session.StepResult) bool { return s.Kind == "ACT" && s.Status != session.StatusFailed }
		med := runner.MedianMS(rep.Tests, isAct)
		switch i {
		case 0:
			coldMS = med
		case 1:
			warmMS = med
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%d\t%d\t%d\t%d\t%d\t%.0f\t\n", ph.name, passed, len(rep.Tests), acts, replayed, healed, len(calls), tokens, med)

		staged, err := db.Heals(ctx, "staged")
		if err != nil {
			return err
		}
		for _, t := range rep.Tests {
			for _, s := range t.Steps {
				if s.Kind != "ACT" || s.Status != session.StatusRelocated {
					continue
				}
				for _, h := range staged {
					if h.Test == t.Name && h.CreatedAt.After(rep.Run.StartedAt) {
						ins, dels := changed(h.OldSteps, h.NewSteps)
						heals = append(heals, healRow{ph.name, t.Name, len(h.OldSteps), len(h.NewSteps), ins, dels, s.LLMCalls})
					}
				}
			}
		}
		// A kept project keeps the redesign's heal staged, for the
		// newcomer to review.
		if ph.review != "" && (keep == nil || ph.review != "accept") {
			for _, h := range staged {
				if _, err := db.DecideHeal(ctx, h.ID, ph.review == "accept", "e2e demo"); err != nil {
					return err
				}
			}
		}
	}
	tw.Flush()
	if warmMS > 0 {
		fmt.Fprintf(out, "\nmedian act: %.0f ms with the model, %.0f ms replayed without it (%.1f× faster)\n", coldMS, warmMS, coldMS/warmMS)
		if m == nil {
			fmt.Fprintln(out, "(the scripted model answers at once: with a real model each of its calls adds its own latency)")
		}
	}
	if len(heals) > 0 {
		fmt.Fprintln(out, "\nheals (each staged for review; the demo rejects the popup ones, since the newsletter modal is a")
		if keep == nil {
			fmt.Fprintln(out, "passing campaign, and accepts the redesign ones, since the redesign shipped):")
		} else {
			fmt.Fprintln(out, "passing campaign, and leaves the redesign ones staged, for you to review):")
		}
		tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  run\ttest\tsteps\tchanged\tmodel calls")
		for _, h := range heals {
			fmt.Fprintf(tw, "  %s\t%s\t%d → %d\t+%d −%d\t%d\n", h.phase, h.test, h.old, h.new, h.ins, h.dels, h.calls)
		}
		tw.Flush()
	}
	if len(failures) > 0 {
		fmt.Fprintln(out, "\nfailed act tests:")
		for _, f := range failures {
			fmt.Fprintln(out, f)
		}
	}
	if keep != nil {
		return keep.printNext(ctx, out, db)
	}
	return nil
}

// demoAgentConfig is the agent configuration of the demo's cache keys: the
// configured model's, else the scripted one's, as e2e run has it in a kept
// project.
func demoAgentConfig(m *model) session.AgentConfig {
	if m != nil {
		return session.AgentConfig{Model: m.name, Prompt: agent.PromptVersion()}
	}
	return session.AgentConfig{Model: "scripted", Prompt: agent.PromptVersion()}
}

// changed counts the steps a heal inserted and deleted, the old and new
// steps aligned by identity (session.DiffSteps): a step the heal kept is
// unchanged, one it kept with another value counts as one out, one in.
func changed(old, new []string) (ins, dels int) {
	for _, d := range session.DiffSteps(old, new) {
		switch d.Op {
		case session.DiffInsert:
			ins++
		case session.DiffDelete:
			dels++
		case session.DiffChanged:
			ins++
			dels++
		}
	}
	return ins, dels
}

// scriptedActor serves the bundled playbook on a loopback port and returns
// an agent that talks to it through the real client.
func scriptedActor(rec *runCalls, red *redact.Redactor) (stop func(), a *agent.Actor, err error) {
	b, err := fs.ReadFile(examples.FS, "agent/model.json")
	if err != nil {
		return nil, nil, err
	}
	book, err := scripted.Parse(b)
	if err != nil {
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{Handler: scripted.New(book), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	client, err := agent.New(agent.Config{BaseURL: "http://" + ln.Addr().String() + "/v1", Model: "scripted", APIKey: "none", Recorder: rec, Redactor: red})
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return func() { srv.Close() }, &agent.Actor{Client: client}, nil
}

// demoAgentSuite reads the embedded act examples, pointed at the fixture.
func demoAgentSuite(dir, base string) (*testfile.Config, []*testfile.Test, error) {
	cfg, _, err := demoSuite(dir, base)
	if err != nil {
		return nil, nil, err
	}
	names, err := fs.Glob(examples.FS, "agent/*.e2e.yaml")
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(names)
	var tests []*testfile.Test
	for _, n := range names {
		b, err := fs.ReadFile(examples.FS, n)
		if err != nil {
			return nil, nil, err
		}
		t, err := testfile.Parse(path.Join("examples", n), b)
		if err != nil {
			return nil, nil, err
		}
		tests = append(tests, t)
	}
	return cfg, tests, nil
}
