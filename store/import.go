package store

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/session/step"
)

// MaxImportLine is the longest line ImportCache accepts, in bytes; a cache
// row is a few kilobytes.
const MaxImportLine = 4 << 20

// An import writes in batches of at most importBatchRows rows (or
// importBatchBytes of lines), each in a transaction that ends after
// importBatchTime at the latest. Once its transactions have held the write
// lock for importYieldEvery in all, it leaves the lock free for
// importYield: longer than the longest sleep (100 ms) of SQLite's busy
// handler between two tries, so a writer of another process waiting for the
// lock is sure to take it then. A run using the database meanwhile waits
// about importYieldEvery at worst, far below its busy timeout, instead of
// the whole import. Writers of this process queue for the connection and
// get it at the end of each batch.
const (
	importBatchRows  = 500
	importBatchBytes = 8 << 20
	importBatchTime  = 50 * time.Millisecond
	importYieldEvery = 400 * time.Millisecond
	importYield      = 120 * time.Millisecond
)

// ImportError is a line of an import file that does not hold a cache row
// of the shape ExportCache writes.
type ImportError struct {
	Line   int   // 1-based
	Column int   // 1-based byte column of the problem; 0 for the line as a whole
	Err    error // what is wrong
	More   int   // further bad lines after this one
}

func (e *ImportError) Error() string {
	msg := fmt.Sprintf("line %d", e.Line)
	if e.Column > 0 {
		msg += fmt.Sprintf(", column %d", e.Column)
	}
	msg += ": " + e.Err.Error()
	if e.More > 0 {
		msg += fmt.Sprintf(" (and %s)", plural.Count(e.More, "more bad line"))
	}
	return msg
}

func (e *ImportError) Unwrap() error { return e.Err }

// ImportCache reads JSON lines written by ExportCache from r and inserts
// them, or replaces the rows with the same key, branch, commit and version
// (hits and the last use keep the larger of the stored and the imported
// value, so a concurrent run's hits are not lost).
//
// It reads r twice and never holds more than a line of it in memory. The
// first pass checks every line — strict JSON of a row's shape, one object a
// line, at most MaxImportLine bytes — and a bad line imports nothing: the
// error is an *ImportError naming the first bad line (and how many more
// there are). The second pass writes in short transactions (see
// importBatchRows), so that runs using the database meanwhile go on.
//
// A process killed during the second pass leaves the batches it committed:
// every row is whole, and each is an upsert by its key, branch, commit and
// version, so running the same import again completes it with the same
// result. A line that fails to decode in the second pass (r changed between
// the passes) stops the import with an *ImportError; the rows before it stay.
// It returns the number of rows written.
func (db *DB) ImportCache(ctx context.Context, r io.ReadSeeker) (int, error) {
	if err := db.writable(); err != nil {
		return 0, err
	}
	var first *ImportError
	n, err := scanImport(r, func(line int, text []byte) error {
		if line%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if _, err := decodeImportRow(line, text); err != nil {
			if first == nil {
				first = err
			} else {
				first.More++
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("import cache: %w", err)
	}
	if first != nil {
		return 0, first
	}
	if n == 0 {
		return 0, nil
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("import cache: rewind: %w", err)
	}
	w := &importWriter{db: db, ctx: ctx}
	_, err = scanImport(r, func(line int, text []byte) error {
		row, ierr := decodeImportRow(line, text)
		if ierr != nil {
			ierr.Err = fmt.Errorf("%w (the file changed while it was imported; %s written)", ierr.Err, plural.Count(w.done, "row"))
			return ierr
		}
		return w.add(row, len(text))
	})
	if err == nil {
		err = w.flush()
	}
	if err != nil {
		if _, ok := errors.AsType[*ImportError](err); ok {
			return w.done, err
		}
		return w.done, fmt.Errorf("import cache: %w (%s written; importing the file again completes it)", err, plural.Count(w.done, "row"))
	}
	return w.done, nil
}

// scanImport calls fn with each line of r that is not blank (trimmed),
// numbered from 1, holding at most one line in memory; for a line longer
// than MaxImportLine fn gets a nil text (decodeImportRow refuses it). It
// returns the number of non-blank lines, or the first error of fn or of
// reading.
func scanImport(r io.Reader, fn func(line int, text []byte) error) (int, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	n := 0
	for line := 1; ; line++ {
		buf = buf[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !tooLong {
				if len(buf)+len(chunk) > MaxImportLine+1 { // +1: the newline
					tooLong, buf = true, buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			return n, fmt.Errorf("read line %d: %w", line, err)
		}
		if tooLong {
			n++
			if ferr := fn(line, nil); ferr != nil {
				return n, ferr
			}
		} else if text := bytes.TrimSpace(buf); len(text) > 0 {
			n++
			if ferr := fn(line, text); ferr != nil {
				return n, ferr
			}
		}
		if err == io.EOF {
			return n, nil
		}
	}
}

// decodeImportRow decodes one line of an import file strictly: one JSON
// object of CacheRow's fields and nothing after it, the JSON columns of the
// shape the row's kind stores (unknown fields are errors at every level),
// the steps of a trajectory step commands. A nil text is a line longer
// than MaxImportLine.
func decodeImportRow(line int, text []byte) (*CacheRow, *ImportError) {
	bad := func(col int, format string, args ...any) *ImportError {
		return &ImportError{Line: line, Column: col, Err: fmt.Errorf(format, args...)}
	}
	if text == nil {
		return nil, bad(0, "longer than %d bytes; a cache row is a JSON object on one line", MaxImportLine)
	}
	var row CacheRow
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&row); err != nil {
		return nil, jsonProblem(line, text, "", err)
	}
	if end := int(dec.InputOffset()); len(bytes.TrimSpace(text[end:])) > 0 {
		return nil, bad(end+1+countSpace(text[end:]), "unexpected text after the JSON object; want one object a line")
	}
	if row.Key == "" {
		return nil, bad(fieldColumn(text, "key"), "want a non-empty \"key\"")
	}
	if row.Depth < 0 || row.Hits < 0 {
		return nil, bad(0, "\"depth\" and \"hits\" must not be negative")
	}
	if err := strictField(row.Identity, new(map[string]any)); err != nil {
		return nil, jsonProblem(line, text, "identity", err)
	}
	type field struct {
		name string
		raw  json.RawMessage
		into any
	}
	var want, never []field
	switch row.Kind {
	case KindElement:
		want = []field{{"selectors", row.Selectors, new([]session.Selector)}, {"node", row.Node, new(session.NodeSnapshot)},
			{"intent", row.Intent, new(session.Intent)}, {"context", row.Context, new(session.NodeContext)}}
		never = []field{{"steps", row.Steps, nil}, {"evidence", row.Evidence, nil}, {"gaps", row.Gaps, nil}}
		if row.Postcondition != "" {
			never = append(never, field{"postcondition", json.RawMessage(`""`), nil})
		}
	case KindTrajectory:
		steps := new([]string)
		want = []field{{"steps", row.Steps, steps}, {"evidence", row.Evidence, new(session.Evidence)}, {"gaps", row.Gaps, new([]session.Gap)}}
		never = []field{{"selectors", row.Selectors, nil}, {"node", row.Node, nil}, {"intent", row.Intent, nil},
			{"context", row.Context, nil}}
		if err := strictField(row.Steps, steps); err == nil {
			for i, s := range *steps {
				if _, err := step.Parse(s); err != nil {
					return nil, bad(fieldColumn(text, "steps"), "steps[%d] is not a step command: %v", i, err)
				}
			}
		}
	default:
		return nil, bad(fieldColumn(text, "kind"), "\"kind\" is %q; want %q or %q", row.Kind, KindElement, KindTrajectory)
	}
	for _, f := range never {
		if len(f.raw) > 0 {
			return nil, bad(fieldColumn(text, f.name), "a %s row has no %q", row.Kind, f.name)
		}
	}
	for _, f := range want {
		if err := strictField(f.raw, f.into); err != nil {
			return nil, jsonProblem(line, text, f.name, err)
		}
	}
	// Lists over their bounds would hang the page at every replay.
	var bounds error
	if row.Kind == KindElement {
		e := session.CacheEntry{Description: row.Text, Selectors: *want[0].into.(*[]session.Selector), Node: *want[1].into.(*session.NodeSnapshot),
			Intent: *want[2].into.(*session.Intent), Context: *want[3].into.(*session.NodeContext)}
		bounds = e.CheckBounds()
	} else {
		t := session.Trajectory{Steps: *want[0].into.(*[]string), Evidence: *want[1].into.(*session.Evidence), Gaps: *want[2].into.(*[]session.Gap)}
		bounds = t.CheckBounds()
	}
	if oe, ok := errors.AsType[*session.OversizeRowError](bounds); ok {
		return nil, bad(fieldColumn(text, oe.Field), "%s: a cache row this large would stall the page at every replay of its step", oe)
	}
	return &row, nil
}

// strictField decodes raw (absent or null is fine) into into, refusing
// unknown fields and values of the wrong type.
func strictField(raw json.RawMessage, into any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// jsonProblem turns a decoding error of field (or of the whole line when
// field is "") into an *ImportError that says where and what.
func jsonProblem(line int, text []byte, field string, err error) *ImportError {
	col := 0
	if field != "" {
		col = fieldColumn(text, field)
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	msg := err.Error()
	switch {
	case errors.As(err, &syn):
		if field == "" {
			col = int(syn.Offset) + countSpace(text)
		}
		msg = "not JSON: " + syn.Error()
	case errors.As(err, &typ):
		at := field
		if typ.Field != "" {
			if at != "" {
				at += "."
			}
			at += typ.Field
		}
		if field == "" && typ.Field != "" {
			col = fieldColumn(text, typ.Field)
		}
		msg = fmt.Sprintf("%q is a JSON %s; want %s", at, typ.Value, goTypeWord(typ.Type.String()))
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		msg = "the JSON object is cut short"
	default:
		if field != "" {
			msg = fmt.Sprintf("%q: %s", field, msg)
		} else if name, ok := unknownField(msg); ok {
			col = fieldColumn(text, name)
		}
	}
	return &ImportError{Line: line, Column: col, Err: errors.New(msg)}
}

// goTypeWord says a Go type of the row in JSON's words.
func goTypeWord(t string) string {
	switch {
	case len(t) > 2 && t[:2] == "[]":
		return "a list"
	case len(t) > 3 && t[:3] == "map", t == "session.NodeSnapshot", t == "session.Intent", t == "session.Evidence",
		t == "session.Selector", t == "session.Gap", t == "session.Relation", t == "store.CacheRow",
		t == "session.NodeContext", t == "session.PathNode":
		return "an object"
	case t == "string":
		return "a string"
	case t == "time.Time":
		return "a time (RFC 3339)"
	case t == "int", t == "int64", t == "float64", t == "[4]float64":
		return "a number"
	}
	return t
}

// unknownField returns the name in encoding/json's `json: unknown field "x"`.
func unknownField(msg string) (string, bool) {
	const p = `json: unknown field "`
	if len(msg) > len(p)+1 && msg[:len(p)] == p && msg[len(msg)-1] == '"' {
		return msg[len(p) : len(msg)-1], true
	}
	return "", false
}

// fieldColumn is the 1-based column where the value of the top-level
// field name starts in the JSON object text, or 0 when it cannot tell.
func fieldColumn(text []byte, name string) int {
	dec := json.NewDecoder(bytes.NewReader(text))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return 0
		}
		off := int(dec.InputOffset())
		if k == name {
			rest := text[off:]
			i := 0
			for i < len(rest) && (rest[i] == ' ' || rest[i] == '\t' || rest[i] == ':') {
				i++
			}
			return off + i + 1
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return 0
		}
	}
	return 0
}

func countSpace(b []byte) int { return len(b) - len(bytes.TrimLeft(b, " \t\r\n")) }

// importWriter writes import rows in short transactions.
type importWriter struct {
	db    *DB
	ctx   context.Context
	batch []*CacheRow
	bytes int           // of the batch's lines
	held  time.Duration // write lock held since the last yield
	done  int           // rows committed
}

// add queues row, read from a line of size bytes, and writes the queue
// when it is full.
func (w *importWriter) add(row *CacheRow, size int) error {
	w.batch = append(w.batch, row)
	w.bytes += size
	if len(w.batch) >= importBatchRows || w.bytes >= importBatchBytes {
		return w.flush()
	}
	return nil
}

// flush writes the queued rows in transactions that each end after
// importBatchTime, yielding the write lock as the constants above say.
func (w *importWriter) flush() error {
	for len(w.batch) > 0 {
		if err := w.ctx.Err(); err != nil {
			return err
		}
		began := time.Now()
		n := 0
		err := inTx(w.ctx, w.db.write, w.db.eng, func(tx *sql.Tx) error {
			var st importStmts
			defer st.close()
			for _, r := range w.batch {
				if err := st.importRow(w.ctx, tx, r); err != nil {
					return err
				}
				n++
				if time.Since(began) >= importBatchTime {
					break
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		w.done += n
		if afterImportBatch != nil {
			afterImportBatch()
		}
		clear(w.batch[:n])
		w.batch = w.batch[n:]
		if w.held += time.Since(began); w.held >= importYieldEvery {
			w.held = 0
			if err := pause(w.ctx, importYield); err != nil {
				return err
			}
		}
	}
	w.batch, w.bytes = w.batch[:0], 0
	return nil
}

// afterImportBatch, set only by tests, is called after each batch an
// import commits: where a test stops the server between two batches.
var afterImportBatch func()

// pause waits for d or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// The upserts of import rows; hits and the last use keep the larger value.
const (
	importElementSQL = `
INSERT INTO element_cache (key, branch, git_commit, depth, version, version_key, identity, project, test, description,
    selectors, node, intent, context, created_at, used_at, hits)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (key, branch, git_commit, version) DO UPDATE SET depth = excluded.depth, identity = excluded.identity,
    project = excluded.project, test = excluded.test, description = excluded.description, selectors = excluded.selectors,
    node = excluded.node, intent = excluded.intent, context = excluded.context, created_at = excluded.created_at,
    used_at = CASE WHEN element_cache.used_at > excluded.used_at THEN element_cache.used_at ELSE excluded.used_at END, hits = CASE WHEN element_cache.hits > excluded.hits THEN element_cache.hits ELSE excluded.hits END`
	importTrajectorySQL = `
INSERT INTO trajectories (key, branch, git_commit, depth, version, version_key, identity, project, test, goal,
    steps, postcondition, evidence, gaps, created_at, used_at, hits)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (key, branch, git_commit, version) DO UPDATE SET depth = excluded.depth, identity = excluded.identity,
    project = excluded.project, test = excluded.test, goal = excluded.goal, steps = excluded.steps,
    postcondition = excluded.postcondition, evidence = excluded.evidence, gaps = excluded.gaps,
    created_at = excluded.created_at, used_at = CASE WHEN trajectories.used_at > excluded.used_at THEN trajectories.used_at ELSE excluded.used_at END,
    hits = CASE WHEN trajectories.hits > excluded.hits THEN trajectories.hits ELSE excluded.hits END`
)

// importStmts are the upserts prepared in one transaction, when first used.
type importStmts struct{ element, trajectory *sql.Stmt }

func (s *importStmts) close() {
	for _, st := range []*sql.Stmt{s.element, s.trajectory} {
		if st != nil {
			st.Close()
		}
	}
}

// importRow upserts one row, checked by decodeImportRow, in tx.
func (s *importStmts) importRow(ctx context.Context, tx *sql.Tx, r *CacheRow) error {
	raw := func(m json.RawMessage, empty string) string {
		if len(m) == 0 || string(m) == "null" {
			return empty
		}
		return string(m)
	}
	prepare := func(st **sql.Stmt, q string) error {
		if *st != nil {
			return nil
		}
		var err error
		*st, err = tx.PrepareContext(ctx, q)
		return err
	}
	var err error
	if r.Kind == KindElement {
		if err = prepare(&s.element, importElementSQL); err == nil {
			_, err = s.element.ExecContext(ctx,
				r.Key, r.Branch, r.Commit, r.Depth, r.Version, VersionKey(r.Version), raw(r.Identity, "{}"), r.Project, r.Test, r.Text,
				raw(r.Selectors, "[]"), raw(r.Node, "{}"), raw(r.Intent, "{}"), raw(r.Context, "{}"), formatTime(r.CreatedAt), formatTime(r.UsedAt), r.Hits)
		}
	} else {
		if err = prepare(&s.trajectory, importTrajectorySQL); err == nil {
			_, err = s.trajectory.ExecContext(ctx,
				r.Key, r.Branch, r.Commit, r.Depth, r.Version, VersionKey(r.Version), raw(r.Identity, "{}"), r.Project, r.Test, r.Text,
				raw(r.Steps, "[]"), r.Postcondition, raw(r.Evidence, "{}"), raw(r.Gaps, "[]"), formatTime(r.CreatedAt), formatTime(r.UsedAt), r.Hits)
		}
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", r.Kind, r.Key, err)
	}
	return nil
}
