package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/e2e-dev/e2e/session"
)

// PutHeal records h and sets h.ID, h.CreatedAt, h.Seen and the lineage.
// An empty status is "staged". A key and branch has one staged heal at a
// time, which a unique index enforces: a staged h that proposes the same
// new steps, postcondition and gaps as the staged heal of its key and
// branch joins it (h becomes that heal: its ID and CreatedAt, Seen one more,
// LastSeenAt now); a different one supersedes it (status "superseded",
// SupersededBy h.ID) and is inserted. An accepted h supersedes the staged
// heal of its key and branch too, and replaces the trajectory, all in the
// same transaction.
func (db *DB) PutHeal(ctx context.Context, h *session.Heal) (err error) {
	defer db.noteFailure(&err)
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	if h == nil || h.Key == "" {
		return errors.New("put heal: no key")
	}
	if h.Status == "" {
		h.Status = "staged"
	}
	oldB, err := json.Marshal(nonNil(h.OldSteps))
	if err != nil {
		return fmt.Errorf("put heal: %w", err)
	}
	newB, err := json.Marshal(nonNil(h.NewSteps))
	if err != nil {
		return fmt.Errorf("put heal: %w", err)
	}
	evB, err := json.Marshal(h.Evidence)
	if err != nil {
		return fmt.Errorf("put heal: %w", err)
	}
	gapsB, err := json.Marshal(nonNil(h.Gaps))
	if err != nil {
		return fmt.Errorf("put heal: %w", err)
	}
	now := db.now()
	l := db.lineage
	var decided sql.NullString
	if h.Status != "staged" {
		decided = sql.NullString{String: formatTime(now), Valid: true}
	}
	var (
		id      int64
		seen    int
		created string
	)
	err = inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		args := []any{string(h.Key), h.Project, h.Test, h.Goal, string(oldB), string(newB), h.FailedIndex, h.Reason, h.Postcondition, string(evB),
			h.Status, formatTime(now), decided, h.DecidedBy, h.PageBefore, h.PageAfter, l.Branch, l.Commit, l.Depth, l.Version, string(gapsB)}
		const insert = `
INSERT INTO heals (key, project, test, goal, old_steps, new_steps, failed_index, reason, postcondition, evidence, status, created_at, decided_at, decided_by,
                   page_before, page_after, branch, git_commit, depth, version, gaps)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
		if h.Status == "staged" {
			// Joins the staged heal when it proposes the same; when it
			// proposes something else, no row comes back.
			err := tx.QueryRowContext(ctx, insert+`
ON CONFLICT (key, branch) WHERE status = 'staged' DO UPDATE SET seen = heals.seen + 1, last_seen_at = excluded.created_at
WHERE heals.new_steps = excluded.new_steps AND heals.postcondition = excluded.postcondition AND heals.gaps = excluded.gaps
RETURNING id, seen, created_at`, args...).Scan(&id, &seen, &created)
			if err == nil {
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, `UPDATE heals SET status = 'superseded', decided_at = ?, decided_by = 'e2e'
WHERE key = ? AND branch = ? AND status = 'staged'`, formatTime(now), string(h.Key), l.Branch)
		if err != nil {
			return err
		}
		superseded, _ := res.RowsAffected()
		if err := tx.QueryRowContext(ctx, insert+` RETURNING id, seen, created_at`, args...).Scan(&id, &seen, &created); err != nil {
			return err
		}
		if superseded > 0 {
			if _, err := tx.ExecContext(ctx, `UPDATE heals SET superseded_by = ?
WHERE key = ? AND branch = ? AND status = 'superseded' AND superseded_by IS NULL`, id, string(h.Key), l.Branch); err != nil {
				return err
			}
		}
		if h.Status == "accepted" {
			return putTrajectory(ctx, tx, healed(h), l, formatTime(now))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("put heal: %w", err)
	}
	if h.CreatedAt, err = parseTime(created); err != nil {
		return fmt.Errorf("put heal: %w", err)
	}
	h.ID, h.Seen = id, seen
	if seen > 1 {
		h.LastSeenAt = now
	}
	h.Branch, h.Commit, h.Version = l.Branch, l.Commit, l.Version
	return nil
}

// healed is the trajectory a heal proposes.
func healed(h *session.Heal) *session.Trajectory {
	return &session.Trajectory{Key: h.Key, Project: h.Project, Test: h.Test, Goal: h.Goal,
		Steps: h.NewSteps, Postcondition: h.Postcondition, Evidence: h.Evidence, Gaps: h.Gaps}
}

const healColumns = `id, key, project, test, goal, old_steps, new_steps, failed_index, reason, postcondition, evidence,
       status, created_at, COALESCE(decided_at, ''), decided_by, page_before, page_after, branch, git_commit, version, gaps,
       seen, COALESCE(last_seen_at, ''), COALESCE(superseded_by, 0)`

func scanHeal(row interface{ Scan(...any) error }) (*session.Heal, error) {
	var h session.Heal
	var oldS, newS, ev, created, decided, gaps, lastSeen string
	if err := row.Scan(&h.ID, &h.Key, &h.Project, &h.Test, &h.Goal, &oldS, &newS, &h.FailedIndex, &h.Reason, &h.Postcondition, &ev,
		&h.Status, &created, &decided, &h.DecidedBy, &h.PageBefore, &h.PageAfter, &h.Branch, &h.Commit, &h.Version, &gaps,
		&h.Seen, &lastSeen, &h.SupersededBy); err != nil {
		return nil, err
	}
	if gaps != "[]" { // none: Gaps stays nil
		if err := json.Unmarshal([]byte(gaps), &h.Gaps); err != nil {
			return nil, err
		}
	}
	if err := json.Unmarshal([]byte(oldS), &h.OldSteps); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(newS), &h.NewSteps); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(ev), &h.Evidence); err != nil {
		return nil, err
	}
	var err error
	if h.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if decided != "" {
		if h.DecidedAt, err = parseTime(decided); err != nil {
			return nil, err
		}
	}
	if lastSeen != "" {
		if h.LastSeenAt, err = parseTime(lastSeen); err != nil {
			return nil, err
		}
	}
	return &h, nil
}

// StagedHeal returns the newest heal of key staged on the store's branch,
// or nil, nil: a staged heal stays on its branch until it is accepted.
func (db *DB) StagedHeal(ctx context.Context, key session.CacheKey) (_ *session.Heal, err error) {
	defer db.noteFailure(&err)
	h, err := scanHeal(db.read.QueryRowContext(ctx, `SELECT `+healColumns+` FROM heals
WHERE key = ? AND status = 'staged' AND branch = ? ORDER BY id DESC LIMIT 1`, string(key), db.lineage.Branch))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("staged heal: %w", err)
	}
	return h, nil
}

// Heal returns heal id, or an error wrapping ErrNotFound.
func (db *DB) Heal(ctx context.Context, id int64) (*session.Heal, error) {
	h, err := scanHeal(db.read.QueryRowContext(ctx, `SELECT `+healColumns+` FROM heals WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("heal %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("heal %d: %w", id, err)
	}
	return h, nil
}

// Heals lists heals, newest first; status "" means all.
func (db *DB) Heals(ctx context.Context, status string) ([]session.Heal, error) {
	q := `SELECT ` + healColumns + ` FROM heals`
	var args []any
	if status != "" {
		q += ` WHERE status = ?`
		args = append(args, status)
	}
	rows, err := db.read.QueryContext(ctx, q+` ORDER BY id DESC`, args...)
	if err != nil {
		return nil, fmt.Errorf("heals: %w", err)
	}
	defer rows.Close()
	var out []session.Heal
	for rows.Next() {
		h, err := scanHeal(rows)
		if err != nil {
			return nil, fmt.Errorf("heals: %w", err)
		}
		out = append(out, *h)
	}
	return out, rows.Err()
}

// DecideHeal accepts or rejects a staged heal, recording who and when. An
// accepted heal replaces the trajectory in the same transaction and decides
// its key on its branch: any other heal of them still staged is superseded
// by it. A rejected one leaves the old trajectory, and the test heals again
// on its next run.
// The accepted trajectory is a row of the heal's own branch, commit and
// version, wherever it is accepted from. A heal that is not staged is an
// error.
func (db *DB) DecideHeal(ctx context.Context, id int64, accept bool, by string) (*session.Heal, error) {
	if err := db.writable(); err != nil {
		return nil, err
	}
	h, err := db.Heal(ctx, id)
	if err != nil {
		return nil, err
	}
	if h.Status != "staged" {
		return nil, fmt.Errorf("heal %d was already %s", id, h.Status)
	}
	status := "rejected"
	if accept {
		status = "accepted"
	}
	now := db.now()
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("decide heal %d: %w", id, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE heals SET status = ?, decided_at = ?, decided_by = ? WHERE id = ? AND status = 'staged'`,
		status, formatTime(now), by, id)
	if err != nil {
		return nil, fmt.Errorf("decide heal %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil, fmt.Errorf("heal %d was decided meanwhile", id)
	}
	if accept {
		l := session.Lineage{Branch: h.Branch, Commit: h.Commit, Version: h.Version}
		if err := tx.QueryRowContext(ctx, `SELECT depth FROM heals WHERE id = ?`, id).Scan(&l.Depth); err != nil {
			return nil, fmt.Errorf("decide heal %d: %w", id, err)
		}
		if err := putTrajectory(ctx, tx, healed(h), l, formatTime(now)); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE heals SET status = 'superseded', decided_at = ?, decided_by = ?, superseded_by = ?
WHERE key = ? AND branch = ? AND status = 'staged' AND id != ?`, formatTime(now), by, id, string(h.Key), h.Branch, id); err != nil {
			return nil, fmt.Errorf("decide heal %d: %w", id, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("decide heal %d: %w", id, err)
	}
	h.Status, h.DecidedAt, h.DecidedBy = status, now, by
	return h, nil
}
