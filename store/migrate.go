package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/e2e-dev/e2e/store/postgres"
)

// migrationLock is the PostgreSQL advisory lock key under which the schema
// is migrated ("e2e migr" in ASCII).
const migrationLock int64 = 0x6532652d6d696772

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrationFiles embed.FS

// migration is one numbered SQL file.
type migration struct {
	version int
	name    string // the file name, e.g. 0001_init.sql
	sql     string
}

// migrationVersion parses the version out of a name like 0001_init.sql:
// four digits, an underscore, lowercase words joined by underscores.
func migrationVersion(name string) (int, bool) {
	stem, ok := strings.CutSuffix(name, ".sql")
	if !ok || len(stem) < 6 || stem[4] != '_' {
		return 0, false
	}
	for _, r := range stem[5:] {
		if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '_') {
			return 0, false
		}
	}
	v, err := strconv.Atoi(stem[:4])
	if err != nil || v < 0 || strings.ContainsAny(stem[:4], "+-") {
		return 0, false
	}
	return v, true
}

// embeddedMigrations returns the migrations compiled into the binary.
func embeddedMigrations(eng *engine) ([]migration, error) {
	sub, err := fs.Sub(migrationFiles, eng.migrations)
	if err != nil {
		return nil, fmt.Errorf("read migrations: %w", err)
	}
	return loadMigrations(sub)
}

// loadMigrations reads every *.sql file at the root of fsys. Names must be
// NNNN_words.sql and the versions must run 1, 2, 3… without gaps, so that a
// missing or duplicated file is an error rather than a silently skipped step.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	slices.Sort(names)
	ms := make([]migration, 0, len(names))
	for i, name := range names {
		v, ok := migrationVersion(path.Base(name))
		if !ok {
			return nil, fmt.Errorf("migration %s: name must look like 0001_words.sql", name)
		}
		if v != i+1 {
			return nil, fmt.Errorf("migration %s: version %d, want %d (versions run from 1 without gaps)", name, v, i+1)
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		ms = append(ms, migration{version: v, name: name, sql: string(body)})
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no migrations")
	}
	return ms, nil
}

// migrate brings the schema of db up to the last of ms. Each migration runs
// in its own write transaction together with its schema_migrations row, and
// re-checks that row inside the transaction, so two processes opening the
// same new file at once apply each migration exactly once. A database that
// records a version newer than the last of ms is left untouched and a
// *SchemaVersionError is returned.
func migrate(ctx context.Context, db *sql.DB, eng *engine, ms []migration, now func() time.Time) error {
	if eng == postgresEngine {
		// Twenty runners starting at once: one migrates, the others wait
		// for it here and then find nothing left to apply.
		conn, err := db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		unlock, err := postgres.Lock(ctx, conn, migrationLock)
		if err != nil {
			return fmt.Errorf("lock for migration: %w", err)
		}
		defer unlock()
	}
	const bootstrap = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT NOT NULL
)`
	var exists int
	hasTable := `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'`
	if eng == postgresEngine {
		hasTable = `SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'schema_migrations'`
	}
	err := db.QueryRowContext(ctx, hasTable).Scan(&exists)
	if err != nil {
		return fmt.Errorf("read schema: %w", err)
	}
	if exists == 0 {
		if err := inTx(ctx, db, eng, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, bootstrap)
			return err
		}); err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
	}

	applied := make(map[int]bool)
	rows, err := db.QueryContext(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return fmt.Errorf("read schema_migrations: %w", err)
	}
	newest := 0
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return fmt.Errorf("read schema_migrations: %w", err)
		}
		applied[v] = true
		newest = max(newest, v)
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return fmt.Errorf("read schema_migrations: %w", err)
	}
	rows.Close()

	known := ms[len(ms)-1].version
	if newest > known {
		return &SchemaVersionError{Database: newest, Binary: known}
	}

	for _, m := range ms {
		if applied[m.version] {
			continue
		}
		err := inTx(ctx, db, eng, func(tx *sql.Tx) error {
			// Another process may have applied it since we looked.
			var n int
			if err := tx.QueryRowContext(ctx,
				`SELECT count(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx,
				`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
				m.version, m.name, formatTime(now()))
			return err
		})
		if err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
	}
	return nil
}
