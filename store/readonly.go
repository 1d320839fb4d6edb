package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrReadOnly is matched (errors.Is) by the error of a command that must
// write (delete, prune, import, accept or reject a heal) on a read-only
// store.
var ErrReadOnly = errors.New("the store is read-only")

// WithReadOnly opens the store read-only, for the reason given (a fork's
// pull request, a branch cache.writeBranches leaves out): nothing is
// migrated or written. A run's writes (its results, cache rows, touches,
// heals, model calls) succeed without writing, so the run goes on as it
// would; commands whose purpose is to write fail with ErrReadOnly. The
// connections themselves are read-only too (SQLite's query_only,
// PostgreSQL's read-only transactions), so a write that slipped past would
// fail rather than land.
func WithReadOnly(reason string) Option {
	return func(o *options) { o.readOnly = reason }
}

// ReadOnly says why the store writes nothing, or "" when it writes.
func (db *DB) ReadOnly() string { return db.readOnly }

func (db *DB) writable() error {
	if db.readOnly != "" {
		return fmt.Errorf("%w (%s): what writes to it is refused; run this where the store may be written", ErrReadOnly, db.readOnly)
	}
	return nil
}

// mayWrite asks a PostgreSQL server whether this connection's role may
// write the store's tables; "" when it may (or when the schema is not
// there yet: migrating it will tell).
func mayWrite(ctx context.Context, db *DB) (string, error) {
	var role string
	var exists, insert bool
	err := db.read.QueryRowContext(ctx, `
SELECT current_user, to_regclass('element_cache') IS NOT NULL,
       CASE WHEN to_regclass('element_cache') IS NULL THEN true
            ELSE has_table_privilege('element_cache', 'INSERT') END`).Scan(&role, &exists, &insert)
	if err != nil {
		return "", err
	}
	if exists && !insert {
		return fmt.Sprintf("the database role %s may not write", role), nil
	}
	return "", nil
}

// migrateFile brings the SQLite file at abs to this binary's schema, for a
// read-only open.
func migrateFile(ctx context.Context, abs string, o options) error {
	o.readOnly = ""
	db, err := Open(ctx, abs, WithBusyTimeout(o.busyTimeout), WithClock(o.now))
	if err != nil {
		return err
	}
	return db.Close()
}

// schemaCurrent checks, without writing, that db's schema is the one this
// binary knows: a read-only store cannot migrate.
func schemaCurrent(ctx context.Context, db *sql.DB, eng *engine, ms []migration, _ func() time.Time) error {
	known := ms[len(ms)-1].version
	var newest int
	err := db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&newest)
	if err != nil {
		return fmt.Errorf("read schema_migrations (a read-only store must have been created by a run that may write): %w", err)
	}
	switch {
	case newest > known:
		return &SchemaVersionError{Database: newest, Binary: known}
	case newest < known:
		return fmt.Errorf("the store has schema version %d and this e2e needs %d; a read-only run cannot migrate it: run e2e once where it may write", newest, known)
	}
	return nil
}
