package session

import (
	"context"
	"time"
)

// Event is something a run did, published as it happens for a watcher such
// as the studio. Events are values; a watcher must not change them.
type Event interface{ event() }

// Events receives events. It is called on the run's goroutine, so it must
// return quickly (hand the event to another goroutine); nil publishes none.
type Events func(Event)

// Publish sends e when p is not nil.
func (p Events) Publish(e Event) {
	if p != nil {
		p(e)
	}
}

// CacheStatus is how a step found its element, as the studio shows it.
type CacheStatus string

// Cache statuses.
const (
	CacheHit          CacheStatus = "hit"           // replayed from the element cache or the recorded trajectory
	CacheRelocated    CacheStatus = "re-located"    // the cache missed and the element was located again
	CacheReidentified CacheStatus = "re-identified" // the selectors missed and the element was found by its likeness to the recorded one
	CacheNew          CacheStatus = "new"           // nothing cached: located (or recorded by the agent) now
	CacheHealed       CacheStatus = "healed"        // a recorded act failed and the agent healed it
	CacheFailed       CacheStatus = "failed"
	CacheNone         CacheStatus = "none" // a step with no element (navigate, expect url…)
	CacheSkipped      CacheStatus = "skipped"
)

// CacheStatusOf says how a finished step found its element.
func CacheStatusOf(sr StepResult) CacheStatus {
	switch sr.Status {
	case StatusHit:
		return CacheHit
	case StatusLocated:
		return CacheNew
	case StatusRelocated:
		if len(sr.MissReason) >= 6 && sr.MissReason[:6] == "healed" {
			return CacheHealed
		}
		return CacheRelocated
	case StatusReidentified:
		return CacheReidentified
	case StatusFailed:
		return CacheFailed
	case StatusSkipped:
		return CacheSkipped
	}
	return CacheNone
}

// TestStarted: a test opened its page. Steps are its step commands.
type TestStarted struct {
	Test  string
	File  string
	Steps []string
	At    time.Time
}

// StepStarted: a step began. Sub is -1 for one of the test's own steps and
// the position in the act's trajectory for a step an act runs (Index is
// then the act's index).
type StepStarted struct {
	Index   int
	Sub     int
	Command string
	// Depth is, for a sub-step that is a step of a flow (a use step's),
	// how many flows deep it is: 1 for a step of the flow test step Index
	// uses. It is 0 for the test's own steps and for the steps an act
	// runs (whose Sub counts within the act).
	Depth int
}

// StepFinished: a step ended. Postcondition is set on an act step.
type StepFinished struct {
	Index         int
	Sub           int
	Command       string
	Status        StepStatus
	Cache         CacheStatus
	Error         string
	Note          string
	Postcondition string
	DurationMS    int64
	// Reidentified says how sure re-identification was, for a step with
	// that status; nil otherwise.
	Reidentified *Reidentification
	// Line is the step's line in the test file (0 for an act's own steps
	// and typed steps with none).
	Line int
	// MissReason is why the element cache missed ("stale", "no-match", a
	// heal…), or "".
	MissReason string
	// LLMCalls is how many model requests the step took.
	LLMCalls int
	// Candidates are the elements a step that found no single element
	// weighed (an ambiguity's equal candidates, a no-match's nearest),
	// best first, secrets redacted; nil otherwise.
	Candidates []StepCandidate
}

// StepCandidate is an element a step weighed: its snapshot line
// (button "Delete" [ref=e12]), the container that tells it apart
// (row "Alice …"), or "", and its score.
type StepCandidate struct {
	Element   string
	Container string
	Score     float64
}

// SnapshotUpdated: the page as the run last saw it. Outline is the
// accessibility outline (secrets redacted); Target is the ref of the
// element the current step acts on, or "".
type SnapshotUpdated struct {
	URL     string
	Title   string
	Outline string
	Target  string
}

// ToolCallProposed: a step waits for a decision (see Gate).
type ToolCallProposed struct{ Proposal Proposal }

// ToolCallDecided: a proposed step was decided.
type ToolCallDecided struct {
	Proposal Proposal
	Decision Decision
}

// ModelCalled: a model call ended; Outcome is "ok" or what went wrong.
type ModelCalled struct{ Call ModelCall }

// HealStaged: a heal was recorded (staged or accepted at once).
type HealStaged struct{ Heal Heal }

// TestFinished: a test ended.
type TestFinished struct{ Result TestResult }

func (TestStarted) event()      {}
func (StepStarted) event()      {}
func (StepFinished) event()     {}
func (SnapshotUpdated) event()  {}
func (ToolCallProposed) event() {}
func (ToolCallDecided) event()  {}
func (ModelCalled) event()      {}
func (HealStaged) event()       {}
func (TestFinished) event()     {}

// ProposalKind says where a step waiting for a decision comes from.
type ProposalKind string

// Proposal kinds.
const (
	ProposedByAgent ProposalKind = "agent"  // an execute_step command the agent proposes
	ProposedReplay  ProposalKind = "replay" // a step of a recorded trajectory about to replay
	ProposedStep    ProposalKind = "step"   // one of the test's own steps
)

// Proposal is a step that waits for a decision before it runs.
type Proposal struct {
	ID      int // numbered from 1 within a test
	Kind    ProposalKind
	Test    string
	Index   int    // the test step (the act, for agent and replay steps)
	Goal    string // the act's goal, for agent and replay steps
	Command string
}

// Verdict is what the engineer decided.
type Verdict string

// Verdicts.
const (
	Approve     Verdict = "approve"      // run it
	Edit        Verdict = "edit"         // run Decision.Command instead; the agent is told what changed
	Reject      Verdict = "reject"       // do not run it; Decision.Reason goes back to the agent
	ApproveRest Verdict = "approve-rest" // run it and the rest of this act without asking
	Skip        Verdict = "skip"         // do not run it and go on
)

// Decision answers a Proposal.
type Decision struct {
	Verdict Verdict
	Command string // the edited command, for Edit
	Reason  string // why, for Reject
	By      string // who decided
	At      time.Time
}

// Gate holds proposed steps until they are decided. Holds says whether p
// waits at all (a step it does not hold runs at once, unannounced); Decide
// blocks until p is decided, and its error (the context ended, the engineer
// quit) stops the run.
type Gate interface {
	Holds(p Proposal) bool
	Decide(ctx context.Context, p Proposal) (Decision, error)
}

// DecisionRecord is a decided proposal as the store keeps it.
type DecisionRecord struct {
	ID       int64
	RunID    int64
	Project  string
	Proposal Proposal
	Decision Decision
}

// DecisionStore keeps decisions; the store implements it. A run whose
// store does not keep them still runs, without a record.
type DecisionStore interface {
	PutDecision(ctx context.Context, d *DecisionRecord) error
}
