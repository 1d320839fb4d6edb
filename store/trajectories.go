package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/e2e-dev/e2e/session"
)

// Trajectory returns the recorded trajectory for key, or nil, nil.
func (db *DB) Trajectory(ctx context.Context, key session.CacheKey) (*session.Trajectory, error) {
	var t session.Trajectory
	var steps, evidence string
	err := db.read.QueryRowContext(ctx, `
SELECT key, project, test, goal, steps, postcondition, evidence FROM trajectories WHERE key = ?`, string(key)).
		Scan(&t.Key, &t.Project, &t.Test, &t.Goal, &steps, &t.Postcondition, &evidence)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trajectory: %w", err)
	}
	if err := json.Unmarshal([]byte(steps), &t.Steps); err != nil {
		return nil, fmt.Errorf("trajectory %s: steps: %w", key, err)
	}
	if err := json.Unmarshal([]byte(evidence), &t.Evidence); err != nil {
		return nil, fmt.Errorf("trajectory %s: evidence: %w", key, err)
	}
	return &t, nil
}

// PutTrajectory inserts or replaces the trajectory t.Key.
func (db *DB) PutTrajectory(ctx context.Context, t *session.Trajectory) error {
	return putTrajectory(ctx, db.write, t, formatTime(db.now()))
}

// execer is what putTrajectory needs: a database or a transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

func putTrajectory(ctx context.Context, ex execer, t *session.Trajectory, now string) error {
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
	_, err = ex.ExecContext(ctx, `
INSERT INTO trajectories (key, project, test, goal, steps, postcondition, evidence, created_at, used_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET project = excluded.project, test = excluded.test, goal = excluded.goal,
    steps = excluded.steps, postcondition = excluded.postcondition, evidence = excluded.evidence,
    created_at = excluded.created_at, used_at = excluded.used_at`,
		string(t.Key), t.Project, t.Test, t.Goal, string(sb), t.Postcondition, string(eb), now, now)
	if err != nil {
		return fmt.Errorf("put trajectory: %w", err)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
