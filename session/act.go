package session

import (
	"context"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
)

// StepOutcome is what running one step command did, as told to the agent.
type StepOutcome struct {
	Command string // the step command as run, canonical, with its cache id
	OK      bool
	Result  string // a short result: "clicked button \"Sign in\"" or the error
	CacheID string // the element cache key of the step ("" for steps without an element)
}

// ActEnv is the page an agent acts on. Snapshots have secret values
// redacted; commands may hold {{ secret.NAME }}, resolved only in the browser.
type ActEnv interface {
	Snapshot(ctx context.Context) (*ax.Snapshot, error)
	Execute(ctx context.Context, command string) StepOutcome
}

// ActResult is how an act ended.
type ActResult struct {
	Success       bool
	Message       string
	Postcondition string   // the agent's sentence for what must hold at the end
	Steps         []string // the trajectory: step commands with cache ids, in order
	ModelCalls    int
	ToolCalls     int
}

// Actor reaches a goal through an ActEnv with a model (agent.Actor).
type Actor interface {
	Act(ctx context.Context, goal, context string, env ActEnv) (ActResult, error)
}

// Trajectory is a recorded act: what to replay without the model.
type Trajectory struct {
	Key           CacheKey
	Project       string
	Test          string
	Goal          string
	Steps         []string // step commands with cache ids
	Postcondition string
	Evidence      Evidence
	// Gaps are values the agent read off the screen and typed or chose in
	// a step: replay reads them again instead of using the recorded ones.
	Gaps []Gap
	// Identity, Branch, Commit and Version: as for CacheEntry.
	Identity string
	Branch   string
	Commit   string
	Version  string
}

// Gap is a value the agent read off the screen during an act and used as
// a step's value. Replay reads it again from the element it came from: a
// node with the same role whose accessible name has the same text before
// and after the value, the Nth such node, on the page as it is after the
// first At steps.
type Gap struct {
	Value  string `json:"value"` // as recorded
	At     int    `json:"at"`    // trajectory steps run before it was read
	Role   string `json:"role"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	Nth    int    `json:"nth,omitempty"`
}

// Evidence is what the end state of a recorded act looked like.
type Evidence struct {
	Route    string   `json:"route"`              // the end URL's path with ids and numbers reduced to shapes
	Appeared []string `json:"appeared,omitempty"` // up to 8 `role "name"` lines that appeared during the act
	Vanished []string `json:"vanished,omitempty"` // up to 8 that vanished
}

// Heal is a trajectory the agent repaired after a replay failed: the old
// and new steps side by side, why, and what became of it.
type Heal struct {
	ID            int64
	Key           CacheKey
	Project       string
	Test          string
	Goal          string
	OldSteps      []string
	NewSteps      []string
	FailedIndex   int    // the step that failed (len(OldSteps) when the end state did)
	Reason        string // why the replay failed
	Postcondition string
	Evidence      Evidence
	// Gaps are the values of NewSteps read off the screen, as for a
	// Trajectory.
	Gaps []Gap
	// PageBefore and PageAfter are the page's outline (ax.Snapshot.Text,
	// secrets redacted) when the replay failed and when the heal ended.
	PageBefore string
	PageAfter  string
	// Status is "staged", "accepted", "rejected" or "superseded" (by the
	// heal SupersededBy: a key and branch has one staged heal at a time).
	Status    string
	CreatedAt time.Time
	DecidedAt time.Time
	DecidedBy string
	// Seen counts the runs that proposed this heal: an identical heal
	// proposed while it is staged joins it; LastSeenAt is the last of them.
	Seen         int
	LastSeenAt   time.Time
	SupersededBy int64
	// Where the heal was made: a staged heal is seen on this branch only.
	Branch  string
	Commit  string
	Version string
}
