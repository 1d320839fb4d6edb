// Package session is the domain of e2e: tests, steps, runs, element caches
// and the lifecycle that runs them. It defines the interfaces it needs (a
// store, a locator, a browser page); store/, agent/ and session/browser
// implement them and cmd/e2e wires them together.
package session

import (
	"context"
	"errors"
	"strings"
	"time"
)

// StepStatus is how a step ended.
type StepStatus string

// Step statuses.
const (
	StatusHit       StepStatus = "hit"        // replayed from the element cache
	StatusLocated   StepStatus = "located"    // no cache entry: located and cached
	StatusRelocated StepStatus = "re-located" // the cache missed (MissReason) and the element was located again
	// StatusReidentified: the cached selectors missed (MissReason) and the
	// element was found again by its likeness to the recorded node
	// (Reidentified says how sure), with no locate and no model call.
	StatusReidentified StepStatus = "re-identified"
	StatusPassed       StepStatus = "passed" // a step with no element (navigate, wait for a time, expect url/title)
	StatusFailed       StepStatus = "failed"
	StatusSkipped      StepStatus = "skipped" // not run because an earlier step failed
)

// TestStatus is how a test ended in a run.
type TestStatus string

// Test statuses.
const (
	TestPassed TestStatus = "passed"
	TestFailed TestStatus = "failed"
	// TestNotRun: the test did not run, for what it needed before its first
	// step could not be had: its session's flow failed (the result's Error
	// says which session, and the flow's failure). It is not a failure of
	// the test's own, but the run fails, and it is not tried again.
	TestNotRun TestStatus = "not run"
)

// Run is one invocation of e2e run.
type Run struct {
	ID         int64
	Project    string
	StartedAt  time.Time
	FinishedAt time.Time
	Status     string // "running", "passed", "failed"; "interrupted" when its process died running it
	Branch     string
	Commit     string
	Version    string // the tool's version
	Shard      string // "i/n" when the run ran shard i of n of its suite, else ""
	// Group names the group of runs this one belongs to: the shards of one
	// CI run share one (by default the CI's own run id), and one report is
	// built from them; "" for none.
	Group string
	// BaseURL is the app the run tested; Variant the fixture variant it
	// asked for (?variant=…), "" for none.
	BaseURL string
	Variant string
	// Tests are the names of the tests the run set out to run (after
	// --grep and its shard). A test not among them was not part of the run
	// (history shows it absent); one among them with no result was
	// skipped (the run ended before it). Stored by StartRun.
	Tests []string
}

// TestResult is one test in a run.
type TestResult struct {
	ID         int64
	RunID      int64
	Name       string
	File       string
	Status     TestStatus
	Error      string
	DurationMS int64
	// Attempts is how many times the test ran in its run: 1 + the retries
	// it used (0 is taken as 1). A test that passed with Attempts > 1 is
	// flaky.
	Attempts int
	Steps    []StepResult
	// Stale is set when the strict cache policy failed the test: an entry
	// was missing or no longer replayed.
	Stale bool
}

// HealStagedPrefix starts the MissReason of an act step that passed through
// a heal now staged for review.
const HealStagedPrefix = "healed (staged"

// Healed reports whether the test passed only through a heal that is
// staged for review: it is marked healed until the heal is decided.
func (t *TestResult) Healed() bool {
	for _, s := range t.Steps {
		if strings.HasPrefix(s.MissReason, HealStagedPrefix) {
			return true
		}
	}
	return false
}

// StepResult is one step of a test in a run.
type StepResult struct {
	// Index is the step's place among the test's results: the test's own
	// steps and, after a use step, the steps of the flow it used.
	Index int
	// Depth is 0 for a test's own step, 1 for a step of a flow a test's
	// use step ran, 2 for one of a flow that flow used, and so on: a
	// flow's steps follow its use step (Kind KindUse), one deeper.
	Depth      int
	Line       int    // the step's line in the test file (in the flow's file, at a Depth over 0)
	Command    string // the step command (step.Step.String()), with variables unresolved
	Kind       string // step type, e.g. CLICK
	Status     StepStatus
	Cache      string // "hit", "miss" or "none"
	MissReason string
	Error      string
	Screenshot string // path of the screenshot saved on failure, relative to the configuration's directory when under it
	DurationMS int64
	LLMCalls   int
	Note       string // the model's reasoning for an assert step
	// Reidentified says how a re-identified step's element was chosen;
	// nil for any other status.
	Reidentified *Reidentification
	// Nearest are the elements closest to what a step that found none
	// described; Narrow, for a step whose description fitted several
	// elements, descriptions that each name one of them. Both are advice,
	// never acted on.
	Nearest []NearElement
	Narrow  []Narrowing
}

// KindUse is the Kind of a step that used a flow: its Command names the
// flow and the text it gave each parameter, and the flow's steps follow
// it, one Depth deeper. It passed when they all did.
const KindUse = "USE"

// NearElement is an element close to what a step described.
type NearElement struct {
	Element string  `json:"element"`         // as messages show it: button "Sign in"
	Ref     string  `json:"ref,omitempty"`   // its ref in the page the step saw
	Score   float64 `json:"score"`           // 0..1, 1 reads exactly as described
	Count   int     `json:"count,omitempty"` // how many elements read so, when more than one
}

// Narrowing is a description that names exactly one of the elements an
// ambiguous description fitted: it was located again to check.
type Narrowing struct {
	Element     string `json:"element"`       // as messages show it: button "Menu"
	Ref         string `json:"ref,omitempty"` // its ref in the page the step saw
	Add         string `json:"add,omitempty"` // the clause added: in the Alice row; empty for an ordinal
	Description string `json:"description"`   // the narrowed description
}

// Reidentification is how sure re-identification was of the element it
// chose: its similarity to the recorded node and the next best candidate's.
type Reidentification struct {
	Score    float64 `json:"score"`            // the chosen element's similarity, 0..1
	RunnerUp float64 `json:"runnerUp"`         // the next best candidate's, 0 when there was none
	Second   string  `json:"second,omitempty"` // the next best candidate as a snapshot line, e.g. button "Save"
}

// CacheKey identifies an element cache entry. It is computed in one place
// (see Key) so that later it can widen to the full trace identity.
type CacheKey string

// Selector is one way to find the cached element again.
type Selector struct {
	Kind  string `json:"kind"`  // "id", "testid", "aria", "text", "structural", …
	Value string `json:"value"` // a CSS selector
}

// NodeSnapshot is what the cached element looked like when it was located.
type NodeSnapshot struct {
	Tag   string            `json:"tag"`
	Role  string            `json:"role"`
	Name  string            `json:"name"`
	Text  string            `json:"text,omitempty"`
	Attrs map[string]string `json:"attrs,omitempty"` // key attributes, random-looking ones left out
	Box   [4]float64        `json:"box"`             // x, y, width, height
	Color string            `json:"color,omitempty"`
}

// NodeContext is where the cached element stood when it was located, what
// re-identification compares besides the node itself: the text around it
// and its containers. Rows written before it was stored have none, and are
// re-identified by the node alone.
type NodeContext struct {
	Near []string   `json:"near,omitempty"` // text nearest the element, closest first (its label, the text beside it, its entry's text)
	Path []PathNode `json:"path,omitempty"` // its containers with a role or a name, outermost first
}

// PathNode is one container in NodeContext.Path.
type PathNode struct {
	Tag  string `json:"tag"`
	Role string `json:"role,omitempty"`
	Name string `json:"name,omitempty"`
}

// Intent is what the description relied on: conditions a replayed element
// must still meet for the cache to hit.
type Intent struct {
	// Attributes the description names: role, name, colour, size, position…
	Attributes map[string]string `json:"attributes,omitempty"`
	// Related elements the description names, e.g. {Relation: "in", Role: "row", Name: "Alice"}.
	Related []Relation `json:"related,omitempty"`
}

// Relation ties the target to another element.
type Relation struct {
	Relation string `json:"relation"` // "in", "next to", "above", "below", "nth"
	Role     string `json:"role,omitempty"`
	Name     string `json:"name,omitempty"`
}

// CacheEntry is the element cache row for one step.
type CacheEntry struct {
	Key         CacheKey
	Project     string
	Test        string
	Description string
	Selectors   []Selector
	Node        NodeSnapshot
	Context     NodeContext // where the node stood (neighbour text, containers)
	Intent      Intent
	CreatedAt   time.Time
	UsedAt      time.Time
	Hits        int
	// Identity is the canonical JSON the key was computed from (see
	// Identity); Branch, Commit and Version say where the row was written.
	Identity string
	Branch   string
	Commit   string
	Version  string
}

// Store keeps runs, results and element caches. Implementations must be
// safe for two processes writing at once and never leave a half-written run.
type Store interface {
	StartRun(ctx context.Context, r *Run) error                   // sets r.ID
	FinishRun(ctx context.Context, r *Run) error                  // records status and finish time
	SaveTest(ctx context.Context, t *TestResult) error            // test and its steps, in one transaction; sets t.ID
	Cache(ctx context.Context, key CacheKey) (*CacheEntry, error) // nil, nil when absent; the row the store's lineage rules pick
	PutCache(ctx context.Context, e *CacheEntry) error            // insert or replace
	Close() error
}

// ErrUnreadableRow is matched (errors.Is) by the error a Store returns when
// the element cache row or trajectory its lineage rules pick for a key
// cannot be decoded (a row of the wrong shape, written by a bad import or
// damaged). The runner counts it as a miss with the reason
// MissUnreadableRow, locates the element (or records the act) again and
// writes the new row when the test passes; it never fails a test for it.
var ErrUnreadableRow = errors.New("unreadable row")

// MissUnreadableRow is the miss reason of a step whose cache row could not
// be read (ErrUnreadableRow).
const MissUnreadableRow = "unreadable-row"

// ModelCall is one request to a language model, as recorded in the store.
type ModelCall struct {
	ID        int64
	RunID     int64  // 0 when not part of a run
	Purpose   string // "locate", "act", "heal", "assert"
	Model     string
	TokensIn  int
	TokensOut int
	LatencyMS int64
	Attempts  int    // 1 + retries
	Outcome   string // "ok", or the error that ended it: "rate-limited", "timeout", "server-error", "bad-response", …
	Cost      float64
	At        time.Time
}

// CallRecorder keeps model calls. The agent records every call, including
// failed ones; a recorder error never fails the step that made the call.
type CallRecorder interface {
	RecordModelCall(ctx context.Context, c *ModelCall) error
}
