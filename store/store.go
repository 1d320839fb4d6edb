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
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/redact"
	"modernc.org/sqlite"
)

var _ session.Store = (*DB)(nil)

// DefaultBusyTimeout is how long a write waits for another writer's lock
// before it fails.
const DefaultBusyTimeout = 10 * time.Second

// DB is an open store. It is safe for concurrent use by many goroutines, and
// several processes may open the same file at once.
type DB struct {
	path  string
	write *sql.DB // one connection; transactions BEGIN IMMEDIATE
	read  *sql.DB // query-only connections
	now   func() time.Time

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
// directories if needed, and migrates it to the schema this binary knows.
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
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, fmt.Errorf("create store directory: %w", err)
	}
	ms, err := embeddedMigrations()
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}

	write, err := openWrite(dsn(abs, o.busyTimeout, false), o.redactor)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	// SQLite has one writer per file; one connection per process keeps this
	// process's writers queueing in Go rather than in SQLite's busy handler.
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)
	if err := ping(ctx, write, o.busyTimeout); err != nil {
		write.Close()
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	if err := migrate(ctx, write, ms, o.now); err != nil {
		write.Close()
		if se, ok := errors.AsType[*SchemaVersionError](err); ok {
			se.Path = abs
			return nil, se
		}
		return nil, fmt.Errorf("migrate database %s: %w", abs, err)
	}

	read, err := sql.Open("sqlite", dsn(abs, o.busyTimeout, true))
	if err != nil {
		write.Close()
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	n := max(4, runtime.GOMAXPROCS(0))
	read.SetMaxOpenConns(n)
	read.SetMaxIdleConns(n)
	if err := ping(ctx, read, o.busyTimeout); err != nil {
		read.Close()
		write.Close()
		return nil, fmt.Errorf("open database %s: %w", abs, err)
	}
	db := &DB{path: abs, write: write, read: read, now: o.now}
	db.setLineage(o.lineage)
	if db.cachePick, err = read.PrepareContext(ctx, fmt.Sprintf(pickSQL, "element_cache")); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: prepare cache lookup: %w", abs, err)
	}
	if db.trajectoryPick, err = read.PrepareContext(ctx, fmt.Sprintf(pickSQL, "trajectories")); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: prepare trajectory lookup: %w", abs, err)
	}
	if db.cacheGet, err = read.PrepareContext(ctx, cacheGetSQL); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: prepare cache lookup: %w", abs, err)
	}
	if db.cacheTouch, err = write.PrepareContext(ctx, cacheTouchSQL); err != nil {
		db.Close()
		return nil, fmt.Errorf("open database %s: prepare cache touch: %w", abs, err)
	}
	return db, nil
}

// dsn builds the driver's data source name for the file at abs. Writers get
// WAL, synchronous=NORMAL and IMMEDIATE transactions; readers are query-only.
func dsn(abs string, busy time.Duration, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(busy.Milliseconds(), 10)+")")
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Set("_txlock", "immediate")
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	if u.Path != "" && u.Path[0] != '/' { // a Windows path, C:/…
		u.Path = "/" + u.Path
	}
	return u.String()
}

// Path returns the absolute path of the database file.
func (db *DB) Path() string { return db.path }

// Close closes the prepared statements and both connection pools, and
// returns the errors met doing so.
func (db *DB) Close() error {
	var errs []error
	for _, st := range []*sql.Stmt{db.cachePick, db.trajectoryPick, db.cacheGet, db.cacheTouch} {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	errs = append(errs, db.read.Close(), db.write.Close())
	return errors.Join(errs...)
}

// inTx runs fn in a transaction on db (IMMEDIATE on the write pool) and
// commits it, or rolls it back when fn or the commit fails.
func inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
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

// hasCode reports whether err is a SQLite error with the extended result
// code code, e.g. SQLITE_CONSTRAINT_FOREIGNKEY.
func hasCode(err error, code int) bool {
	e, ok := errors.AsType[*sqlite.Error](err)
	return ok && e.Code() == code
}
