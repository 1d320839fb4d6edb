// Package sqlite is the store's SQLite engine: the only package that imports
// the SQLite driver (modernc.org/sqlite). It knows how to reach a file (the
// data source name with its pragmas) and how to read SQLite's errors; the
// store (package store) holds the schema and every query.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"net/url"
	"path/filepath"
	"strconv"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Connector returns a connector to the file at abs (an absolute path).
// Writers get WAL, synchronous=NORMAL and IMMEDIATE transactions; readers
// are query-only. Every connection has foreign keys on and waits up to busy
// for another connection's lock.
func Connector(abs string, busy time.Duration, readOnly bool) driver.Connector {
	return dsnConnector{dsn: DSN(abs, busy, readOnly)}
}

var drv = func() driver.Driver {
	db, err := sql.Open("sqlite", "") // does not connect: only to reach the driver
	if err != nil {
		panic(err)
	}
	defer db.Close()
	return db.Driver()
}()

type dsnConnector struct{ dsn string }

func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return drv.Open(c.dsn) }
func (c dsnConnector) Driver() driver.Driver                        { return drv }

// DSN builds the driver's data source name for the file at abs; see
// Connector.
func DSN(abs string, busy time.Duration, readOnly bool) string {
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

func code(err error) (int, bool) {
	e, ok := errors.AsType[*sqlite.Error](err)
	if !ok {
		return 0, false
	}
	return e.Code(), true
}

// IsError reports whether err came from SQLite.
func IsError(err error) bool { _, ok := code(err); return ok }

// IsBusy reports whether SQLite answered SQLITE_BUSY: another connection
// holds the lock.
func IsBusy(err error) bool { c, ok := code(err); return ok && c&0xff == sqlite3.SQLITE_BUSY }

// IsCorrupt reports whether SQLite found the file damaged or not a database.
func IsCorrupt(err error) bool {
	c, ok := code(err)
	return ok && (c&0xff == sqlite3.SQLITE_CORRUPT || c&0xff == sqlite3.SQLITE_NOTADB)
}

// IsBenign reports whether the error is an interrupted statement or a file
// that cannot be opened at all: not a failure of the store's contents.
func IsBenign(err error) bool {
	c, ok := code(err)
	return ok && (c&0xff == sqlite3.SQLITE_INTERRUPT || c&0xff == sqlite3.SQLITE_CANTOPEN)
}

// IsForeignKey reports whether a write broke a foreign key.
func IsForeignKey(err error) bool {
	c, ok := code(err)
	return ok && c == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
}

// IsUnique reports whether a write broke a unique key.
func IsUnique(err error) bool {
	c, ok := code(err)
	return ok && (c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)
}
