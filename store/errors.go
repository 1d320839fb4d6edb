package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/e2e-dev/e2e/store/postgres"
	"github.com/e2e-dev/e2e/store/sqlite"
)

// ErrNotFound is returned (wrapped) when a write refers to a row that does
// not exist: FinishRun of an unknown run, SaveTest for an unknown run,
// TouchCache of an absent key. Lookups that may legitimately miss, such as
// Cache, return nil and no error instead.
var ErrNotFound = errors.New("not found")

// ErrConnString is matched (errors.Is) by Open's error for a path that
// looks like a database connection string but is none e2e reads: taken
// for a SQLite file, its password would become directory names.
var ErrConnString = errors.New("the store looks like a database connection string")

// ErrSchemaTooNew is matched (errors.Is) by a *SchemaVersionError: the
// database was written by a newer e2e than this one.
var ErrSchemaTooNew = errors.New("database schema is newer than this e2e")

// SchemaVersionError is returned by Open when the database records a
// migration this binary does not know. Open refuses such a database rather
// than writing rows a newer schema may not expect.
type SchemaVersionError struct {
	Path     string // the database file
	Database int    // the newest migration the database records
	Binary   int    // the newest migration this binary knows
}

func (e *SchemaVersionError) Error() string {
	return fmt.Sprintf("database %s has schema version %d but this e2e knows only up to %d: upgrade e2e or use another database file",
		e.Path, e.Database, e.Binary)
}

// Is reports whether target is ErrSchemaTooNew.
func (e *SchemaVersionError) Is(target error) bool { return target == ErrSchemaTooNew }

// ErrCorrupt is matched (errors.Is) by a *CorruptError: the database file
// is damaged. IsCorrupt also recognises SQLite's own reports of damage.
var ErrCorrupt = errors.New("database file is damaged")

// CorruptError is returned by DB.Check when SQLite's quick_check (or, on
// PostgreSQL, reading every row) finds the database damaged.
type CorruptError struct {
	Path     string   // the database file
	Problems []string // what quick_check reported (at most the first ten), or the tables that could not be read
	By       string   // what found them: "" for quick_check
}

func (e *CorruptError) Error() string {
	msg := "database " + e.Path + " is damaged"
	if len(e.Problems) > 0 {
		by := e.By
		if by == "" {
			by = "quick_check"
		}
		msg += " (" + by + ": " + e.Problems[0]
		if len(e.Problems) > 1 {
			msg += fmt.Sprintf(", and %d more", len(e.Problems)-1)
		}
		msg += ")"
	}
	return msg
}

// Is reports whether target is ErrCorrupt.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// IsCorrupt reports whether err says the database file is damaged: a
// *CorruptError, or SQLite answering SQLITE_CORRUPT or SQLITE_NOTADB.
func IsCorrupt(err error) bool {
	if errors.Is(err, ErrCorrupt) {
		return true
	}
	return sqlite.IsCorrupt(err) || postgres.IsCorrupt(err)
}

// IsFailure reports whether err (or an error it wraps) is the database
// failing at run time: a SQLite error such as "database is locked" past the
// busy timeout, a full disk, an I/O error, or a damaged file (IsCorrupt);
// a PostgreSQL server that does not answer (it cannot be reached or
// connected to within connect_timeout, the connection broke or was closed,
// it timed out) or answers with an error.
// It is false for nil, for cancellation (context.Canceled, SQLite's
// SQLITE_INTERRUPT), for a file that cannot be opened at all (a bad path or
// permissions: SQLITE_CANTOPEN), for a schema newer than this e2e
// (ErrSchemaTooNew) and for bad input such as an import line (*ImportError):
// those are the caller's or the configuration's to fix.
func IsFailure(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) {
		return false
	}
	if postgres.IsConnect(err) {
		return true // a server that did not answer within connect_timeout wraps DeadlineExceeded too
	}
	if errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, ErrSchemaTooNew) {
		return false
	}
	if _, ok := errors.AsType[*ImportError](err); ok {
		return false
	}
	if errors.Is(err, ErrCorrupt) {
		return true
	}
	if sqlite.IsError(err) {
		return !sqlite.IsBenign(err)
	}
	if postgres.IsError(err) {
		return !postgres.IsBenign(err)
	}
	return postgres.IsUnavailable(err)
}

// noteFailure keeps *err as the store's Failure when it is the first
// failure of the database itself (IsFailure) a method met.
func (db *DB) noteFailure(err *error) {
	if *err != nil && db.failure.Load() == nil && IsFailure(*err) {
		e := *err
		db.failure.CompareAndSwap(nil, &e)
	}
}

// Failure returns the first failure of the database itself (IsFailure: a
// damaged page, a lock held past the busy timeout, a full disk, a server
// gone) that the methods a run uses met since Open, or nil. A run goes on
// past one — the step or test that met it fails — and the command then
// ends as for the store failing (exit 5, with what to do), not as for a
// failed test.
func (db *DB) Failure() error {
	if p := db.failure.Load(); p != nil {
		return *p
	}
	return nil
}
