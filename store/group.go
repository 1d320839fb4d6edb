package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/e2e-dev/e2e/session"
)

// RunGroup returns the runs of group (see session.Run.Group), oldest first,
// each with the tests it set out to run, its shard, base URL and variant.
// Runs still running are included (their status says so). An unknown or
// empty group has no runs: the result is empty and the error nil. Runs
// that are over are marked "interrupted" first, as Runs does.
func (db *DB) RunGroup(ctx context.Context, group string) ([]session.Run, error) {
	if group == "" {
		return nil, nil
	}
	_ = db.markInterrupted(ctx)
	tx, err := db.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("run group %q: begin: %w", group, err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only; nothing to undo
	rows, err := tx.QueryContext(ctx, `
SELECT id, project, started_at, finished_at, status, branch, git_commit, version, shard, base_url, variant, run_group
FROM runs WHERE run_group = ? ORDER BY id`, group)
	if err != nil {
		return nil, fmt.Errorf("run group %q: %w", group, err)
	}
	var runs []session.Run
	for rows.Next() {
		var (
			r        session.Run
			started  string
			finished sql.NullString
		)
		if err := rows.Scan(&r.ID, &r.Project, &started, &finished, &r.Status, &r.Branch, &r.Commit, &r.Version, &r.Shard,
			&r.BaseURL, &r.Variant, &r.Group); err != nil {
			rows.Close()
			return nil, fmt.Errorf("run group %q: %w", group, err)
		}
		if r.StartedAt, err = parseTime(started); err != nil {
			rows.Close()
			return nil, fmt.Errorf("run group %q: run %d: %w", group, r.ID, err)
		}
		if finished.Valid {
			if r.FinishedAt, err = parseTime(finished.String); err != nil {
				rows.Close()
				return nil, fmt.Errorf("run group %q: run %d: %w", group, r.ID, err)
			}
		}
		runs = append(runs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("run group %q: %w", group, err)
	}
	for i := range runs {
		names, err := groupRunTests(ctx, tx, runs[i].ID)
		if err != nil {
			return nil, fmt.Errorf("run group %q: run %d: %w", group, runs[i].ID, err)
		}
		runs[i].Tests = names
	}
	return runs, nil
}

// groupRunTests are the tests run id set out to run, by name.
func groupRunTests(ctx context.Context, tx *sql.Tx, id int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name FROM run_tests WHERE run_id = ? ORDER BY name`, id)
	if err != nil {
		return nil, fmt.Errorf("its tests: %w", err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("its tests: %w", err)
		}
		names = append(names, n)
	}
	return names, rows.Err()
}
