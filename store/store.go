// Package store keeps e2e's runs, test and step results and element cache in
// a SQLite file. It is the only package that imports the SQLite driver
// (modernc.org/sqlite); *DB implements session.Store.
//
// The file is opened in WAL mode with foreign keys on, synchronous=NORMAL and
// a busy timeout. Writes go through one connection whose transactions begin
// IMMEDIATE, so a writer takes the write lock before it reads and waits for
// another process's writer (up to the busy timeout) instead of failing with
// SQLITE_BUSY halfway through. Reads go through a separate pool of query-only
// connections and never wait for writers.
//
// The schema is built from numbered SQL files embedded in the binary
// (migrations/0001_init.sql, …). Open applies the ones the file does not
// have yet, each in its own transaction, and refuses a file written by a
// newer e2e.
//
// Times are stored in UTC with nanoseconds and come back in UTC.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/store/postgres"
	"github.com/e2e-dev/e2e/store/sqlite"
)

var _ session.Store = (*DB)(nil)

// DefaultBusyTimeout is how long a write waits for another writer's lock
// before it fails.
const DefaultBusyTimeout = 10 * time.Second

// DB is an open store. It is safe for concurrent use by many goroutines, and
// several processes may open the same file at once.
type DB struct {
	path  string  // the file, or the server's URL with its password masked
	eng   *engine // what differs between SQLite and PostgreSQL
	write *sql.DB // one connection; transactions BEGIN IMMEDIATE
	read  *sql.DB // query-only connections
	now   func() time.Time

	readOnly string                // why nothing is written; "" when the store writes (readonly.go)
	beats    beats                 // the heartbeats of the runs it started (heartbeat.go)
	failure  atomic.Pointer[error] // the first failure of the database a run met (Failure, errors.go)
	// unstored holds a read-only store's run's model calls (calls.go).
	unstored struct {
		sync.Mutex
		calls []session.ModelCall
	}

	lineage    session.Lineage
	versionKey string          // VersionKey(lineage.Version)
	merged     map[string]bool // lineage.Merged

	// The cache hit path, prepared once: a lookup and a touch per step.
	cachePick      *sql.Stmt
	trajectoryPick *sql.Stmt
	cacheGet       *sql.Stmt
	cacheTouch     *sql.Stmt
}

type options struct {
	now         func() time.Time
	busyTimeout time.Duration
	lineage     session.Lineage
	redactor    *redact.Redactor // WithRedactor (redact.go)
	readOnly    string           // WithReadOnly (readonly.go): why
}

// Option configures Open.
type Option func(*options)

// WithClock makes the store take the current time from now: run start and
// finish times, cache created/used times and migration times that the
// caller leaves zero.
func WithClock(now func() time.Time) Option {
	return func(o *options) {
		if now != nil {
			o.now = now
		}
	}
}

// WithBusyTimeout sets how long a statement waits for a lock held by
// another connection or process before it fails; the default is
// DefaultBusyTimeout.
func WithBusyTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.busyTimeout = d
		}
	}
}

// Open opens the SQLite file at path, creating it and its parent
// directories if needed, and migrates it to the schema this binary knows;
// a path that is a PostgreSQL connection string (postgres.IsURL) opens
// the server's store instead.
//
// A path that looks like a connection string e2e does not read (mysql://…,
// Postgres:/…, Host=…) is refused with an error wrapping ErrConnString
// that does not quote it.
//
// It returns a *SchemaVersionError (errors.Is ErrSchemaTooNew) when the file
// was migrated by a newer e2e; the file is left untouched. Other errors come
// from creating the directory, opening or migrating the database (for
// example a file that is not a SQLite database). The caller must Close the
// returned DB.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	o := options{now: time.Now, busyTimeout: DefaultBusyTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" {
		return nil, errors.New("open store: empty path")
	}
	if postgres.IsURL(path) {
		return openPostgres(ctx, path, o)
	}
	if why, ok := redact.LooksLikeDatabaseURL(path); ok {
		// Taken for a path, it would put its password into directory
		// names; the value itself is never printed.
		return nil, fmt.Errorf("open store: %w: %s, but not one e2e reads: write a postgres:// URL or a libpq keyword/value string (host=… dbname=…), "+
			"or, for a SQLite file whose name looks so, start it with ./", ErrConnString, why)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, fmt.Errorf("create store directory: %w", err)
	}
	write := openPool(sqlite.Connector(abs, o.busyTimeout, false), o.redactor, false)
	if o.readOnly != "" {
		// The schema is still brought up to date: the file is this
		// machine's own; what is kept from writing is the runs' rows.
		if err := migrateFile(ctx, abs, o); err != nil {
			write.Close()
			return nil, err
		}
		write.Close()
		write = openPool(sqlite.Connector(abs, o.busyTimeout, true), o.redactor, false)
	}
	// SQLite has one writer per file; one connection per process keeps this
	// process's writers queueing in Go rather than in SQLite's busy handler.
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)
	read := openPool(sqlite.Connector(abs, o.busyTimeout, true), nil, false)
	n := max(4, runtime.GOMAXPROCS(0))
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)
	return finishOpen(ctx, &DB{path: abs, eng: sqliteEngine, write: write, read: read, now: o.now}, o)
}

// finishOpen pings both pools, migrates the schema and prepares the hit
// path's statements; on an error it closes db.
func finishOpen(ctx context.Context, db *DB, o options) (*DB, error) {
	fail := func(format string, err error) (*DB, error) {
		db.Close()
		return nil, fmt.Errorf(format, db.path, err)
	}
	ms, err := embeddedMigrations(db.eng)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := ping(ctx, db.write, db.eng, o.busyTimeout); err != nil {
		return fail("open database %s: %w", err)
	}
	if db.eng == postgresEngine && o.readOnly == "" {
		if o.readOnly, err = mayWrite(ctx, db); err != nil {
			return fail("open database %s: %w", err)
		}
	}
	db.readOnly = o.readOnly
	check := migrate
	if db.readOnly != "" {
		check = schemaCurrent
	}
	if err := check(ctx, db.write, db.eng, ms, o.now); err != nil {
		db.Close()
		if se, ok := errors.AsType[*SchemaVersionError](err); ok {
			se.Path = db.path
			return nil, se
		}
		return nil, fmt.Errorf("migrate database %s: %w", db.path, err)
	}
	if err := ping(ctx, db.read, db.eng, o.busyTimeout); err != nil {
		return fail("open database %s: %w", err)
	}
	db.setLineage(o.lineage)
	if db.cachePick, err = db.read.PrepareContext(ctx, fmt.Sprintf(pickSQL, "element_cache")); err != nil {
		return fail("open database %s: prepare cache lookup: %w", err)
	}
	if db.trajectoryPick, err = db.read.PrepareContext(ctx, fmt.Sprintf(pickSQL, "trajectories")); err != nil {
		return fail("open database %s: prepare trajectory lookup: %w", err)
	}
	if db.cacheGet, err = db.read.PrepareContext(ctx, cacheGetSQL); err != nil {
		return fail("open database %s: prepare cache lookup: %w", err)
	}
	if db.cacheTouch, err = db.write.PrepareContext(ctx, cacheTouchSQL); err != nil {
		return fail("open database %s: prepare cache touch: %w", err)
	}
	return db, nil
}

// Path returns the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// Close ends the heartbeats of the runs it started, closes the prepared
// statements and both connection pools, and returns the errors met doing
// so.
func (db *DB) Close() error {
	db.stopBeat(0)
	var errs []error
	for _, st := range []*sql.Stmt{db.cachePick, db.trajectoryPick, db.cacheGet, db.cacheTouch} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	errs = append(errs, db.read.Close(), db.write.Close())
	return errors.Join(errs...)
}

// inTx runs fn in a transaction on db and commits it, or rolls it back when
// fn or the commit fails. On SQLite the write pool's transactions begin
// IMMEDIATE: writers take turns and never race. On PostgreSQL they are
// SERIALIZABLE, so a transaction whose reads another one changed fails with
// a serialization failure instead of losing the other's rows; it is run
// again, a bounded number of times, so fn must have no effect outside tx
// but what it returns.
func inTx(ctx context.Context, db *sql.DB, eng *engine, fn func(*sql.Tx) error) error {
	var opts *sql.TxOptions
	if eng.serializable {
		opts = &sql.TxOptions{Isolation: sql.LevelSerializable}
	}
	wait := 2 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := txOnce(ctx, db, opts, fn)
		if err == nil || !eng.isRetry(err) || attempt == maxTxAttempts {
			return err
		}
		t := time.NewTimer(wait + time.Duration(rand.Int64N(int64(wait))))
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// maxTxAttempts bounds how often a transaction that raced others is run.
const maxTxAttempts = 25

func txOnce(ctx context.Context, db *sql.DB, opts *sql.TxOptions, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// timeLayout is how times are stored: UTC, fixed width, so strings sort as
// times.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("parse time %q: %w", s, err)
	}
	return t, nil
}

// nullTime stores the zero time as NULL.
func nullTime(t time.Time) sql.NullString {
	if t.IsZero() {
		return sql.NullString{}
	}
	return sql.NullString{String: formatTime(t), Valid: true}
}
