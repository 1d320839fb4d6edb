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
// the write connection passes through r before the database sees it,
// whichever method of the store issues it. JSON documents stay valid JSON
// (r.Value). Reads are not changed.
func WithRedactor(r *redact.Redactor) Option {
	return func(o *options) { o.redactor = r }
}

// openPool opens a pool on base: plainly when there is nothing to do to
// its statements, else through the wrapping connector, which redacts the
// arguments (r, on the write pool) and rebinds ? placeholders (PostgreSQL).
func openPool(base driver.Connector, r *redact.Redactor, rebind bool) *sql.DB {
	if r == nil && !rebind {
		return sql.OpenDB(base)
	}
	return sql.OpenDB(&wrapConnector{base: base, red: r, rebind: rebind})
}

// wrapConnector opens driver connections whose statements are rebound and
// whose arguments are redacted.
type wrapConnector struct {
	base   driver.Connector
	red    *redact.Redactor // nil: arguments pass as they are
	rebind bool
}

// baseConn is what both drivers' connections implement and the wrapper
// passes on.
type baseConn interface {
	driver.Conn
	driver.ConnPrepareContext
	driver.ConnBeginTx
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
}

func (c *wrapConnector) Connect(ctx context.Context) (driver.Conn, error) {
	cn, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	bc, ok := cn.(baseConn)
	if !ok {
		_ = cn.Close()
		return nil, errors.New("the database driver's connection lacks a method the store's wrapper needs")
	}
	return &wrapConn{baseConn: bc, c: c}, nil
}

func (c *wrapConnector) Driver() driver.Driver { return c.base.Driver() }

type wrapConn struct {
	baseConn
	c *wrapConnector
}

func (w *wrapConn) query(q string) string {
	if w.c.rebind {
		return rebind(q)
	}
	return q
}

func (w *wrapConn) args(in []driver.NamedValue) []driver.NamedValue {
	red := w.c.red
	if red == nil || red.Len() == 0 || len(in) == 0 {
		return in
	}
	out := make([]driver.NamedValue, len(in))
	for i, a := range in {
		a.Value = red.Value(a.Value)
		out[i] = a
	}
	return out
}

func (w *wrapConn) values(in []driver.Value) []driver.Value {
	red := w.c.red
	if red == nil || red.Len() == 0 || len(in) == 0 {
		return in
	}
	out := make([]driver.Value, len(in))
	for i, v := range in {
		out[i] = red.Value(v)
	}
	return out
}

// IsValid passes on the driver's answer, when it gives one.
func (w *wrapConn) IsValid() bool {
	if v, ok := w.baseConn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

// CheckNamedValue passes on the driver's own argument conversion (pgx takes
// Go values as they are), else database/sql's default.
func (w *wrapConn) CheckNamedValue(nv *driver.NamedValue) error {
	if ch, ok := w.baseConn.(driver.NamedValueChecker); ok {
		return ch.CheckNamedValue(nv)
	}
	return driver.ErrSkip
}

func (w *wrapConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return w.baseConn.ExecContext(ctx, w.query(query), w.args(args))
}

func (w *wrapConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return w.baseConn.QueryContext(ctx, w.query(query), w.args(args))
}

func (w *wrapConn) Prepare(query string) (driver.Stmt, error) {
	return w.PrepareContext(context.Background(), query)
}

func (w *wrapConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := w.baseConn.PrepareContext(ctx, w.query(query))
	if err != nil {
		return nil, err
	}
	bs, ok := st.(baseStmt)
	if !ok {
		_ = st.Close()
		return nil, errors.New("the database driver's statement lacks a method the store's wrapper needs")
	}
	return &wrapStmt{baseStmt: bs, w: w}, nil
}

type baseStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

type wrapStmt struct {
	baseStmt
	w *wrapConn
}

func (s *wrapStmt) Exec(args []driver.Value) (driver.Result, error) {
	return s.baseStmt.Exec(s.w.values(args)) //nolint:staticcheck // the driver.Stmt method, kept redacted
}

func (s *wrapStmt) Query(args []driver.Value) (driver.Rows, error) {
	return s.baseStmt.Query(s.w.values(args)) //nolint:staticcheck // as Exec
}

func (s *wrapStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.baseStmt.ExecContext(ctx, s.w.args(args))
}

func (s *wrapStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.baseStmt.QueryContext(ctx, s.w.args(args))
}

// CheckNamedValue: as the connection's.
func (s *wrapStmt) CheckNamedValue(nv *driver.NamedValue) error { return s.w.CheckNamedValue(nv) }
