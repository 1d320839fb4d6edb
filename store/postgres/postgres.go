// Package postgres is the store's PostgreSQL engine: the only package that
// imports the PostgreSQL driver (github.com/jackc/pgx/v5). It knows how to
// reach a server from a postgres:// URL, how to take the lock under which
// migrations run, and how to read PostgreSQL's errors; the store (package
// store) holds the schema and every query.
package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/e2e-dev/e2e/session/redact"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// IsURL reports whether target names a PostgreSQL server rather than a
// file: a postgres:// or postgresql:// URL, the scheme in any case, or a
// libpq keyword/value string (redact.IsDatabaseURL).
func IsURL(target string) bool { return redact.IsDatabaseURL(target) }

// Connector parses a postgres:// URL (or a libpq keyword/value string) and
// returns a connector to it; with readOnly, every transaction on its
// connections is read-only. The password comes from the URL or, as libpq
// does, from PGPASSWORD and ~/.pgpass; it is never part of an error.
func Connector(target string, readOnly bool) (driver.Connector, error) {
	cfg, err := pgx.ParseConfig(redact.NormalURL(strings.TrimSpace(target)))
	if err != nil {
		// pgx's parse errors can quote the string they were given.
		return nil, fmt.Errorf("parse database URL %s: %s", Mask(target), Mask(errText(err)))
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	if readOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	cfg.RuntimeParams["application_name"] = "e2e"
	return stdlib.GetConnector(*cfg), nil
}

func errText(err error) string {
	var pe *pgconn.ParseConfigError
	if errors.As(err, &pe) {
		if pe.Unwrap() != nil {
			return pe.Unwrap().Error()
		}
		return "invalid"
	}
	return err.Error()
}

// Mask returns target with its password, if any, replaced by "xxxxx": what
// every message that shows a database URL prints.
func Mask(target string) string { return redact.MaskDatabase(target) }

// HasPassword reports whether target carries a password itself (rather
// than leaving it to the environment).
func HasPassword(target string) bool { return Mask(target) != target }

// Lock takes the session-level advisory lock key on conn, waiting for
// another session that holds it; unlock releases it. Migrations run under
// it, so that twenty runners starting at once migrate once.
func Lock(ctx context.Context, conn *sql.Conn, key int64) (unlock func() error, err error) {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
		return nil, err
	}
	return func() error {
		_, err := conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, key)
		return err
	}, nil
}

func code(err error) (string, bool) {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return "", false
	}
	return pe.Code, true
}

// IsError reports whether err is an error the server answered.
func IsError(err error) bool { _, ok := code(err); return ok }

// IsRetry reports whether a transaction failed only because it raced
// another (serialization_failure, deadlock_detected) and may be run again.
func IsRetry(err error) bool {
	c, ok := code(err)
	return ok && (c == "40001" || c == "40P01")
}

// IsForeignKey reports whether a write broke a foreign key.
func IsForeignKey(err error) bool { c, ok := code(err); return ok && c == "23503" }

// IsUnique reports whether a write broke a unique key.
func IsUnique(err error) bool { c, ok := code(err); return ok && c == "23505" }

// IsCorrupt reports whether the server found its data damaged.
func IsCorrupt(err error) bool {
	c, ok := code(err)
	return ok && (c == "XX001" || c == "XX002")
}

// IsReadOnly reports whether the server refused a write: a read-only
// transaction (25006) or a role without the privilege (42501).
func IsReadOnly(err error) bool {
	c, ok := code(err)
	return ok && (c == "25006" || c == "42501")
}

// IsBenign reports whether the statement was cancelled (query_canceled), not
// a failure of the store's contents.
func IsBenign(err error) bool { c, ok := code(err); return ok && c == "57014" }

// IsUnavailable reports whether err is the server not answering: it could
// not be reached, the connection broke or was closed under the store (a
// server that went away between two transactions: pgx's "conn closed"),
// or it timed out.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var oe *net.OpError // not net.Error: a syscall.Errno is one too
	return IsConnect(err) || pgconn.Timeout(err) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, pgconn.ErrConnClosed) || errors.As(err, &oe)
}

// IsConnect reports whether err is a connection to the server that could
// not be made: refused, unreachable, or out of connect_timeout (the error
// then wraps context.DeadlineExceeded, yet the server is what failed).
func IsConnect(err error) bool {
	var ce *pgconn.ConnectError
	return errors.As(err, &ce)
}
