package run

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// Trace policies (SuiteOptions.Trace).
const (
	TraceOff             = "off"               // no trace: nothing is done per step
	TraceOn              = "on"                // every test attempt keeps its trace
	TraceRetainOnFailure = "retain-on-failure" // traces are recorded; only failed attempts keep theirs
)

// The bounds of a trace. A DOM snapshot stops at TraceDOMMax bytes of
// HTML (marked truncated); once a test's snapshots reach TraceTestDOMMax
// bytes together, its later steps keep none (the step says so). A step
// keeps at most TraceRequestsMax requests and TraceMessagesMax console
// messages (the rest are counted), each URL or message at most
// TraceTextMax characters, and an outline of at most TraceOutlineNodes
// nodes. The file is gzip-compressed.
const (
	TraceDOMMax       = 1 << 20
	TraceTestDOMMax   = 24 << 20
	TraceRequestsMax  = 500
	TraceMessagesMax  = 200
	TraceTextMax      = 2000
	TraceOutlineNodes = 600
	TraceVersion      = 1
)

// TraceFile is a test attempt's trace as its file holds it (JSON, gzip).
type TraceFile struct {
	Version int       `json:"version"`
	Test    string    `json:"test"`
	File    string    `json:"file"`
	Attempt int       `json:"attempt"`
	Status  string    `json:"status"`
	Error   string    `json:"error,omitempty"`
	Start   time.Time `json:"start"`
	MS      int64     `json:"ms"`
	// Steps are every step of the test, in order; those that did not run
	// (skipped) have no captures.
	Steps []TraceStep `json:"steps"`
	// Bounds are the limits the trace was recorded under.
	Bounds map[string]int `json:"bounds"`
}

// TraceStep is one step of a trace.
type TraceStep struct {
	Index      int    `json:"index"`
	Depth      int    `json:"depth,omitempty"`
	Line       int    `json:"line"`
	Command    string `json:"command"`
	Text       string `json:"text"` // the step as a person reads it
	Kind       string `json:"kind"`
	Status     string `json:"status"`
	Cache      string `json:"cache,omitempty"`
	MissReason string `json:"missReason,omitempty"`
	Error      string `json:"error,omitempty"`
	Note       string `json:"note,omitempty"`
	Screenshot string `json:"screenshot,omitempty"`
	// Start is when the step began, MS how long it took; Phases split it.
	Start  time.Time    `json:"start"`
	MS     int64        `json:"ms"`
	Phases []TracePhase `json:"phases,omitempty"`
	// Resolution is how the step's element was found, or why none was.
	Resolution *TraceResolution `json:"resolution,omitempty"`
	// Decision says it in plain words.
	Decision string `json:"decision,omitempty"`
	// Before is the page right before the step acted (with the element it
	// acted on marked data-e2e-target), After right after it ended.
	// BeforeFrom is "previous" when Before is the step before's After (a
	// step that looked up no element).
	Before     *browser.DOMSnapshot `json:"before,omitempty"`
	BeforeFrom string               `json:"beforeFrom,omitempty"`
	After      *browser.DOMSnapshot `json:"after,omitempty"`
	// Outline is the accessibility outline after the step.
	Outline string                   `json:"outline,omitempty"`
	Network []browser.Request        `json:"network,omitempty"`
	Console []browser.ConsoleMessage `json:"console,omitempty"`
	// Dropped counts what went over the bounds.
	Dropped *TraceDropped `json:"dropped,omitempty"`
	ran     bool
}

// TracePhase is a part of a step's time.
type TracePhase struct {
	Name string `json:"name"`
	MS   int64  `json:"ms"`
}

// TraceResolution is what the element lookup of a step decided (the
// runner's TargetEvent, with the step's result).
type TraceResolution struct {
	// Via is cache, re-identified, locate or model; "" when no element was
	// found, and Reason says why.
	Via     string   `json:"via,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	Ref     string   `json:"ref,omitempty"`
	Element string   `json:"element,omitempty"` // the snapshot line of the element the locator chose
	Why     []string `json:"why,omitempty"`
	LookMS  int64    `json:"lookMs,omitempty"`
	// Reidentified, Candidates, Nearest and Narrow are the step's: the
	// likeness scores, the candidates weighed, the nearest elements and
	// narrower descriptions.
	Reidentified *session.Reidentification `json:"reidentified,omitempty"`
	Candidates   []session.StepCandidate   `json:"candidates,omitempty"`
	Nearest      []session.NearElement     `json:"nearest,omitempty"`
	Narrow       []session.Narrowing       `json:"narrow,omitempty"`
}

// TraceDropped counts what a step's trace left out.
type TraceDropped struct {
	Network int    `json:"network,omitempty"`
	Console int    `json:"console,omitempty"`
	DOM     string `json:"dom,omitempty"` // why the DOM snapshots were left out
}

// tracer records one test attempt's trace (nil when the trace is off: the
// runner then does nothing for it).
type tracer struct {
	policy   string
	capture  *browser.Capture
	start    time.Time
	steps    map[int]*TraceStep // by result index
	cur      *TraceStep
	curStart time.Time
	target   time.Time // when the running step's element was found
	lastDOM  *browser.DOMSnapshot
	domBytes int
}

// startTrace starts the trace of a test attempt when the suite asks for
// one: the page's requests and console are captured from now on.
func (r *Runner) startTrace(ctx context.Context, tr *testRun) {
	if r.cap == nil || (r.o.Suite.Trace != TraceOn && r.o.Suite.Trace != TraceRetainOnFailure) {
		return
	}
	t := &tracer{policy: r.o.Suite.Trace, start: time.Now(), steps: map[int]*TraceStep{}}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if c, err := tr.page.StartCapture(cctx, browser.CaptureOptions{MaxRequests: TraceRequestsMax, MaxMessages: TraceMessagesMax, MaxText: TraceTextMax}); err == nil {
		t.capture = c
	}
	tr.trace = t
}

// traceStepStart begins step i's trace.
func (t *tracer) stepStart(i int, st testfile.Step) {
	ts := &TraceStep{Index: i, Line: st.Pos.Line, Command: st.Command(), Kind: string(st.Type), Start: time.Now(), ran: true}
	t.steps[i], t.cur, t.curStart, t.target = ts, ts, ts.Start, time.Time{}
}

// snapshot takes a DOM snapshot for the running step, within the test's
// bound; nil when over it or when the page cannot answer.
func (t *tracer) snapshot(ctx context.Context, tr *testRun, ref string) *browser.DOMSnapshot {
	if t.domBytes >= TraceTestDOMMax {
		t.dropped().DOM = fmt.Sprintf("the test's DOM snapshots reached %d MiB", TraceTestDOMMax>>20)
		return nil
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	s, err := tr.page.DOMSnapshot(sctx, ref, browser.DOMOptions{MaxBytes: TraceDOMMax})
	if err != nil {
		return nil
	}
	s.HTML, s.URL, s.Title = tr.red.String(s.HTML), tr.red.String(s.URL), tr.red.String(s.Title)
	t.domBytes += len(s.HTML)
	return s
}

func (t *tracer) dropped() *TraceDropped {
	if t.cur.Dropped == nil {
		t.cur.Dropped = &TraceDropped{}
	}
	return t.cur.Dropped
}

// targetFound records what the running step's lookup decided and takes the
// page as it is before the step acts, the element marked.
func (t *tracer) targetFound(ctx context.Context, tr *testRun, e TargetEvent) {
	ts := t.cur
	if ts == nil {
		return
	}
	t.target = time.Now()
	res := &TraceResolution{Via: e.Via, Reason: e.Reason, Ref: e.Ref, Why: e.Why, LookMS: e.Look.Milliseconds()}
	if e.Node != nil {
		res.Element = tr.redact(e.Node.Line())
	}
	for i := range res.Why {
		res.Why[i] = tr.redact(res.Why[i])
	}
	if ts.Resolution == nil { // a drag looks up two elements: the first is the one acted on
		ts.Resolution = res
		if e.Ref != "" {
			ts.Before = t.snapshot(ctx, tr, e.Ref)
		}
	}
}

// stepEnd ends the running step's trace with its result: the page after
// it, its outline, its requests and console messages, its phases.
func (t *tracer) stepEnd(ctx context.Context, tr *testRun, sr *session.StepResult) {
	ts := t.cur
	if ts == nil {
		return
	}
	t.cur = nil
	end := time.Now()
	if ts.Before == nil {
		ts.Before, ts.BeforeFrom = t.lastDOM, "previous"
	}
	t.cur = ts
	after := t.snapshot(ctx, tr, "")
	if after != nil {
		ts.After, t.lastDOM = after, after
	}
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	if snap, err := tr.page.Snapshot(octx, browser.SnapshotOptions{MaxNodes: TraceOutlineNodes}); err == nil {
		redactSnapshot(snap, tr.red)
		ts.Outline = snap.Text(ax.TextOptions{})
	}
	cancel()
	if t.capture != nil {
		reqs, msgs, dr, dm := t.capture.Take()
		for i := range reqs {
			reqs[i].URL = tr.red.String(reqs[i].URL)
		}
		for i := range msgs {
			msgs[i].Text = tr.red.String(msgs[i].Text)
		}
		ts.Network, ts.Console = reqs, msgs
		if dr+dm > 0 {
			d := t.dropped()
			d.Network, d.Console = dr, dm
		}
	}
	t.cur = nil
	ts.MS = sr.DurationMS
	if !t.target.IsZero() {
		ts.Phases = []TracePhase{{"find the element", t.target.Sub(ts.Start).Milliseconds()}}
		if ts.Resolution != nil && ts.Resolution.LookMS > 0 {
			ts.Phases = append(ts.Phases, TracePhase{"of which snapshot and locate", ts.Resolution.LookMS})
		}
		ts.Phases = append(ts.Phases, TracePhase{"act and settle", max(0, ts.MS-t.target.Sub(ts.Start).Milliseconds())})
	} else {
		ts.Phases = []TracePhase{{"run", ts.MS}}
	}
	ts.Phases = append(ts.Phases, TracePhase{"trace capture (not in the step's time)", time.Since(end).Milliseconds()})
}

// endTrace writes the trace of the attempt when the policy keeps it (every
// attempt with "on", a failed one with "retain-on-failure"), under
// Options.Traces, and notes its path in the attempt's details.
func (r *Runner) endTrace(tr *testRun, res *session.TestResult) {
	t := tr.trace
	if t == nil {
		return
	}
	tr.trace = nil
	if t.capture != nil {
		t.capture.Stop()
	}
	if t.policy == TraceRetainOnFailure && res.Status == session.TestPassed {
		return
	}
	f := TraceFile{Version: TraceVersion, Test: tr.test.Name, File: tr.test.ShownFile(), Attempt: r.cap.attempt, Status: string(res.Status),
		Error: res.Error, Start: t.start, MS: time.Since(t.start).Milliseconds(),
		Bounds: map[string]int{"domBytes": TraceDOMMax, "testDomBytes": TraceTestDOMMax, "requests": TraceRequestsMax,
			"messages": TraceMessagesMax, "text": TraceTextMax, "outlineNodes": TraceOutlineNodes}}
	for _, sr := range res.Steps {
		ts := t.steps[sr.Index]
		if ts == nil {
			ts = &TraceStep{Index: sr.Index, Line: sr.Line, Command: sr.Command, Kind: sr.Kind}
		}
		ts.Depth, ts.Status, ts.Cache, ts.MissReason, ts.Error, ts.Note, ts.Screenshot = sr.Depth, string(sr.Status), sr.Cache, sr.MissReason, sr.Error, sr.Note, sr.Screenshot
		ts.Text = stepText(sr)
		if ts.Resolution != nil || sr.Reidentified != nil || len(sr.Nearest)+len(sr.Narrow) > 0 {
			if ts.Resolution == nil {
				ts.Resolution = &TraceResolution{}
			}
			ts.Resolution.Reidentified, ts.Resolution.Nearest, ts.Resolution.Narrow = sr.Reidentified, sr.Nearest, sr.Narrow
		}
		ts.Decision = decision(ts, sr)
		f.Steps = append(f.Steps, *ts)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return
	}
	b = tr.red.JSON(b) // the one redactor, over every string of the file
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write(b)
	if zw.Close() != nil {
		return
	}
	if err := os.MkdirAll(r.o.Traces, 0o755); err != nil {
		return
	}
	name := fmt.Sprintf("run%d-%s", tr.runID, r.fileSlug(tr.test.Name))
	if r.cap.attempt > 1 {
		name += fmt.Sprintf("-attempt%d", r.cap.attempt)
	}
	path := filepath.Join(r.o.Traces, name+".trace.json.gz")
	if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
		return
	}
	r.cap.mu.Lock()
	r.cap.detail.Trace = r.shown(path)
	r.cap.mu.Unlock()
}

// stepText is a step result as a person reads it.
func stepText(sr session.StepResult) string {
	if sr.Kind == session.KindUse {
		return sr.Command
	}
	st, err := step.Parse(sr.Command)
	if err != nil {
		return sr.Command
	}
	return describe(st)
}

// decision says in plain words how a step's element was found, or why
// none was.
func decision(ts *TraceStep, sr session.StepResult) string {
	res := ts.Resolution
	if res == nil {
		if sr.Status == session.StatusSkipped {
			return "Not run: an earlier step failed."
		}
		return "This step looks up no element."
	}
	missed := ""
	if sr.MissReason != "" {
		missed = fmt.Sprintf("The element cache missed (%s). ", sr.MissReason)
	}
	el := res.Element
	if el == "" && res.Ref != "" {
		el = "the element " + res.Ref
	}
	switch res.Via {
	case "cache":
		return fmt.Sprintf("Replayed from the element cache: the cached selectors voted for one element (%s), and it still fits the description.", res.Ref)
	case "re-identified":
		s := missed + fmt.Sprintf("The element was found again by its likeness to the cached one (%s), with no model call", res.Ref)
		if r := sr.Reidentified; r != nil {
			s += ": score " + ReidentifiedText(r)
		}
		return s + "."
	case "locate", "model":
		who := "The local locator"
		if res.Via == "model" {
			who = "The model"
		}
		if missed == "" {
			missed = "No cache entry for this step. "
		}
		s := missed + fmt.Sprintf("%s chose %s", who, el)
		if len(res.Why) > 0 {
			s += " (" + strings.Join(res.Why, "; ") + ")"
		}
		return s + "."
	}
	switch res.Reason {
	case "no-match":
		s := missed + "No element fits the description."
		if len(sr.Nearest) > 0 {
			s += " The nearest: " + sr.Nearest[0].Element + "."
		}
		return s
	case "ambiguous":
		return missed + fmt.Sprintf("Several elements fit the description equally (%d weighed); none was acted on.", len(res.Candidates))
	}
	if sr.Error != "" {
		return missed + "The lookup failed: " + sr.Error
	}
	return missed
}
