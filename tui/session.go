package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

// Panes of the session screen, in focus order.
const (
	paneTree = iota
	paneProposals
	paneTrajectory
)

// trajStep is a step in the trajectory pane; an act holds the steps it ran.
type trajStep struct {
	command string
	status  string // "", "running", or a session.StepStatus
	cache   session.CacheStatus
	post    string
	err     string
	note    string
	subs    []trajStep

	// What the step detail shows besides.
	line       int // in the test file, or 0
	missReason string
	llmCalls   int
	durationMS int64
	cands      []session.StepCandidate
	reid       *session.Reidentification
}

// decided is a proposal in the history.
type decided struct {
	p session.Proposal
	d session.Decision
}

// sessionState is what the session screen shows, built from events.
type sessionState struct {
	newTest bool
	test    string
	file    string
	steps   []trajStep
	current int // the test step running, -1 before the first

	url, title string
	outline    []string
	target     string
	filter     string
	treeTop    int

	pending *proposalMsg
	queue   []*proposalMsg
	history []decided
	propTop int

	cursor  int // the selected step of the trajectory pane
	trajTop int
	focus   int

	modelCalls, tokens int
	cost               float64
	modelErr           string
	testErr            string // the test-level error of the last run

	running    bool
	startedAt  time.Time
	finishedAt time.Time
	result     session.TestStatus // "" while it runs
}

func newSessionState(o Options) sessionState {
	s := sessionState{newTest: o.Mode == ModeNew, test: o.Title, file: o.File, current: -1, running: o.Mode == ModeRun || o.Mode == ModeNew}
	if o.Mode == ModeNew {
		s.focus = paneTrajectory
	}
	return s
}

// apply folds an event into the state.
func (s *sessionState) apply(e session.Event, now time.Time) {
	switch e := e.(type) {
	case session.TestStarted:
		s.test, s.file = e.Test, e.File
		s.steps = make([]trajStep, len(e.Steps))
		for i, c := range e.Steps {
			s.steps[i] = trajStep{command: c}
		}
		s.current, s.result, s.running = -1, "", true
		s.startedAt, s.finishedAt = now, time.Time{}
		s.modelErr, s.testErr = "", ""
		// The figures and the decisions are this run's: a replay with no
		// model call reads 0 calls, and proposal numbers start again at #1.
		s.modelCalls, s.tokens, s.cost = 0, 0, 0
		s.history, s.propTop = nil, 0
	case session.StepStarted:
		for e.Index >= len(s.steps) {
			s.steps = append(s.steps, trajStep{})
		}
		st := &s.steps[e.Index]
		s.current = e.Index
		if e.Sub < 0 {
			*st = trajStep{command: e.Command, status: "running"} // nothing of a previous run stays
			s.cursor = e.Index
			return
		}
		for e.Sub >= len(st.subs) {
			st.subs = append(st.subs, trajStep{})
		}
		st.subs[e.Sub] = trajStep{command: e.Command, status: "running"}
	case session.StepFinished:
		for e.Index >= len(s.steps) {
			s.steps = append(s.steps, trajStep{})
		}
		st := &s.steps[e.Index]
		if e.Sub >= 0 {
			for e.Sub >= len(st.subs) {
				st.subs = append(st.subs, trajStep{})
			}
			st = &st.subs[e.Sub]
		}
		st.command, st.status, st.cache, st.err, st.note = e.Command, string(e.Status), e.Cache, e.Error, e.Note
		st.line, st.missReason, st.llmCalls, st.durationMS, st.cands, st.reid = e.Line, e.MissReason, e.LLMCalls, e.DurationMS, e.Candidates, e.Reidentified
		if e.Postcondition != "" {
			st.post = e.Postcondition
		}
		if e.Sub < 0 && s.newTest {
			s.current = -1 // recording: waiting for the next typed step
		}
	case session.SnapshotUpdated:
		s.url, s.title = e.URL, e.Title
		s.outline = strings.Split(strings.TrimRight(e.Outline, "\n"), "\n")
		if e.Target != "" { // a page after the action keeps showing what it acted on
			s.target = e.Target
			s.treeTop = -1 // scroll the target into view when drawn
		}
	case session.ModelCalled:
		s.modelCalls++
		s.tokens += e.Call.TokensIn + e.Call.TokensOut
		s.cost += e.Call.Cost
		if e.Call.Outcome != "" && e.Call.Outcome != "ok" {
			s.modelErr = "model error (" + e.Call.Purpose + "): " + e.Call.Outcome
		} else {
			s.modelErr = ""
		}
	case session.ToolCallDecided:
		s.history = append(s.history, decided{p: e.Proposal, d: e.Decision})
	case session.HealStaged:
		// The act step's own finish says "healed"; nothing more to keep.
	case session.TestFinished:
		s.result = e.Result.Status
		s.testErr = ""
		if e.Result.Status != "passed" {
			s.testErr = e.Result.Error
		}
		s.finishedAt = now
		if !s.newTest {
			s.running = false
		}
		s.current = -1
	}
}

// propose puts a held step in front, or in the queue behind the one there.
func (s *sessionState) propose(p proposalMsg) {
	if s.pending == nil {
		s.pending = &p
		return
	}
	s.queue = append(s.queue, &p)
}

// scroll moves the focused pane by n rows.
func (s *sessionState) scroll(n, rows int) {
	switch s.focus {
	case paneTree:
		if s.treeTop < 0 {
			s.treeTop = 0
		}
		s.treeTop = clamp(s.treeTop+n, 0, max(0, len(s.treeLines())-rows))
	case paneProposals:
		s.propTop = max(0, s.propTop+n)
	case paneTrajectory:
		s.cursor = clamp(s.cursor+n, 0, max(0, len(s.steps)-1))
	}
}

// treeLines is the outline with the filter applied.
func (s *sessionState) treeLines() []string {
	if s.filter == "" {
		return s.outline
	}
	f := strings.ToLower(s.filter)
	var out []string
	for _, l := range s.outline {
		if strings.Contains(strings.ToLower(l), f) {
			out = append(out, l)
		}
	}
	return out
}

// stepLabel is a step command as a person writes it in a test file, on one
// line ("click: the Buy now button"), its cache id left out; variables
// such as {{ secret.NAME }} show as written. A command that is not a step
// command shows as it is.
func stepLabel(cmd string) string {
	st, err := step.Parse(cmd)
	if err != nil {
		return session.StepText(cmd)
	}
	return testfile.Line(st)
}

// parseEdit reads an edited step: the one-line test-file form ("click: the
// Buy now button"), or else the step command form. The error is the
// test-file form's, which the help teaches.
func parseEdit(line string) (step.Step, error) {
	st, err := testfile.ParseLine(line)
	if err == nil {
		return st, nil
	}
	if strings.HasPrefix(strings.TrimSpace(line), "--step-type") {
		if cst, cerr := step.Parse(line); cerr == nil {
			return cst, nil
		} else {
			return step.Step{}, cerr
		}
	}
	return step.Step{}, err
}

func statusMark(status string) string {
	switch status {
	case "running":
		return "…"
	case string(session.StatusFailed):
		return "✗"
	case string(session.StatusSkipped):
		return "-"
	case "":
		return " "
	}
	return "✓"
}

func verdictMark(v session.Verdict) string {
	switch v {
	case session.Approve:
		return "✓ approved"
	case session.ApproveRest:
		return "✓ approved rest"
	case session.Edit:
		return "✎ edited"
	case session.Reject:
		return "✗ rejected"
	case session.Skip:
		return "↷ skipped"
	}
	return string(v)
}

// elapsed is the time since the test started, to its end once it ended.
func (s *sessionState) elapsed(now time.Time) time.Duration {
	if s.startedAt.IsZero() {
		return 0
	}
	end := now
	if !s.finishedAt.IsZero() && !s.running {
		end = s.finishedAt
	}
	return end.Sub(s.startedAt).Truncate(time.Second)
}

func fmtDuration(d time.Duration) string {
	d = d.Truncate(time.Second)
	return fmt.Sprintf("%02d:%02d", int(d.Minutes()), int(d.Seconds())%60)
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

// failureText is a test-level error with what to do about it: a page that
// cannot be reached says to start the app or check baseURL, as the CLI does.
func failureText(err string) string {
	if h := failureHint(err); h != "" {
		return err + " (" + h + ")"
	}
	return err
}

// failureHint is what to do about err, if the studio knows; the status bar
// puts it first so a narrow bar still shows it.
func failureHint(err string) string {
	low := strings.ToLower(err)
	for _, sign := range []string{"err_connection_refused", "connection refused", "err_name_not_resolved", "err_address_unreachable", "err_connection_reset"} {
		if strings.Contains(low, sign) {
			return "is the app running? check baseURL in e2e.yaml or pass --base-url"
		}
	}
	return ""
}
