package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/e2e-dev/e2e/session"
)

// Trajectory returns the recorded trajectory for key that the store's
// lineage picks (see WithLineage), or nil, nil. An error wraps
// session.ErrUnreadableRow when a stored JSON column of the row does not
// decode or a list of it is over its bound (a *session.OversizeRowError).
func (db *DB) Trajectory(ctx context.Context, key session.CacheKey) (_ *session.Trajectory, err error) {
	defer db.noteFailure(&err)
	var t session.Trajectory
	var steps, evidence, gaps string
	id, ok, err := db.pick(ctx, db.trajectoryPick, key)
	if err != nil {
		return nil, fmt.Errorf("trajectory: %w", err)
	}
	if !ok {
		return nil, nil
	}
	err = db.read.QueryRowContext(ctx, `
SELECT key, project, test, goal, steps, postcondition, evidence, gaps, identity, branch, git_commit, version
FROM trajectories WHERE id = ?`, id).
		Scan(&t.Key, &t.Project, &t.Test, &t.Goal, &steps, &t.Postcondition, &evidence, &gaps, &t.Identity, &t.Branch, &t.Commit, &t.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trajectory: %w", err)
	}
	if err := json.Unmarshal([]byte(steps), &t.Steps); err != nil {
		return nil, fmt.Errorf("trajectory %s: %w: steps: %w", key, session.ErrUnreadableRow, err)
	}
	if err := json.Unmarshal([]byte(evidence), &t.Evidence); err != nil {
		return nil, fmt.Errorf("trajectory %s: %w: evidence: %w", key, session.ErrUnreadableRow, err)
	}
	if gaps != "[]" { // none: Gaps stays nil
		if err := json.Unmarshal([]byte(gaps), &t.Gaps); err != nil {
			return nil, fmt.Errorf("trajectory %s: %w: gaps: %w", key, session.ErrUnreadableRow, err)
		}
	}
	if err := t.CheckBounds(); err != nil {
		return nil, fmt.Errorf("trajectory %s: %w", key, err)
	}
	return &t, nil
}

// TouchTrajectory records a replay of the row of key that Trajectory
// returns: used_at becomes now and hits grows by one. No row is not an error.
func (db *DB) TouchTrajectory(ctx context.Context, key session.CacheKey) (err error) {
	defer db.noteFailure(&err)
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	id, ok, err := db.pick(ctx, db.trajectoryPick, key)
	if err != nil || !ok {
		return err
	}
	if _, err := db.write.ExecContext(ctx, `UPDATE trajectories SET used_at = ?, hits = hits + 1 WHERE id = ?`, formatTime(db.now()), id); err != nil {
		return fmt.Errorf("touch trajectory %s: %w", key, err)
	}
	return nil
}

// PutTrajectory inserts t as a row of the store's lineage, or replaces that
// lineage's row of t.Key; rows of other branches, commits and versions
// stay.
func (db *DB) PutTrajectory(ctx context.Context, t *session.Trajectory) (err error) {
	defer db.noteFailure(&err)
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	return putTrajectory(ctx, db.write, t, db.lineage, formatTime(db.now()))
}

// execer is what the put functions need: a database or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func putTrajectory(ctx context.Context, ex execer, t *session.Trajectory, l session.Lineage, now string) error {
	if t == nil || t.Key == "" {
		return errors.New("put trajectory: no key")
	}
	sb, err := json.Marshal(nonNil(t.Steps))
	if err != nil {
		return fmt.Errorf("put trajectory: %w", err)
	}
	eb, err := json.Marshal(t.Evidence)
	if err != nil {
		return fmt.Errorf("put trajectory: %w", err)
	}
	gb := []byte("[]")
	if len(t.Gaps) > 0 {
		if gb, err = json.Marshal(t.Gaps); err != nil {
			return fmt.Errorf("put trajectory: %w", err)
		}
	}
	identity := t.Identity
	if identity == "" {
		identity = "{}"
	}
	_, err = ex.ExecContext(ctx, `
INSERT INTO trajectories (key, branch, git_commit, depth, version, version_key, identity,
    project, test, goal, steps, postcondition, evidence, gaps, created_at, used_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (key, branch, git_commit, version) DO UPDATE SET depth = excluded.depth, identity = excluded.identity,
    project = excluded.project, test = excluded.test, goal = excluded.goal,
    steps = excluded.steps, postcondition = excluded.postcondition, evidence = excluded.evidence, gaps = excluded.gaps,
    created_at = excluded.created_at, used_at = excluded.used_at`,
		string(t.Key), l.Branch, l.Commit, l.Depth, l.Version, VersionKey(l.Version), identity,
		t.Project, t.Test, t.Goal, string(sb), t.Postcondition, string(eb), string(gb), now, now)
	if err != nil {
		return fmt.Errorf("put trajectory: %w", err)
	}
	t.Identity, t.Branch, t.Commit, t.Version = identity, l.Branch, l.Commit, l.Version
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
