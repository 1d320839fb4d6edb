package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/e2e-dev/e2e/session"
)

var _ session.CallRecorder = (*DB)(nil)

// AllRuns asks ModelCalls for every call.
const AllRuns int64 = -1

// maxUnstoredCalls bounds the calls a read-only store keeps in memory for
// the run it did not store: a run makes hundreds at most.
const maxUnstoredCalls = 100_000

// RecordModelCall inserts c and sets c.ID. A zero c.At becomes the clock's
// now; a zero RunID is stored as NULL (a call outside a run).
//
// A read-only store writes nothing: it keeps the calls of run 0 (the run
// it did not store) in memory since its last StartRun, for ModelCalls to
// report that run's own calls.
func (db *DB) RecordModelCall(ctx context.Context, c *session.ModelCall) (err error) {
	defer db.noteFailure(&err)
	if c == nil {
		return errors.New("record model call: nil call")
	}
	if db.readOnly != "" {
		if c.RunID == 0 {
			db.keepUnstored(*c)
		}
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	at := c.At
	if at.IsZero() {
		at = db.now()
	}
	var run sql.NullInt64
	if c.RunID != 0 {
		run = sql.NullInt64{Int64: c.RunID, Valid: true}
	}
	attempts := max(c.Attempts, 1)
	outcome := c.Outcome
	if outcome == "" {
		outcome = "ok"
	}
	var id int64
	err = db.write.QueryRowContext(ctx, `
INSERT INTO model_calls (run_id, at, purpose, model, tokens_in, tokens_out, latency_ms, attempts, outcome, cost)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		run, formatTime(at), c.Purpose, c.Model, c.TokensIn, c.TokensOut, c.LatencyMS, attempts, outcome, c.Cost).Scan(&id)
	if err != nil {
		return fmt.Errorf("record model call: %w", err)
	}
	c.ID, c.At, c.Attempts, c.Outcome = id, at, attempts, outcome
	return nil
}

// keepUnstored keeps c, a call of a read-only store's run, in memory.
func (db *DB) keepUnstored(c session.ModelCall) {
	if c.At.IsZero() {
		c.At = db.now()
	}
	c.Attempts = max(c.Attempts, 1)
	if c.Outcome == "" {
		c.Outcome = "ok"
	}
	db.unstored.Lock()
	defer db.unstored.Unlock()
	if len(db.unstored.calls) < maxUnstoredCalls {
		db.unstored.calls = append(db.unstored.calls, c)
	}
}

// ModelCalls returns the calls of the run runID, oldest first: a run's own
// calls and no other's. Run 0 is a run the store did not record: on a
// read-only store, the calls RecordModelCall kept since its last
// StartRun (those of the read-only run); on a store that writes, the calls
// recorded outside any run. AllRuns returns every stored call.
func (db *DB) ModelCalls(ctx context.Context, runID int64) ([]session.ModelCall, error) {
	if runID == 0 && db.readOnly != "" {
		db.unstored.Lock()
		defer db.unstored.Unlock()
		return slices.Clone(db.unstored.calls), nil
	}
	q := `SELECT id, COALESCE(run_id, 0), at, purpose, model, tokens_in, tokens_out, latency_ms, attempts, outcome, cost FROM model_calls`
	var args []any
	switch {
	case runID == 0:
		q += ` WHERE run_id IS NULL`
	case runID != AllRuns:
		q += ` WHERE run_id = ?`
		args = append(args, runID)
	}
	rows, err := db.read.QueryContext(ctx, q+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("model calls: %w", err)
	}
	defer rows.Close()
	var out []session.ModelCall
	for rows.Next() {
		var c session.ModelCall
		var at string
		if err := rows.Scan(&c.ID, &c.RunID, &at, &c.Purpose, &c.Model, &c.TokensIn, &c.TokensOut, &c.LatencyMS, &c.Attempts, &c.Outcome, &c.Cost); err != nil {
			return nil, fmt.Errorf("model calls: %w", err)
		}
		if c.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("model calls: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
