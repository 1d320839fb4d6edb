package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/run"
)

// ModelUse is a run's model use in total.
type ModelUse struct {
	Calls, TokensIn, TokensOut int
	Cost                       float64
}

// Part is one run to merge into one report: a shard's, read from its JSON
// report (ReadParts) or from the store.
type Part struct {
	// Source says where the part came from, for messages: a file, or
	// "run 12".
	Source  string
	Report  *run.Report
	Shard   string
	Workers int
	// History is the history of the part's tests, through its run.
	History []session.TestHistory
	// Model is the part's model use.
	Model ModelUse
}

// Merge builds one report out of the runs of a sharded suite (or any runs
// of one project): every test of every part once, its steps, details and
// history as its part had them, ordered by file, then by the line of the
// test's first step, then by name; the run's summary counted over them all
// (model use summed over the parts). A test found in two parts (a shard
// run again) is taken from the part that started later, and a note says
// so. It returns an error when there is no part, or when two parts are of
// different projects.
func Merge(parts []Part) (*Input, []string, error) {
	if len(parts) == 0 {
		return nil, nil, errors.New("merge: no report to merge")
	}
	parts = slices.Clone(parts)
	sort.SliceStable(parts, func(a, b int) bool {
		return parts[a].Report.Run.StartedAt.Before(parts[b].Report.Run.StartedAt)
	})
	first := parts[0].Report.Run
	for _, p := range parts[1:] {
		if p.Report.Run.Project != first.Project {
			return nil, nil, fmt.Errorf("merge: %s is of project %q and %s of project %q: a merged report is of one project",
				parts[0].Source, first.Project, p.Source, p.Report.Run.Project)
		}
	}
	type owned struct {
		part int
		at   int // index in the part's tests
	}
	owner := map[string]owned{}
	var notes []string
	for k, p := range parts {
		for i, t := range p.Report.Tests {
			if prev, ok := owner[t.Name]; ok {
				notes = append(notes, fmt.Sprintf("test %q is in %s and %s: the later one is kept", t.Name, parts[prev.part].Source, p.Source))
			}
			owner[t.Name] = owned{k, i}
		}
	}
	names := make([]string, 0, len(owner))
	for n := range owner {
		names = append(names, n)
	}
	firstLine := func(t session.TestResult) int {
		if len(t.Steps) == 0 {
			return 0
		}
		return t.Steps[0].Line
	}
	test := func(n string) session.TestResult { o := owner[n]; return parts[o.part].Report.Tests[o.at] }
	sort.Slice(names, func(a, b int) bool {
		ta, tb := test(names[a]), test(names[b])
		if ta.File != tb.File {
			return ta.File < tb.File
		}
		if la, lb := firstLine(ta), firstLine(tb); la != lb {
			return la < lb
		}
		return ta.Name < tb.Name
	})
	rep := &run.Report{Run: session.Run{ID: first.ID, Project: first.Project, StartedAt: first.StartedAt, Version: first.Version,
		Branch: first.Branch, Commit: first.Commit, BaseURL: first.BaseURL, Variant: first.Variant, Group: first.Group, Status: "passed"}}
	in := &Input{Report: rep, Model: &ModelUse{}, Heals: map[int64]*session.Heal{}, Group: first.Group}
	rep.Dir = parts[0].Report.Dir
	for _, p := range parts {
		if p.Report.Dir != rep.Dir {
			rep.Dir = "" // each part's paths were made to stand alone (FromJSON)
		}
	}
	histories := map[string]session.TestHistory{}
	for k, p := range parts {
		r := p.Report.Run
		if r.FinishedAt.After(rep.Run.FinishedAt) {
			rep.Run.FinishedAt = r.FinishedAt
		}
		if r.Group != in.Group {
			in.Group = ""
		}
		in.Merged = append(in.Merged, MergedRun{ID: r.ID, Shard: r.Shard, Status: r.Status, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt, Source: p.Source})
		in.Model.Calls += p.Model.Calls
		in.Model.TokensIn += p.Model.TokensIn
		in.Model.TokensOut += p.Model.TokensOut
		in.Model.Cost += p.Model.Cost
		for _, h := range p.History {
			if o, ok := owner[h.Name]; ok && o.part == k {
				histories[h.Name] = h
			}
		}
	}
	rep.Run.Group = in.Group
	for _, n := range names {
		o := owner[n]
		pr := parts[o.part].Report
		t := pr.Tests[o.at]
		rep.Tests = append(rep.Tests, t)
		rep.Run.Tests = append(rep.Run.Tests, t.Name)
		rep.Details = append(rep.Details, detail(pr, o.at))
		if t.Status != session.TestPassed {
			rep.Run.Status = "failed"
		}
		if h, ok := histories[n]; ok {
			in.History = append(in.History, h)
		}
	}
	for _, p := range parts {
		if s := p.Report.Run.Status; s != "passed" && s != "failed" && rep.Run.Status == "passed" {
			rep.Run.Status = s // interrupted, running
		}
	}
	return in, notes, nil
}

// ReadParts reads the JSON reports at paths for Merge: a path that is a
// file is one report; a directory is searched, with its subdirectories, for
// *.json files that are e2e JSON reports (other JSON files are passed
// over). Screenshot and video paths of a report that name a file beside it
// (as a CI artifact keeps .e2e/screenshots next to the report) are made to
// point at it. Errors: a path that is not there, a directory with no report
// in it, a file that is not valid JSON (named with its line and column: a
// report cut short says so), a file given that is not an e2e report.
func ReadParts(paths []string) ([]Part, error) {
	var parts []Part
	seen := map[string]bool{}
	add := func(file string, must bool) (bool, error) {
		abs, err := filepath.Abs(file)
		if err == nil && seen[abs] {
			return true, nil
		}
		seen[abs] = true
		j, err := ReadJSONReport(file)
		if errors.Is(err, errNotReport) && !must {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		parts = append(parts, FromJSON(j, file))
		return true, nil
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, unwrapPathErr(err))
		}
		if !st.IsDir() {
			if _, err := add(p, true); err != nil {
				return nil, err
			}
			continue
		}
		found := 0
		err = filepath.WalkDir(p, func(f string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.EqualFold(filepath.Ext(f), ".json") {
				return nil
			}
			ok, err := add(f, false)
			if ok {
				found++
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if found == 0 {
			return nil, fmt.Errorf("%s: no e2e JSON report in it (e2e run --reporter json=FILE writes one)", p)
		}
	}
	return parts, nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

var errNotReport = errors.New("not an e2e JSON report")

// ReadJSONReport reads a JSON report that WriteJSON wrote. A file that is
// not valid JSON is an error naming it with the line and column where it
// goes wrong (a report cut short: where it ends); valid JSON that is not
// an e2e report (no run, no tests) is an error wrapping errNotReport.
func ReadJSONReport(path string) (*JSON, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, unwrapPathErr(err))
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, jsonError(path, b, err)
	}
	if probe["run"] == nil || probe["tests"] == nil || probe["summary"] == nil {
		return nil, fmt.Errorf("%s: %w (it has no run, summary and tests)", path, errNotReport)
	}
	var j JSON
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, jsonError(path, b, err)
	}
	return &j, nil
}

// jsonError names the place in b where decoding failed: path:line:col.
func jsonError(path string, b []byte, err error) error {
	off := int64(-1)
	what := err.Error()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if strings.Contains(what, "unexpected end of JSON input") {
		off = int64(len(b))
		what = fmt.Sprintf("the report is cut short: it ends at byte %d before its JSON does", len(b))
	}
	if off < 0 {
		return fmt.Errorf("%s: %s", path, what)
	}
	off = min(off, int64(len(b)))
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	col := int(off) - bytes.LastIndexByte(b[:off], '\n')
	return fmt.Errorf("%s:%d:%d: not a valid JSON report: %s", path, line, col, what)
}

// FromJSON turns a JSON report read from file into a Part: its tests with
// their steps (a flow's steps one depth under their use step), details,
// history and model use. Relative screenshot and video paths that name a
// file under the report's directory are joined to it.
func FromJSON(j *JSON, file string) Part {
	dir := filepath.Dir(file)
	resolve := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		if q := filepath.Join(dir, filepath.FromSlash(p)); exists(q) {
			return filepath.ToSlash(q)
		}
		return p
	}
	rep := &run.Report{Run: session.Run{ID: j.Run.ID, Project: j.Run.Project, Status: j.Run.Status, StartedAt: j.Run.StartedAt,
		FinishedAt: j.Run.FinishedAt, Version: j.Run.Version, Shard: j.Run.Shard, Group: j.Run.Group}}
	p := Part{Source: file, Report: rep, Shard: j.Run.Shard, Workers: j.Run.Workers,
		Model: ModelUse{Calls: j.Summary.ModelCalls, TokensIn: j.Summary.TokensIn, TokensOut: j.Summary.TokensOut, Cost: j.Summary.Cost}}
	for _, jt := range j.Tests {
		t := session.TestResult{RunID: j.Run.ID, Name: jt.Name, File: jt.File, Status: session.TestStatus(jt.Status), Error: jt.Error, DurationMS: jt.MS, Attempts: jt.Attempts}
		d := run.TestDetail{Attempts: jt.Attempts, Flaky: jt.Flaky, AttemptErrors: jt.AttemptErrors, Worker: jt.Worker, Crashed: jt.Crashed,
			Snapshot: jt.Snapshot, SnapshotStep: jt.SnapshotStep, VideoMS: jt.VideoMS, Heals: jt.Heals, Tokens: map[int]run.Tokens{}, Trace: resolve(jt.Trace)}
		for _, f := range jt.Video {
			d.Video = append(d.Video, resolve(f))
		}
		if t.Status == session.TestNotRun {
			d.NotRun = notRunBy(j.SessionFailures, jt.Error)
		}
		var flatten func(steps []JSONStep, depth int)
		flatten = func(steps []JSONStep, depth int) {
			for _, js := range steps {
				t.Steps = append(t.Steps, session.StepResult{Index: js.Index, Depth: depth, Line: js.Line, Command: js.Command, Kind: js.Kind,
					Status: session.StepStatus(js.Status), Cache: js.Cache, MissReason: js.MissReason, Error: js.Error, Screenshot: resolve(js.Screenshot),
					DurationMS: js.MS, LLMCalls: js.LLMCalls, Note: js.Note, Reidentified: js.Reidentified, Nearest: js.Nearest, Narrow: js.Narrow})
				if js.TokensIn+js.TokensOut > 0 || js.Cost > 0 {
					d.Tokens[js.Index] = run.Tokens{In: js.TokensIn, Out: js.TokensOut, Cost: js.Cost}
				}
				flatten(js.Steps, depth+1)
			}
		}
		flatten(jt.Steps, 0)
		rep.Tests = append(rep.Tests, t)
		rep.Details = append(rep.Details, d)
		rep.Run.Tests = append(rep.Run.Tests, t.Name)
		if len(jt.History) > 0 {
			h := session.TestHistory{Name: jt.Name}
			for _, r := range jt.History {
				h.Runs = append(h.Runs, session.TestRun{RunID: r.Run, At: r.At, RunStatus: r.RunStatus, Branch: r.Branch, Commit: r.Commit,
					Shard: r.Shard, BaseURL: r.BaseURL, Variant: r.Variant, Outcome: r.Outcome, DurationMS: r.MS, Attempts: r.Attempts, Error: r.Error})
			}
			p.History = append(p.History, h)
		}
	}
	return p
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// notRunBy is the session failure a test that did not run names in its
// error (the report says each failure once; its tests name the session),
// or the only one there is.
func notRunBy(fs []JSONSessionFailure, testErr string) *run.SessionFailure {
	var found *run.SessionFailure
	for _, f := range fs {
		sf := run.SessionFailure{Session: f.Session, File: f.File, Line: f.Line, Flow: f.Flow, Failure: f.Error}
		if strings.Contains(testErr, sf.Reason()) || len(fs) == 1 {
			found = &sf
			break
		}
	}
	return found
}
