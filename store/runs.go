package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// StartRun inserts r, with the names of r.Tests as its tests, in one
// transaction, and sets r.ID. A zero r.StartedAt becomes the clock's
// now and an empty r.Status becomes "running"; both are written back to r.
// The run records this process (id, host, start), and its heartbeat is
// written every HeartbeatEvery from now until FinishRun (or Close). First,
// the runs still "running" that are over are marked "interrupted"
// (markInterrupted): those of this host whose process is gone (killed,
// crashed, the machine rebooted), and those of any host whose heartbeat
// stopped StaleAfter ago; runs of processes on this host that are still
// alive are left alone.
func (db *DB) StartRun(ctx context.Context, r *session.Run) (err error) {
	defer db.noteFailure(&err)
	if db.readOnly != "" {
		// The run writes nothing (ReadOnly says why); its model calls
		// are kept in memory from here (ModelCalls of run 0).
		db.unstored.Lock()
		db.unstored.calls = nil
		db.unstored.Unlock()
		return nil
	}
	if r == nil {
		return errors.New("start run: nil run")
	}
	if err := db.markInterrupted(ctx); err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	started := r.StartedAt
	if started.IsZero() {
		started = db.now()
	}
	status := r.Status
	if status == "" {
		status = "running"
	}
	me := self()
	var id int64
	err = inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `
INSERT INTO runs (project, started_at, finished_at, status, branch, git_commit, version, pid, host, process_start, shard, heartbeat_at, base_url, variant, run_group)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			r.Project, formatTime(started), nullTime(r.FinishedAt), status, r.Branch, r.Commit, r.Version, me.pid, me.host, me.start, r.Shard,
			formatTime(db.now()), r.BaseURL, r.Variant, r.Group).Scan(&id)
		if err != nil || len(r.Tests) == 0 {
			return err
		}
		return insertRunTests(ctx, tx, id, r.Tests)
	})
	if err != nil {
		return fmt.Errorf("start run: %w", err)
	}
	r.ID, r.StartedAt, r.Status = id, started, status
	if status == "running" {
		db.startBeat(id)
	}
	return nil
}

// insertRunTests records names as the tests of run id (a name given twice,
// two tests of one name, once).
func insertRunTests(ctx context.Context, tx *sql.Tx, id int64, names []string) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO run_tests (run_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING`)
	if err != nil {
		return fmt.Errorf("its tests: %w", err)
	}
	defer stmt.Close()
	for _, name := range names {
		if _, err := stmt.ExecContext(ctx, id, name); err != nil {
			return fmt.Errorf("its test %q: %w", name, err)
		}
	}
	return nil
}

// markInterrupted marks "interrupted" the running runs that are over: of
// this host, those whose process is gone (finished now); of another host,
// or with no process recorded, those whose last heartbeat (else their
// start) is StaleAfter old or older (finished at that heartbeat, when they
// were last known to run). A read-only store marks nothing.
func (db *DB) markInterrupted(ctx context.Context) error {
	if db.readOnly != "" {
		return nil
	}
	me := self()
	now := db.now()
	rows, err := db.read.QueryContext(ctx,
		`SELECT id, pid, host, process_start, COALESCE(heartbeat_at, started_at) FROM runs WHERE status = 'running'`)
	if err != nil {
		return fmt.Errorf("mark interrupted runs: %w", err)
	}
	type over struct {
		id  int64
		end string
	}
	var ids []over
	for rows.Next() {
		var (
			id          int64
			pid         int
			host, start string
			beat        string
		)
		if err := rows.Scan(&id, &pid, &host, &start, &beat); err != nil {
			rows.Close()
			return fmt.Errorf("mark interrupted runs: %w", err)
		}
		if host == me.host && pid > 0 {
			if gone(pid, start) {
				ids = append(ids, over{id, formatTime(now)})
			}
			continue
		}
		if at, err := parseTime(beat); err == nil && now.Sub(at) >= StaleAfter {
			ids = append(ids, over{id, beat})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("mark interrupted runs: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	err = inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		for _, o := range ids {
			if _, err := tx.ExecContext(ctx,
				`UPDATE runs SET status = 'interrupted', finished_at = ? WHERE id = ? AND status = 'running'`, o.end, o.id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("mark interrupted runs: %w", err)
	}
	return nil
}

// FinishRun records r.Status and r.FinishedAt for the run r.ID; a zero
// r.FinishedAt becomes the clock's now and is written back to r. It returns
// an error wrapping ErrNotFound when no run has that ID.
func (db *DB) FinishRun(ctx context.Context, r *session.Run) (err error) {
	defer db.noteFailure(&err)
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	if r == nil {
		return errors.New("finish run: nil run")
	}
	db.stopBeat(r.ID)
	finished := r.FinishedAt
	if finished.IsZero() {
		finished = db.now()
	}
	res, err := db.write.ExecContext(ctx,
		`UPDATE runs SET status = ?, finished_at = ? WHERE id = ?`,
		r.Status, formatTime(finished), r.ID)
	if err != nil {
		return fmt.Errorf("finish run %d: %w", r.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("finish run %d: %w", r.ID, err)
	}
	if n == 0 {
		return fmt.Errorf("finish run %d: %w", r.ID, ErrNotFound)
	}
	r.FinishedAt = finished
	return nil
}

// DeleteRun rolls the run id back: the run and everything recorded under
// it (its test and step results, its model calls, the decisions taken in
// it) are removed in one transaction, as if it never ran. It is for a run
// whose results no one may see (its MCP client went away mid-run); a run
// that is not there is no error. Cache rows and staged heals, which are
// keyed by what they remember and not by run, are left alone.
func (db *DB) DeleteRun(ctx context.Context, id int64) error {
	if db.readOnly != "" {
		return nil // a read-only store: the run wrote nothing
	}
	err := inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM decisions WHERE run_id = ?`, id); err != nil {
			return err
		}
		// Test results (and their steps) and model calls go with the run:
		// their foreign keys cascade.
		_, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete run %d: %w", id, err)
	}
	return nil
}

// SaveTest writes t and all of t.Steps in one transaction and sets t.ID:
// either everything is stored or nothing is, and t.ID is left alone on
// error. The run t.RunID must exist (else the error wraps ErrNotFound),
// step indexes must be unique within the test, and each step's Status must
// be one of the session.Status… values; an empty Cache is stored as "none".
// Attempts below 1 are stored as 1.
// A step's Reidentified is stored with it (a score that is not a finite
// number as 0).
func (db *DB) SaveTest(ctx context.Context, t *session.TestResult) (err error) {
	defer db.noteFailure(&err)
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	if t == nil {
		return errors.New("save test: nil test")
	}
	var id int64
	err = inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `
INSERT INTO test_results (run_id, name, file, status, error, duration_ms, attempts)
VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			t.RunID, t.Name, t.File, t.Status, t.Error, t.DurationMS, max(t.Attempts, 1)).Scan(&id)
		if err != nil {
			if isForeignKey(err) {
				return fmt.Errorf("run %d: %w", t.RunID, ErrNotFound)
			}
			return fmt.Errorf("insert test: %w", err)
		}
		if len(t.Steps) == 0 {
			return nil
		}
		stmt, err := tx.PrepareContext(ctx, `
INSERT INTO step_results (test_id, idx, line, command, kind, status, cache, miss_reason,
                          error, screenshot, duration_ms, llm_calls, note, reidentified, depth)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("prepare step insert: %w", err)
		}
		defer stmt.Close()
		for _, s := range t.Steps {
			cache := s.Cache
			if cache == "" {
				cache = "none"
			}
			reid, err := encodeReidentification(s.Reidentified)
			if err != nil {
				return fmt.Errorf("step %d: %w", s.Index, err)
			}
			if _, err := stmt.ExecContext(ctx, id, s.Index, s.Line, s.Command, s.Kind, string(s.Status),
				cache, s.MissReason, s.Error, s.Screenshot, s.DurationMS, s.LLMCalls, s.Note, reid, max(s.Depth, 0)); err != nil {
				return fmt.Errorf("insert step %d: %w", s.Index, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save test %q: %w", t.Name, err)
	}
	t.ID = id
	return nil
}

// Runs returns the newest limit runs, newest first; limit <= 0 returns all
// of them. A run still in progress has a zero FinishedAt. Runs that are
// over are marked "interrupted" first (markInterrupted), as well as it
// goes: a listing is not failed by a write that is not its purpose.
func (db *DB) Runs(ctx context.Context, limit int) ([]session.Run, error) {
	_ = db.markInterrupted(ctx)
	if limit <= 0 {
		limit = math.MaxInt32 // all of them
	}
	rows, err := db.read.QueryContext(ctx, `
SELECT id, project, started_at, finished_at, status, branch, git_commit, version
FROM runs ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	var runs []session.Run
	for rows.Next() {
		var (
			r        session.Run
			started  string
			finished sql.NullString
		)
		if err := rows.Scan(&r.ID, &r.Project, &started, &finished, &r.Status, &r.Branch, &r.Commit, &r.Version); err != nil {
			return nil, fmt.Errorf("list runs: %w", err)
		}
		if r.StartedAt, err = parseTime(started); err != nil {
			return nil, fmt.Errorf("list runs: run %d: %w", r.ID, err)
		}
		if finished.Valid {
			if r.FinishedAt, err = parseTime(finished.String); err != nil {
				return nil, fmt.Errorf("list runs: run %d: %w", r.ID, err)
			}
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return runs, nil
}

// Tests returns the tests of run runID in the order they were saved, each
// with its steps in index order, read from one snapshot. An unknown run
// has no tests: the result is empty and the error nil.
func (db *DB) Tests(ctx context.Context, runID int64) ([]session.TestResult, error) {
	tx, err := db.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("list tests: begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only; nothing to undo
	tests, err := queryTests(ctx, tx, runID)
	if err != nil {
		return nil, fmt.Errorf("list tests of run %d: %w", runID, err)
	}
	if err := queryRunSteps(ctx, tx, runID, tests); err != nil {
		return nil, fmt.Errorf("list steps of run %d: %w", runID, err)
	}
	return tests, nil
}

func queryTests(ctx context.Context, tx *sql.Tx, runID int64) ([]session.TestResult, error) {
	rows, err := tx.QueryContext(ctx, `
SELECT id, run_id, name, file, status, error, duration_ms, attempts
FROM test_results WHERE run_id = ? ORDER BY id`, runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var tests []session.TestResult
	for rows.Next() {
		var t session.TestResult
		if err := rows.Scan(&t.ID, &t.RunID, &t.Name, &t.File, &t.Status, &t.Error, &t.DurationMS, &t.Attempts); err != nil {
			return nil, err
		}
		tests = append(tests, t)
	}
	return tests, rows.Err()
}

// queryRunSteps attaches the steps of run runID to tests.
func queryRunSteps(ctx context.Context, tx *sql.Tx, runID int64, tests []session.TestResult) error {
	if len(tests) == 0 {
		return nil
	}
	byID := make(map[int64]int, len(tests))
	for i, t := range tests {
		byID[t.ID] = i
	}
	rows, err := tx.QueryContext(ctx, `
SELECT s.test_id, s.idx, s.line, s.command, s.kind, s.status, s.cache, s.miss_reason,
       s.error, s.screenshot, s.duration_ms, s.llm_calls, s.note, s.reidentified, s.depth
FROM step_results s JOIN test_results t ON t.id = s.test_id
WHERE t.run_id = ? ORDER BY s.test_id, s.idx`, runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			testID int64
			s      session.StepResult
			status string
			reid   []byte
		)
		if err := rows.Scan(&testID, &s.Index, &s.Line, &s.Command, &s.Kind, &status, &s.Cache, &s.MissReason,
			&s.Error, &s.Screenshot, &s.DurationMS, &s.LLMCalls, &s.Note, &reid, &s.Depth); err != nil {
			return err
		}
		s.Status = session.StepStatus(status)
		var err error
		if s.Reidentified, err = decodeReidentification(reid); err != nil {
			return fmt.Errorf("test %d step %d: %w", testID, s.Index, err)
		}
		if i, ok := byID[testID]; ok {
			tests[i].Steps = append(tests[i].Steps, s)
		}
	}
	return rows.Err()
}

// encodeReidentification is r as the reidentified column stores it: '{}'
// for nil, non-finite scores as 0.
func encodeReidentification(r *session.Reidentification) (string, error) {
	if r == nil {
		return "{}", nil
	}
	c := *r
	for _, f := range []*float64{&c.Score, &c.RunnerUp} {
		if math.IsNaN(*f) || math.IsInf(*f, 0) {
			*f = 0
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("reidentified: %w", err)
	}
	return string(b), nil
}

// decodeReidentification reads the reidentified column: nil for '{}' (a
// step that was not re-identified, or a row from before the column).
func decodeReidentification(b []byte) (*session.Reidentification, error) {
	if len(bytes.TrimSpace(b)) == 0 || string(bytes.TrimSpace(b)) == "{}" {
		return nil, nil
	}
	var r session.Reidentification
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("reidentified: %w", err)
	}
	return &r, nil
}

// LatestTestDurations maps each test name to the duration of its most
// recently saved result, whatever that result's status, across all runs.
func (db *DB) LatestTestDurations(ctx context.Context) (map[string]time.Duration, error) {
	return db.DurationsBefore(ctx, "")
}

// DurationsBefore is LatestTestDurations leaving out the results of the
// runs of group (none left out for ""): the shards of one run group, which
// start one after another and write as they go, all split the suite by
// the same durations, those from before the group.
func (db *DB) DurationsBefore(ctx context.Context, group string) (map[string]time.Duration, error) {
	rows, err := db.read.QueryContext(ctx, `
SELECT t.name, t.duration_ms, t.id FROM test_results t
JOIN (SELECT max(x.id) AS id FROM test_results x JOIN runs r ON r.id = x.run_id
      WHERE ? = '' OR r.run_group <> ? GROUP BY x.name) newest ON newest.id = t.id`, group, group)
	if err != nil {
		return nil, fmt.Errorf("latest test durations: %w", err)
	}
	defer rows.Close()
	out := make(map[string]time.Duration)
	for rows.Next() {
		var (
			name   string
			ms, id int64
		)
		if err := rows.Scan(&name, &ms, &id); err != nil {
			return nil, fmt.Errorf("latest test durations: %w", err)
		}
		out[name] = time.Duration(ms) * time.Millisecond
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("latest test durations: %w", err)
	}
	return out, nil
}
