package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/e2e-dev/e2e/session"
)

var _ session.DecisionStore = (*DB)(nil)

// PutDecision records a decided proposal and sets d.ID. A zero decision
// time is now.
func (db *DB) PutDecision(ctx context.Context, d *session.DecisionRecord) error {
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	if d == nil || d.Proposal.Command == "" {
		return errors.New("put decision: no proposed command")
	}
	at := d.Decision.At
	if at.IsZero() {
		at = db.now()
	}
	var runID sql.NullInt64
	if d.RunID != 0 {
		runID = sql.NullInt64{Int64: d.RunID, Valid: true}
	}
	var id int64
	err := inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `
INSERT INTO decisions (run_id, project, test, kind, step_index, goal, proposed, verdict, command, reason, decided_by, decided_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			runID, d.Project, d.Proposal.Test, string(d.Proposal.Kind), d.Proposal.Index, d.Proposal.Goal, d.Proposal.Command,
			string(d.Decision.Verdict), d.Decision.Command, d.Decision.Reason, d.Decision.By, formatTime(at)).Scan(&id)
	})
	if err != nil {
		return fmt.Errorf("put decision: %w", err)
	}
	d.ID, d.Decision.At = id, at
	return nil
}

// Decisions lists the decisions of a run in the order they were taken;
// runID 0 lists every decision.
func (db *DB) Decisions(ctx context.Context, runID int64) ([]session.DecisionRecord, error) {
	q := `SELECT id, COALESCE(run_id, 0), project, test, kind, step_index, goal, proposed, verdict, command, reason, decided_by, decided_at FROM decisions`
	var args []any
	if runID != 0 {
		q += ` WHERE run_id = ?`
		args = append(args, runID)
	}
	rows, err := db.read.QueryContext(ctx, q+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("decisions: %w", err)
	}
	defer rows.Close()
	var out []session.DecisionRecord
	for rows.Next() {
		var d session.DecisionRecord
		var kind, verdict, at string
		if err := rows.Scan(&d.ID, &d.RunID, &d.Project, &d.Proposal.Test, &kind, &d.Proposal.Index, &d.Proposal.Goal, &d.Proposal.Command,
			&verdict, &d.Decision.Command, &d.Decision.Reason, &d.Decision.By, &at); err != nil {
			return nil, fmt.Errorf("decisions: %w", err)
		}
		d.Proposal.Kind, d.Decision.Verdict = session.ProposalKind(kind), session.Verdict(verdict)
		if d.Decision.At, err = parseTime(at); err != nil {
			return nil, fmt.Errorf("decisions: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
