package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/e2e-dev/e2e/session"
)

var _ session.CallRecorder = (*DB)(nil)

// RecordModelCall inserts c and sets c.ID. A zero c.At becomes the clock's
// now; a zero RunID is stored as NULL (a call outside a run).
func (db *DB) RecordModelCall(ctx context.Context, c *session.ModelCall) error {
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	if c == nil {
		return errors.New("record model call: nil call")
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
	err := db.write.QueryRowContext(ctx, `
INSERT INTO model_calls (run_id, at, purpose, model, tokens_in, tokens_out, latency_ms, attempts, outcome, cost)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		run, formatTime(at), c.Purpose, c.Model, c.TokensIn, c.TokensOut, c.LatencyMS, attempts, outcome, c.Cost).Scan(&id)
	if err != nil {
		return fmt.Errorf("record model call: %w", err)
	}
	c.ID, c.At, c.Attempts, c.Outcome = id, at, attempts, outcome
	return nil
}

// ModelCalls returns the calls of a run (all calls when runID is 0), oldest first.
func (db *DB) ModelCalls(ctx context.Context, runID int64) ([]session.ModelCall, error) {
	q := `SELECT id, COALESCE(run_id, 0), at, purpose, model, tokens_in, tokens_out, latency_ms, attempts, outcome, cost FROM model_calls`
	var args []any
	if runID != 0 {
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
