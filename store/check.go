package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Check runs SQLite's quick_check over the whole database file: every
// page's structure, without comparing indexes with their tables. It returns
// a *CorruptError (errors.Is ErrCorrupt) with the first problems it found,
// or nil. It reads as much as the file holds, so it takes time in
// proportion to its size (about a second for a few hundred megabytes).
func (db *DB) Check(ctx context.Context) error {
	return quickCheck(ctx, db.read, db.path)
}

// quickCheck runs PRAGMA quick_check on q; see Check.
func quickCheck(ctx context.Context, q *sql.DB, path string) error {
	rows, err := q.QueryContext(ctx, `PRAGMA quick_check(10)`)
	if err != nil {
		if IsCorrupt(err) {
			return &CorruptError{Path: path, Problems: []string{err.Error()}}
		}
		return fmt.Errorf("check database %s: %w", path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return fmt.Errorf("check database %s: %w", path, err)
		}
		if p != "ok" {
			problems = append(problems, p)
		}
	}
	if err := rows.Err(); err != nil {
		if IsCorrupt(err) {
			return &CorruptError{Path: path, Problems: append(problems, err.Error())}
		}
		return fmt.Errorf("check database %s: %w", path, err)
	}
	if len(problems) > 0 {
		return &CorruptError{Path: path, Problems: problems}
	}
	return nil
}
