package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/e2e-dev/e2e/session"
)

// healedStep is true for a test result one of whose steps was healed; it
// looks the steps up by the primary key (test_id, idx).
const healedStep = `EXISTS (SELECT 1 FROM step_results s WHERE s.test_id = t.id AND s.miss_reason LIKE '` +
	session.HealedPrefix + `%')`

// TestHistories returns the history of each test q names: its result in
// each of the q.Runs newest runs of q.Project up to run q.Through (runs
// still running are left out), oldest first. A run after the test's first
// result that has no result for it is an OutcomeSkipped entry when the
// test was among the run's tests (Run.Tests: the run ended before it), else
// an OutcomeAbsent one (the run did not include it: another file, --grep,
// or a run stored before runs recorded their tests); a run of one shard
// that did not include it is left out (another shard ran it). Runs before
// its first result are not in its history at all, so a new test starts
// with a short strip. A name with no result at all has an empty history.
// The result has one entry per distinct name, in q.Tests order.
func (db *DB) TestHistories(ctx context.Context, q session.HistoryQuery) ([]session.TestHistory, error) {
	n := q.Runs
	if n <= 0 {
		n = session.DefaultHistoryRuns
	}
	through := q.Through
	if through <= 0 {
		through = math.MaxInt64
	}
	tx, err := db.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("test history: begin: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only; nothing to undo
	runs, err := historyRuns(ctx, tx, q.Project, through, n)
	if err != nil {
		return nil, fmt.Errorf("test history: %w", err)
	}
	var names []string
	want := map[string]bool{}
	for _, name := range q.Tests {
		if !want[name] {
			want[name] = true
			names = append(names, name)
		}
	}
	out := make([]session.TestHistory, len(names))
	if len(runs) == 0 || len(names) == 0 {
		for i, name := range names {
			out[i].Name = name
		}
		return out, nil
	}
	// results[name][runID]
	results, err := historyResults(ctx, tx, runs, want)
	if err != nil {
		return nil, fmt.Errorf("test history: %w", err)
	}
	first, err := firstRuns(ctx, tx, names)
	if err != nil {
		return nil, fmt.Errorf("test history: %w", err)
	}
	planned, err := historyRunTests(ctx, tx, runs, want)
	if err != nil {
		return nil, fmt.Errorf("test history: %w", err)
	}
	for i, name := range names {
		h := session.TestHistory{Name: name}
		f, seen := first[name]
		for k := len(runs) - 1; k >= 0; k-- { // oldest first
			r := runs[k]
			if tr, ok := results[name][r.RunID]; ok {
				h.Runs = append(h.Runs, tr)
				continue
			}
			switch {
			case !seen || r.RunID <= f:
				// Before the test's first result: not in its history.
			case planned[r.RunID][name]:
				h.Runs = append(h.Runs, r) // in the run, not run: skipped
			case r.Shard == "":
				// Not in the run at all (another file, --grep).
				r.Outcome = session.OutcomeAbsent
				h.Runs = append(h.Runs, r)
			}
			// A run of one shard that did not include the test is left
			// out: another shard ran it.
		}
		out[i] = h
	}
	return out, nil
}

// historyRunTests reads which of the names want holds each of runs set out
// to run (the run_tests primary key): planned[runID][name].
func historyRunTests(ctx context.Context, tx *sql.Tx, runs []session.TestRun, want map[string]bool) (map[int64]map[string]bool, error) {
	args := make([]any, len(runs))
	for i, r := range runs {
		args[i] = r.RunID
	}
	rows, err := tx.QueryContext(ctx, historyRunTestsSQL(len(runs)), args...)
	if err != nil {
		return nil, fmt.Errorf("list the runs' tests: %w", err)
	}
	defer rows.Close()
	out := map[int64]map[string]bool{}
	for rows.Next() {
		var (
			id   int64
			name string
		)
		if err := rows.Scan(&id, &name); err != nil {
			return nil, fmt.Errorf("list the runs' tests: %w", err)
		}
		if !want[name] {
			continue
		}
		if out[id] == nil {
			out[id] = map[string]bool{}
		}
		out[id][name] = true
	}
	return out, rows.Err()
}

// historyRuns are the newest n runs of project up to run through, newest
// first, as skipped entries (the runs_project index).
func historyRuns(ctx context.Context, tx *sql.Tx, project string, through int64, n int) ([]session.TestRun, error) {
	rows, err := tx.QueryContext(ctx, historyRunsSQL, project, through, n)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	var runs []session.TestRun
	for rows.Next() {
		r := session.TestRun{Outcome: session.OutcomeSkipped}
		var started string
		if err := rows.Scan(&r.RunID, &started, &r.RunStatus, &r.Branch, &r.Commit, &r.Shard, &r.BaseURL, &r.Variant); err != nil {
			return nil, fmt.Errorf("list runs: %w", err)
		}
		if r.At, err = parseTime(started); err != nil {
			return nil, fmt.Errorf("list runs: run %d: %w", r.RunID, err)
		}
		runs = append(runs, r)
	}
	return runs, rows.Err()
}

// historyResults reads the results of runs (the test_results_run index)
// whose names want holds, by name and run. A test saved twice in one run
// (it cannot be, but an import might) keeps its last result.
func historyResults(ctx context.Context, tx *sql.Tx, runs []session.TestRun, want map[string]bool) (map[string]map[int64]session.TestRun, error) {
	byID := make(map[int64]session.TestRun, len(runs))
	args := make([]any, len(runs))
	for i, r := range runs {
		byID[r.RunID] = r
		args[i] = r.RunID
	}
	rows, err := tx.QueryContext(ctx, historyResultsSQL(len(runs)), args...)
	if err != nil {
		return nil, fmt.Errorf("list results: %w", err)
	}
	defer rows.Close()
	out := map[string]map[int64]session.TestRun{}
	for rows.Next() {
		var (
			id, runID, ms int64
			name, status  string
			errText       string
			attempts      int
			healed        bool
		)
		if err := rows.Scan(&id, &runID, &name, &status, &ms, &attempts, &errText, &healed); err != nil {
			return nil, fmt.Errorf("list results: %w", err)
		}
		if !want[name] {
			continue
		}
		tr := byID[runID]
		tr.TestID, tr.DurationMS, tr.Attempts, tr.Error = id, ms, max(attempts, 1), errText
		tr.Outcome = session.ClassifyOutcome(session.TestStatus(status), attempts, healed)
		if out[name] == nil {
			out[name] = map[int64]session.TestRun{}
		}
		if prev, ok := out[name][runID]; !ok || prev.TestID < id {
			out[name][runID] = tr
		}
	}
	return out, rows.Err()
}

// firstRuns maps each of names that has a result to the run of its first
// result (the test_results_name index).
func firstRuns(ctx context.Context, tx *sql.Tx, names []string) (map[string]int64, error) {
	stmt, err := tx.PrepareContext(ctx, firstRunSQL)
	if err != nil {
		return nil, fmt.Errorf("first results: %w", err)
	}
	defer stmt.Close()
	out := map[string]int64{}
	for _, name := range names {
		var id int64
		err := stmt.QueryRowContext(ctx, name).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("first result of %q: %w", name, err)
		}
		out[name] = id
	}
	return out, nil
}

// The history queries, each served by an index (history_test.go reads
// their plans).
const (
	// historyRunsSQL: the runs_project index (project, id).
	historyRunsSQL = `
SELECT id, started_at, status, branch, git_commit, shard, base_url, variant FROM runs
WHERE project = ? AND id <= ? AND status <> 'running'
ORDER BY id DESC LIMIT ?`
	// firstRunSQL: the test_results_name index (name, id).
	firstRunSQL = `SELECT run_id FROM test_results WHERE name = ? ORDER BY id LIMIT 1`
	// runSummariesSQL: the newest runs by primary key, their tests by the
	// test_results_run index.
	runSummariesSQL = `
SELECT r.id, r.project, r.started_at, r.finished_at, r.status, r.branch, r.git_commit, r.version, r.shard, ` + summaryColumns + `
FROM runs r ORDER BY r.id DESC LIMIT ?`
	runSummarySQL = `
SELECT r.id, r.project, r.started_at, r.finished_at, r.status, r.branch, r.git_commit, r.version, r.shard, ` + summaryColumns + `
FROM runs r WHERE r.id = ?`
)

// historyResultsSQL reads the results of n runs: the test_results_run index.
func historyResultsSQL(n int) string {
	return `
SELECT t.id, t.run_id, t.name, t.status, t.duration_ms, t.attempts, t.error, ` + healedStep + `
FROM test_results t WHERE t.run_id IN (` + placeholders(n) + `)`
}

// historyRunTestsSQL reads the tests n runs set out to run: the run_tests
// primary key.
func historyRunTestsSQL(n int) string {
	return `SELECT run_id, name FROM run_tests WHERE run_id IN (` + placeholders(n) + `)`
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// summaryColumns count the tests of run r, each count a correlated
// subquery on the test_results_run index (portable SQL: no sum of a
// boolean, no GROUP BY over a subquery's columns).
const summaryColumns = `(SELECT count(*) FROM test_results t WHERE t.run_id = r.id),
       (SELECT count(*) FROM test_results t WHERE t.run_id = r.id AND t.status = 'passed'),
       (SELECT count(*) FROM test_results t WHERE t.run_id = r.id AND t.status NOT IN ('passed', '` + string(session.TestNotRun) + `')),
       (SELECT count(*) FROM test_results t WHERE t.run_id = r.id AND t.status = 'passed' AND t.attempts > 1),
       (SELECT count(*) FROM test_results t WHERE t.run_id = r.id AND t.status = 'passed' AND t.attempts <= 1 AND ` + healedStep + `),
       (SELECT count(*) FROM test_results t WHERE t.run_id = r.id AND t.status = '` + string(session.TestNotRun) + `')`

// RunSummaries returns the newest limit runs (all of them when limit <= 0),
// newest first, each with the counts of its tests: Passed counts every
// test that passed, flaky and healed ones too; Flaky those that passed on
// a retry, Healed those that passed at once through a heal; NotRun those
// whose session's flow failed, which Failed leaves out. Runs that are
// over are marked "interrupted" first, as Runs does.
func (db *DB) RunSummaries(ctx context.Context, limit int) ([]session.RunSummary, error) {
	_ = db.markInterrupted(ctx)
	if limit <= 0 {
		limit = math.MaxInt32 // all of them
	}
	rows, err := db.read.QueryContext(ctx, runSummariesSQL, limit)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	var out []session.RunSummary
	for rows.Next() {
		s, err := scanSummary(rows)
		if err != nil {
			return nil, fmt.Errorf("list runs: %w", err)
		}
		out = append(out, *s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return out, nil
}

// RunSummary returns run id with the counts of its tests (as
// RunSummaries), or an error wrapping ErrNotFound when there is no such
// run. Its tests are Tests(id).
func (db *DB) RunSummary(ctx context.Context, id int64) (*session.RunSummary, error) {
	row := db.read.QueryRowContext(ctx, runSummarySQL, id)
	s, err := scanSummary(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("run %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", id, err)
	}
	return s, nil
}

func scanSummary(row interface{ Scan(...any) error }) (*session.RunSummary, error) {
	var (
		s        session.RunSummary
		started  string
		finished sql.NullString
	)
	if err := row.Scan(&s.ID, &s.Project, &started, &finished, &s.Status, &s.Branch, &s.Commit, &s.Version, &s.Shard,
		&s.Tests, &s.Passed, &s.Failed, &s.Flaky, &s.Healed, &s.NotRun); err != nil {
		return nil, err
	}
	var err error
	if s.StartedAt, err = parseTime(started); err != nil {
		return nil, fmt.Errorf("run %d: %w", s.ID, err)
	}
	if finished.Valid {
		if s.FinishedAt, err = parseTime(finished.String); err != nil {
			return nil, fmt.Errorf("run %d: %w", s.ID, err)
		}
	}
	return &s, nil
}
