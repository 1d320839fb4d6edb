package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/report"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/testfile"
)

type runTestsIn struct {
	Paths   []string `json:"paths,omitempty" jsonschema:"test files, directories or globs relative to the project (default: the tests e2e.yaml names)"`
	Grep    string   `json:"grep,omitempty" jsonschema:"run only the tests whose name matches this regular expression"`
	Variant string   `json:"variant,omitempty" jsonschema:"append ?variant=… to start URLs (the fixture app)"`
}

func runTests(s *Server, ctx context.Context, req *sdk.CallToolRequest, in runTestsIn) (any, error) {
	var grep *regexp.Regexp
	if in.Grep != "" {
		var err error
		if grep, err = regexp.Compile(in.Grep); err != nil {
			return nil, fmt.Errorf("grep: %w", err)
		}
	}
	var paths []string
	for _, p := range in.Paths {
		abs, _, err := s.projectPath(p)
		if err != nil {
			return nil, err
		}
		paths = append(paths, abs)
	}
	found, err := testfile.Discover(s.o.Config, paths)
	if err != nil {
		return nil, err
	}
	// A glob or a directory finds the files a symbolic link names too: one
	// that leads out of the project is refused, as its path given directly is.
	for _, p := range found {
		if err := s.inProject(p); err != nil {
			return nil, err
		}
	}
	var tests []*testfile.Test
	var problems []error
	for _, p := range found {
		t, err := testfile.ParseFile(p)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		tests = append(tests, t)
	}
	problems = append(problems, testfile.LinkFlows(s.o.Config, tests)...)
	if len(problems) > 0 {
		return nil, fmt.Errorf("%d file(s) have problems:\n%w", len(problems), errors.Join(problems...))
	}
	tests = runner.Filter(tests, grep, nil)
	if len(tests) == 0 {
		return nil, fmt.Errorf("no tests to run (looked for %v under %s)", s.o.Config.Tests, s.o.Config.Dir)
	}
	if lists := testfile.Preflight(tests, testfile.PreflightOptions{BaseURL: s.o.Config.BaseURL, CheckKeys: browser.CheckKeys}); len(lists) > 0 {
		errs := make([]error, len(lists))
		for i, l := range lists {
			errs[i] = l
		}
		return nil, errors.Join(errs...)
	}
	b, err := s.browser(ctx)
	if err != nil {
		return nil, err
	}
	o := s.runnerOptions(b)
	if in.Variant != "" {
		o.Variants = in.Variant
	}
	token := req.Params.GetProgressToken()
	o.Suite.OnTestDone = func(p runner.Progress) {
		if token == nil || req.Session == nil {
			return
		}
		msg := fmt.Sprintf("%s: %s", p.Test.Name, p.Test.Status)
		_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Progress: float64(p.Done), Total: float64(p.Total),
			Message: s.o.Redactor.String(msg)})
	}
	var runID atomic.Int64
	onStart := o.OnRunStart
	o.OnRunStart = func(id int64) {
		runID.Store(id)
		if onStart != nil {
			onStart(id)
		}
	}
	r, err := runner.New(o)
	if err != nil {
		return nil, err
	}
	rep, err := r.Run(ctx, tests)
	if cerr := ctx.Err(); cerr != nil {
		// The client went away (or cancelled the call) before the run
		// ended: no one will see its results, so none are kept.
		if id := runID.Load(); id != 0 {
			if derr := s.o.Store.DeleteRun(context.WithoutCancel(ctx), id); derr != nil {
				return nil, fmt.Errorf("roll back the run its client left: %w", derr)
			}
		}
		return nil, cerr
	}
	if err != nil {
		return nil, err
	}
	in2 := &report.Input{Report: rep, Heals: map[int64]*session.Heal{}, Redactor: s.o.Redactor}
	if in2.Calls, err = s.o.Store.ModelCalls(context.WithoutCancel(ctx), rep.Run.ID); err != nil {
		return nil, err
	}
	j := report.ToJSON(in2)
	raw, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.last = s.o.Redactor.JSON(raw)
	s.mu.Unlock()
	return j, nil
}
