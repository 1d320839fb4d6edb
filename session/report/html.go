package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/run"
)

//go:embed html.tmpl
var htmlTemplate string

var htmlPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":   func(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) },
	"inc":   func(i int) int { return i + 1 },
	"count": func(n int, word string) string { return plural.Count(n, word) },
	"json": func(v any) (template.JS, error) {
		b, err := json.Marshal(v)
		return template.JS(b), err
	},
}).Parse(htmlTemplate))

type htmlView struct {
	Title     string
	Heading   string // "e2e run 12", or for a merged report the runs it merged
	Status    string
	RunID     int64
	Project   string
	Version   string
	Shard     string
	Workers   int
	Started   string
	S         Summary
	Duration  string
	Tests     []htmlTest
	Generated string
	Slowest   []htmlSlow // from the store's history (html_history.go)
	// Sessions are the sessions whose flow failed, each failure shown once.
	Sessions []SessionFailure
	History  bool // the tests have history strips
}

type htmlTest struct {
	ID                     string
	Name, File, Status     string
	Class                  string // passed, failed or notrun (its session's flow failed)
	Error                  string
	Duration               string
	Attempts               int
	Flaky, Healed, Crashed bool
	AttemptErrors          []string
	Steps                  []htmlStep
	Snapshot               string
	SnapshotStep           int
	Video                  []string
	VideoMS                []int64
	Heals                  []htmlHeal
	History                *htmlHistory // its last runs, from the store
	// Trace is the script that holds the test's trace for the viewer
	// (files/trace-t1.js), TraceError why its trace file could not be read.
	Trace, TraceError string
}

type htmlStep struct {
	N, Line                   int
	Depth                     int  // 0 for a test's own step; a flow's steps are one deeper than their use step, shown indented
	Use                       bool // a step that used a flow
	Text, Status, Mark, Class string
	Cache, MissReason, Error  string
	Reidentified              string // how sure a re-identification was: 0.82 (next: button "Save" 0.41)
	Duration, Tokens, Note    string
	Shot                      string
	LLMCalls                  int
}

type htmlHeal struct {
	ID                   int64
	Status, Reason, Goal string
	Rows                 []diffRow
}

type diffRow struct {
	Old, New           string
	OldClass, NewClass string
}

// WriteHTML writes a self-contained HTML report into dir: index.html with
// its styles and scripts inline, and the screenshots and video frames it
// shows copied under dir/files, so the folder opens from disk (or as a CI
// artifact) without a server. It returns the path of index.html.
func WriteHTML(dir string, in *Input) (string, error) {
	files := filepath.Join(dir, "files")
	if err := os.MkdirAll(files, 0o755); err != nil {
		return "", fmt.Errorf("html report: %w", err)
	}
	rep := in.Report
	s := Summarize(in)
	v := htmlView{Title: "e2e report — run " + strconv.FormatInt(rep.Run.ID, 10), Status: rep.Run.Status, RunID: rep.Run.ID,
		Project: rep.Run.Project, Version: rep.Run.Version, Shard: in.Shard, Workers: in.Workers,
		Started: rep.Run.StartedAt.Local().Format("2006-01-02 15:04:05"), S: s, Duration: s.Duration.Round(time.Millisecond).String(),
		Generated: time.Now().Format(time.RFC3339)}
	v.Heading = "e2e run " + strconv.FormatInt(rep.Run.ID, 10)
	if len(in.Merged) > 0 {
		v.Title, v.Heading = "e2e report — "+mergedName(in), "e2e "+mergedName(in)
	}
	copied := map[string]string{}
	copyIn := func(src, name string) string {
		if src == "" {
			return ""
		}
		if rel, ok := copied[src]; ok {
			return rel
		}
		b, err := os.ReadFile(rep.Open(src))
		if err != nil {
			return ""
		}
		if err := os.WriteFile(filepath.Join(files, name), b, 0o644); err != nil {
			return ""
		}
		copied[src] = "files/" + name
		return copied[src]
	}
	ids := map[string]string{}
	for i, t := range rep.Tests {
		ids[t.Name] = fmt.Sprintf("t%d", i+1)
	}
	history, slowest := historyViews(in, ids)
	var err error
	v.Slowest, v.History, v.Sessions = slowest, history != nil, SessionFailures(rep)
	for i, t := range rep.Tests {
		d := detail(rep, i)
		ht := htmlTest{History: history[t.Name], ID: fmt.Sprintf("t%d", i+1), Name: t.Name, File: t.File, Status: string(t.Status),
			Class: testClass(t.Status), Error: t.Error,
			Duration: Ms(t.DurationMS), Attempts: max(d.Attempts, 1), Flaky: d.Flaky, Healed: Healed(t, d), Crashed: d.Crashed,
			AttemptErrors: d.AttemptErrors, Snapshot: d.Snapshot, SnapshotStep: d.SnapshotStep + 1}
		if t.Status == session.TestNotRun && d.NotRun != nil {
			// The flow's failure is shown once, above the tests.
			ht.Error = "not run: " + d.NotRun.Reason() + " (see above)"
		}
		for _, st := range t.Steps {
			hs := htmlStep{N: st.Index + 1, Line: st.Line, Text: Describe(st.Command), Status: string(st.Status), Mark: Mark(string(st.Status)),
				Class: stepClass(st.Status), Cache: st.Cache, MissReason: st.MissReason, Error: st.Error, Duration: fmt.Sprintf("%d ms", st.DurationMS),
				Note: st.Note, LLMCalls: st.LLMCalls, Reidentified: run.ReidentifiedText(st.Reidentified), Depth: min(st.Depth, 6), Use: st.Kind == session.KindUse}
			if tk, ok := d.Tokens[st.Index]; ok && tk.In+tk.Out > 0 {
				hs.Tokens = fmt.Sprintf("%d in / %d out", tk.In, tk.Out)
			}
			hs.Shot = copyIn(st.Screenshot, fmt.Sprintf("t%d-step%d%s", i+1, st.Index+1, filepath.Ext(st.Screenshot)))
			ht.Steps = append(ht.Steps, hs)
		}
		if d.Trace != "" {
			ht.Trace, err = writeTraceScript(dir, ht.ID, rep.Open(d.Trace), in.Redactor)
			if err != nil {
				ht.TraceError = err.Error()
			}
		}
		for k, f := range d.Video {
			if rel := copyIn(f, fmt.Sprintf("t%d-frame%04d.jpg", i+1, k+1)); rel != "" {
				ht.Video = append(ht.Video, rel)
				if k < len(d.VideoMS) {
					ht.VideoMS = append(ht.VideoMS, d.VideoMS[k])
				}
			}
		}
		for _, id := range d.Heals {
			if h := in.Heals[id]; h != nil {
				ht.Heals = append(ht.Heals, htmlHeal{ID: h.ID, Status: h.Status, Reason: h.Reason, Goal: h.Goal, Rows: diffSteps(h.OldSteps, h.NewSteps)})
			}
		}
		v.Tests = append(v.Tests, ht)
	}
	var buf bytes.Buffer
	if err := htmlPage.Execute(&buf, v); err != nil {
		return "", fmt.Errorf("html report: %w", err)
	}
	index := filepath.Join(dir, "index.html")
	if err := writeAtomic(index, in.Redactor.Bytes(buf.Bytes())); err != nil {
		return "", err
	}
	return index, nil
}

// mergedName names the runs of a merged report: "run group 41 (runs 3, 4,
// 5)", or "runs 3, 4, 5".
func mergedName(in *Input) string {
	var ids, shards []string
	for _, m := range in.Merged {
		ids = append(ids, strconv.FormatInt(m.ID, 10))
		if m.Shard != "" {
			shards = append(shards, m.Shard)
		}
	}
	s := "runs " + strings.Join(ids, ", ")
	if len(shards) > 0 {
		s += " (shards " + strings.Join(shards, ", ") + ")"
	}
	if in.Group != "" {
		s = "run group " + in.Group + ": " + s
	}
	return s
}

// testClass is the class of a test's status in the page.
func testClass(s session.TestStatus) string {
	switch s {
	case session.TestPassed:
		return "passed"
	case session.TestNotRun:
		return "notrun"
	}
	return "failed"
}

func stepClass(s session.StepStatus) string {
	switch s {
	case session.StatusFailed:
		return "failed"
	case session.StatusSkipped:
		return "skipped"
	case session.StatusHit:
		return "hit"
	case session.StatusReidentified:
		return "reidentified"
	}
	return "passed"
}

// diffSteps lines two step lists up side by side: steps in both (by their
// longest common subsequence) on one row, removed ones on the left only,
// added ones on the right only.
func diffSteps(old, new []string) []diffRow {
	a, b := make([]string, len(old)), make([]string, len(new))
	for i, c := range old {
		a[i] = Command(c)
	}
	for i, c := range new {
		b[i] = Command(c)
	}
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var rows []diffRow
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			rows = append(rows, diffRow{Old: a[i], New: b[j], OldClass: "same", NewClass: "same"})
			i++
			j++
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			rows = append(rows, diffRow{New: b[j], OldClass: "none", NewClass: "add"})
			j++
		default:
			rows = append(rows, diffRow{Old: a[i], OldClass: "del", NewClass: "none"})
			i++
		}
	}
	return rows
}
