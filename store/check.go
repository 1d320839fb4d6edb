package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Check looks for damage in the store. On SQLite it runs quick_check over
// the whole database file: every page's structure, without comparing
// indexes with their tables. On PostgreSQL it reads every row of the
// store's tables, so that the server's own checks of each page it reads
// (and its data checksums, when the cluster has them) see all of them. It
// returns a *CorruptError (errors.Is ErrCorrupt) with the first problems it
// found, or nil; other errors are the database failing. It reads as much
// as the store holds, so it takes time in proportion to its size (about a
// second for a few hundred megabytes).
func (db *DB) Check(ctx context.Context) error {
	if db.eng == postgresEngine {
		return readAllRows(ctx, db.read, db.path)
	}
	return quickCheck(ctx, db.read, db.path)
}

// readAllRows reads every row of the tables in the store's schema on a
// PostgreSQL server; see Check.
func readAllRows(ctx context.Context, q *sql.DB, path string) error {
	rows, err := q.QueryContext(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)
	if err != nil {
		return fmt.Errorf("check database %s: %w", path, err)
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return fmt.Errorf("check database %s: %w", path, err)
		}
		tables = append(tables, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("check database %s: %w", path, err)
	}
	var problems []string
	for _, t := range tables {
		// Every column of every row, TOASTed values included.
		var n int64
		err := q.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT length(r::text) FROM `+pgQuote(t)+` r) x`).Scan(&n)
		switch {
		case err == nil:
		case IsCorrupt(err):
			problems = append(problems, t+": "+err.Error())
		default:
			return fmt.Errorf("check database %s: table %s: %w", path, t, err)
		}
	}
	if len(problems) > 0 {
		return &CorruptError{Path: path, Problems: problems, By: "reading every row"}
	}
	return nil
}

// pgQuote quotes a PostgreSQL identifier.
func pgQuote(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }

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
