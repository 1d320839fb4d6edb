package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"

	"github.com/e2e-dev/e2e/session/redact"
)

// WithRedactor makes the store redact every secret value r knows (now or
// later) from every string and byte argument it writes: each statement of
// the write connection passes through r before SQLite sees it, whichever
// method of the store issues it. JSON documents stay valid JSON (r.Value).
// Reads are not changed.
func WithRedactor(r *redact.Redactor) Option {
	return func(o *options) { o.redactor = r }
}

// openWrite opens the write pool: through the redacting connector when
// there is a redactor, else plainly.
func openWrite(dsn string, r *redact.Redactor) (*sql.DB, error) {
	if r == nil {
		return sql.Open("sqlite", dsn)
	}
	probe, err := sql.Open("sqlite", "") // does not connect: only to reach the driver
	if err != nil {
		return nil, err
	}
	drv := probe.Driver()
	_ = probe.Close()
	return sql.OpenDB(&redactConnector{drv: drv, dsn: dsn, red: r}), nil
}

// redactConnector opens driver connections whose statement arguments are
// redacted.
type redactConnector struct {
	drv driver.Driver
	dsn string
	red *redact.Redactor
}

// sqliteConn is what the SQLite driver's connections implement and the
// wrapper passes on.
type sqliteConn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ConnBeginTx
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

func (c *redactConnector) Connect(context.Context) (driver.Conn, error) {
	cn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	sc, ok := cn.(sqliteConn)
	if !ok {
		_ = cn.Close()
		return nil, errors.New("the sqlite driver's connection lacks a method the redacting wrapper needs")
	}
	return &redactConn{sqliteConn: sc, red: c.red}, nil
}

func (c *redactConnector) Driver() driver.Driver { return c.drv }

type redactConn struct {
	sqliteConn
	red *redact.Redactor
}

func (c *redactConn) args(in []driver.NamedValue) []driver.NamedValue {
	if c.red.Len() == 0 || len(in) == 0 {
		return in
	}
	out := make([]driver.NamedValue, len(in))
	for i, a := range in {
		a.Value = c.red.Value(a.Value)
		out[i] = a
	}
	return out
}

func (c *redactConn) values(in []driver.Value) []driver.Value {
	if c.red.Len() == 0 || len(in) == 0 {
		return in
	}
	out := make([]driver.Value, len(in))
	for i, v := range in {
		out[i] = c.red.Value(v)
	}
	return out
}

func (c *redactConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.sqliteConn.ExecContext(ctx, query, c.args(args))
}

func (c *redactConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.sqliteConn.QueryContext(ctx, query, c.args(args))
}

func (c *redactConn) Prepare(query string) (driver.Stmt, error) {
	return c.PrepareContext(context.Background(), query)
}

func (c *redactConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	ss, ok := st.(sqliteStmt)
	if !ok {
		_ = st.Close()
		return nil, errors.New("the sqlite driver's statement lacks a method the redacting wrapper needs")
	}
	return &redactStmt{sqliteStmt: ss, c: c}, nil
}

type sqliteStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

type redactStmt struct {
	sqliteStmt
	c *redactConn
}

func (s *redactStmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.sqliteStmt.Exec(s.c.values(args)) //nolint:staticcheck // the driver.Stmt method, kept redacted
}

func (s *redactStmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.sqliteStmt.Query(s.c.values(args)) //nolint:staticcheck // as Exec
}

func (s *redactStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.sqliteStmt.ExecContext(ctx, s.c.args(args))
}

func (s *redactStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.sqliteStmt.QueryContext(ctx, s.c.args(args))
}
