package report

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// JSON is the JSON report: the run, its summary, and every test with
// every step.
type JSON struct {
	Run struct {
		ID         int64     `json:"id"`
		Project    string    `json:"project"`
		Status     string    `json:"status"`
		StartedAt  time.Time `json:"startedAt"`
		FinishedAt time.Time `json:"finishedAt"`
		Version    string    `json:"version"`
		Shard      string    `json:"shard,omitempty"`
		Workers    int       `json:"workers,omitempty"`
		// Group is the run group (--run-group) the run belongs to.
		Group string `json:"group,omitempty"`
		// Merged are, in a merged report, the runs it was built from.
		Merged []MergedRun `json:"merged,omitempty"`
	} `json:"run"`
	Summary JSONSummary `json:"summary"`
	// SessionFailures are the sessions whose flow failed, each with its
	// failure once; the tests that needed one are "not run".
	SessionFailures []JSONSessionFailure `json:"sessionFailures,omitempty"`
	Tests           []JSONTest           `json:"tests"`
}

// JSONSessionFailure is a session whose capture failed.
type JSONSessionFailure struct {
	Session string `json:"session"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Flow    string `json:"flow"`
	Error   string `json:"error"`  // the flow's own failure
	NotRun  int    `json:"notRun"` // the tests it left not run
}

// JSONSummary counts the run.
type JSONSummary struct {
	Tests        int     `json:"tests"`
	Passed       int     `json:"passed"`
	Failed       int     `json:"failed"`
	NotRun       int     `json:"notRun"` // tests not run: their session's flow failed
	Flaky        int     `json:"flaky"`
	Healed       int     `json:"healed"`
	Steps        int     `json:"steps"`
	Hits         int     `json:"hits"`
	Located      int     `json:"located"`
	Relocated    int     `json:"relocated"`
	Reidentified int     `json:"reidentified"` // found by likeness to the cached node; not hits
	Misses       int     `json:"misses"`
	Skipped      int     `json:"skipped"`
	CacheHitRate float64 `json:"cacheHitRate"`
	ModelCalls   int     `json:"modelCalls"`
	TokensIn     int     `json:"tokensIn"`
	TokensOut    int     `json:"tokensOut"`
	Cost         float64 `json:"cost"`
	MS           int64   `json:"ms"`
}

// JSONTest is one test.
type JSONTest struct {
	Name          string     `json:"name"`
	File          string     `json:"file"`
	Status        string     `json:"status"` // passed, failed, or not run (its session's flow failed: see sessionFailures)
	Error         string     `json:"error,omitempty"`
	MS            int64      `json:"ms"`
	Attempts      int        `json:"attempts"`
	Flaky         bool       `json:"flaky"`
	Healed        bool       `json:"healed"`
	Crashed       bool       `json:"crashed,omitempty"`
	Worker        int        `json:"worker,omitempty"`
	AttemptErrors []string   `json:"attemptErrors,omitempty"`
	Heals         []int64    `json:"heals,omitempty"`
	Snapshot      string     `json:"snapshot,omitempty"` // the page at the failure
	SnapshotStep  int        `json:"snapshotStep,omitempty"`
	Video         []string   `json:"video,omitempty"`   // screencast frames of a failed test
	VideoMS       []int64    `json:"videoMs,omitempty"` // each frame's time from the first
	Trace         string     `json:"trace,omitempty"`   // the test's trace file (docs/trace.md)
	Steps         []JSONStep `json:"steps"`
	// History is the test's recent runs, oldest first, through this one,
	// as the store knew them (absent when the run had no store history).
	History []JSONHistoryRun `json:"history,omitempty"`
}

// MergedRun is one of the runs a merged report was built from.
type MergedRun struct {
	ID         int64     `json:"id"`
	Shard      string    `json:"shard,omitempty"`
	Status     string    `json:"status"`
	StartedAt  time.Time `json:"startedAt"`
	FinishedAt time.Time `json:"finishedAt"`
	Source     string    `json:"source,omitempty"` // the JSON report it was read from
}

// JSONHistoryRun is one entry of a test's history (session.TestRun).
type JSONHistoryRun struct {
	Run       int64           `json:"run"`
	At        time.Time       `json:"at"`
	RunStatus string          `json:"runStatus,omitempty"`
	Branch    string          `json:"branch,omitempty"`
	Commit    string          `json:"commit,omitempty"`
	Shard     string          `json:"shard,omitempty"`
	BaseURL   string          `json:"baseURL,omitempty"`
	Variant   string          `json:"variant,omitempty"`
	Outcome   session.Outcome `json:"outcome"`
	MS        int64           `json:"ms,omitempty"`
	Attempts  int             `json:"attempts,omitempty"`
	Error     string          `json:"error,omitempty"`
}

// JSONStep is one step.
type JSONStep struct {
	Index      int     `json:"index"`
	Line       int     `json:"line"`
	Command    string  `json:"command"`
	Kind       string  `json:"kind"`
	Status     string  `json:"status"`
	Cache      string  `json:"cache"` // hit, miss or none
	MissReason string  `json:"missReason,omitempty"`
	Error      string  `json:"error,omitempty"`
	Screenshot string  `json:"screenshot,omitempty"`
	MS         int64   `json:"ms"`
	LLMCalls   int     `json:"llmCalls"`
	TokensIn   int     `json:"tokensIn"`
	TokensOut  int     `json:"tokensOut"`
	Cost       float64 `json:"cost"`
	Note       string  `json:"note,omitempty"` // an assert step's reasoning
	// Reidentified is how sure a re-identified step was: {score, runnerUp, second}.
	Reidentified *session.Reidentification `json:"reidentified,omitempty"`
	// Nearest and Narrow are advice on a step that found no element or
	// several (see docs/nearest.md).
	Nearest []session.NearElement `json:"nearest,omitempty"`
	Narrow  []session.Narrowing   `json:"narrow,omitempty"`
	// Steps are, on a use step (kind USE), the steps of the flow it ran;
	// their lines are in the flow's file.
	Steps []JSONStep `json:"steps,omitempty"`
}

// ToJSON converts a run.
func ToJSON(in *Input) *JSON {
	rep := in.Report
	var j JSON
	j.Run.ID, j.Run.Project, j.Run.Status = rep.Run.ID, rep.Run.Project, rep.Run.Status
	j.Run.StartedAt, j.Run.FinishedAt, j.Run.Version = rep.Run.StartedAt, rep.Run.FinishedAt, rep.Run.Version
	j.Run.Shard, j.Run.Workers, j.Run.Group, j.Run.Merged = in.Shard, in.Workers, in.Group, in.Merged
	histories := map[string]session.TestHistory{}
	for _, h := range in.History {
		histories[h.Name] = h
	}
	s := Summarize(in)
	j.Summary = JSONSummary{Tests: s.Total, Passed: s.Passed, Failed: s.Failed, NotRun: s.NotRun, Flaky: s.Flaky, Healed: s.Healed, Steps: s.Steps,
		Hits: s.Hits, Located: s.Located, Relocated: s.Relocated, Reidentified: s.Reidentified, Misses: s.Misses, Skipped: s.Skipped, CacheHitRate: s.CacheHitRate,
		ModelCalls: s.ModelCalls, TokensIn: s.TokensIn, TokensOut: s.TokensOut, Cost: s.Cost, MS: s.Duration.Milliseconds()}
	for _, f := range SessionFailures(rep) {
		j.SessionFailures = append(j.SessionFailures, JSONSessionFailure{Session: f.Session, File: f.File, Line: f.Line, Flow: f.Flow,
			Error: f.Failure, NotRun: f.Tests})
	}
	j.Tests = []JSONTest{}
	for i, t := range rep.Tests {
		d := detail(rep, i)
		jt := JSONTest{Name: t.Name, File: t.File, Status: string(t.Status), Error: t.Error, MS: t.DurationMS, Attempts: max(d.Attempts, 1),
			Flaky: d.Flaky, Healed: Healed(t, d), Crashed: d.Crashed, Worker: d.Worker, AttemptErrors: d.AttemptErrors, Heals: d.Heals,
			Snapshot: d.Snapshot, SnapshotStep: d.SnapshotStep, Video: d.Video, VideoMS: d.VideoMS, Trace: d.Trace, Steps: []JSONStep{}}
		for _, r := range histories[t.Name].Runs {
			jt.History = append(jt.History, JSONHistoryRun{Run: r.RunID, At: r.At, RunStatus: r.RunStatus, Branch: r.Branch, Commit: r.Commit,
				Shard: r.Shard, BaseURL: r.BaseURL, Variant: r.Variant, Outcome: r.Outcome, MS: r.DurationMS, Attempts: r.Attempts, Error: r.Error})
		}
		flat := make([]JSONStep, len(t.Steps))
		for k, st := range t.Steps {
			tk := d.Tokens[st.Index]
			flat[k] = JSONStep{Index: st.Index, Line: st.Line, Command: st.Command, Kind: st.Kind, Status: string(st.Status),
				Cache: st.Cache, MissReason: st.MissReason, Error: st.Error, Screenshot: st.Screenshot, MS: st.DurationMS,
				LLMCalls: st.LLMCalls, TokensIn: tk.In, TokensOut: tk.Out, Cost: tk.Cost, Note: st.Note, Reidentified: st.Reidentified,
				Nearest: st.Nearest, Narrow: st.Narrow}
		}
		jt.Steps = nest(t.Steps, flat)
		j.Tests = append(j.Tests, jt)
	}
	return &j
}

// nest puts each step of a flow (results with a Depth over 0) under the
// use step before it, one level up: js are the steps as JSON, in the order
// of steps.
func nest(steps []session.StepResult, js []JSONStep) []JSONStep {
	var build func(i, depth int) ([]JSONStep, int)
	build = func(i, depth int) ([]JSONStep, int) {
		out := []JSONStep{}
		for i < len(steps) && steps[i].Depth >= depth {
			if steps[i].Depth > depth { // no use step before it: kept at this level
				out = append(out, js[i])
				i++
				continue
			}
			s := js[i]
			i++
			if steps[i-1].Kind == session.KindUse {
				s.Steps, i = build(i, depth+1)
				if len(s.Steps) == 0 {
					s.Steps = nil
				}
			}
			out = append(out, s)
		}
		return out, i
	}
	out, _ := build(0, 0)
	return out
}

// WriteJSON writes the JSON report of a run to path.
func WriteJSON(path string, in *Input) error {
	b, err := json.MarshalIndent(ToJSON(in), "", "  ")
	if err != nil {
		return fmt.Errorf("json report: %w", err)
	}
	return writeAtomic(path, append(in.Redactor.JSON(b), '\n'))
}
