package store

import (
	"errors"
	"fmt"
)

// ErrNotFound is returned (wrapped) when a write refers to a row that does
// not exist: FinishRun of an unknown run, SaveTest for an unknown run,
// TouchCache of an absent key. Lookups that may legitimately miss, such as
// Cache, return nil and no error instead.
var ErrNotFound = errors.New("not found")

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
