package tui

import (
	"context"
	"sync"
	"sync/atomic"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/e2e-dev/e2e/session"
)

// Gate is the studio's session.Gate: it holds every step the agent
// proposes, and, while stepping (--step, or p), every other step too. A held
// step reaches the studio as a message and waits for the engineer's key.
type Gate struct {
	mu       sync.Mutex
	send     func(tea.Msg)
	stepping atomic.Bool
}

// NewGate returns a gate; stepping says whether it holds every step from
// the start.
func NewGate(stepping bool) *Gate {
	g := &Gate{}
	g.stepping.Store(stepping)
	return g
}

var _ session.Gate = (*Gate)(nil)

// Holds implements session.Gate.
func (g *Gate) Holds(p session.Proposal) bool {
	return p.Kind == session.ProposedByAgent || g.stepping.Load()
}

// Stepping says whether every step is held.
func (g *Gate) Stepping() bool { return g.stepping.Load() }

// SetStepping holds every step (true) or only the agent's (false).
func (g *Gate) SetStepping(on bool) { g.stepping.Store(on) }

// bind sets where proposals go (the program).
func (g *Gate) bind(send func(tea.Msg)) {
	g.mu.Lock()
	g.send = send
	g.mu.Unlock()
}

// Decide implements session.Gate: it blocks until the engineer decides or
// ctx ends (the studio quit).
func (g *Gate) Decide(ctx context.Context, p session.Proposal) (session.Decision, error) {
	g.mu.Lock()
	send := g.send
	g.mu.Unlock()
	if send == nil {
		return session.Decision{}, errNoStudio
	}
	reply := make(chan session.Decision, 1)
	send(proposalMsg{p: p, reply: reply})
	select {
	case d := <-reply:
		return d, nil
	case <-ctx.Done():
		return session.Decision{}, ctx.Err()
	}
}

// proposalMsg is a held step; the decision goes to reply (buffered, so the
// studio never blocks on it).
type proposalMsg struct {
	p     session.Proposal
	reply chan<- session.Decision
}
