package agenttest

import (
	"context"
	"sync"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// Recorder is a session.CallRecorder that keeps calls in memory.
type Recorder struct {
	mu    sync.Mutex
	calls []session.ModelCall
}

// RecordModelCall implements session.CallRecorder; it never fails.
func (r *Recorder) RecordModelCall(_ context.Context, c *session.ModelCall) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	c.ID = int64(len(r.calls) + 1)
	r.calls = append(r.calls, *c)
	return nil
}

// Calls returns the calls recorded so far, in order.
func (r *Recorder) Calls() []session.ModelCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]session.ModelCall(nil), r.calls...)
}

// Clock tells the wall-clock time plus every duration it was asked to
// sleep, and returns from Sleep at once. It satisfies agent.Clock, so that a
// test sees the waits between retries without waiting.
type Clock struct {
	mu     sync.Mutex
	slept  time.Duration
	sleeps []time.Duration
}

// Now is the wall-clock time advanced by all sleeps so far.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.slept)
}

// Sleep records d and returns at once, or ctx.Err() when ctx is done.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slept += d
	c.sleeps = append(c.sleeps, d)
	return nil
}

// Sleeps returns the durations asked for, in order.
func (c *Clock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}
