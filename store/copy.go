package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/e2e-dev/e2e/session/plural"
)

// CopyStats counts what Copy wrote to the target, and what it found there
// already.
type CopyStats struct {
	Runs, Tests, Steps, ModelCalls int
	Elements, Trajectories         int // cache rows inserted or brought up to date
	Heals, Decisions               int
	Skipped                        int // runs, heals, decisions and calls the target already had
}

func (s CopyStats) String() string {
	return fmt.Sprintf("%s (%s, %s), %s, %s, %s, %s, %s; %d already there",
		plural.Count(s.Runs, "run"), plural.Count(s.Tests, "test"), plural.Count(s.Steps, "step"),
		plural.Count(s.Elements, "element cache row"), plural.Count(s.Trajectories, "trajectory", "trajectories"),
		plural.Count(s.Heals, "heal"), plural.Count(s.Decisions, "decision"), plural.Count(s.ModelCalls, "model call"), s.Skipped)
}

// The columns Copy moves, table by table; ids are the target's own.
const (
	copyRunCols   = `project, started_at, finished_at, status, branch, git_commit, version, pid, host, process_start, shard, base_url, variant, run_group`
	copyTestCols  = `name, file, status, error, duration_ms, attempts`
	copyStepCols  = `idx, line, command, kind, status, cache, miss_reason, error, screenshot, duration_ms, llm_calls, note, reidentified, depth`
	copyCallCols  = `at, purpose, model, tokens_in, tokens_out, latency_ms, attempts, outcome, cost`
	copyDecCols   = `project, test, kind, step_index, goal, proposed, verdict, command, reason, decided_by, decided_at`
	copyHealCols  = `key, project, test, goal, old_steps, new_steps, failed_index, reason, postcondition, evidence, status, created_at, decided_at, decided_by, page_before, page_after, branch, git_commit, depth, version, gaps, seen, last_seen_at`
	copyElemCols  = `key, branch, git_commit, depth, version, version_key, identity, project, test, description, selectors, node, intent, context, created_at, used_at, hits`
	copyTrajCols  = `key, branch, git_commit, depth, version, version_key, identity, project, test, goal, steps, postcondition, evidence, gaps, created_at, used_at, hits`
	copyRunMatch  = `project = ? AND started_at = ? AND pid = ? AND host = ? AND process_start = ?`
	copyCallMatch = `at = ? AND purpose = ? AND model = ? AND tokens_in = ? AND tokens_out = ? AND latency_ms = ?`
	copyDecMatch  = `project = ? AND test = ? AND kind = ? AND step_index = ? AND decided_at = ? AND proposed = ?`
	copyHealMatch = `key = ? AND branch = ? AND created_at = ?`
)

// Copy copies everything from holds into to: runs with their tests and
// steps and the names of the tests they set out to run, model calls, decisions, heals, and the element cache and
// trajectories with their lineage, in one transaction on to, so that to
// has all of it or none. It is idempotent: a run is recognised by its
// project, start time and process, a heal by its key, branch and creation
// time, a decision and a call by what they record, a cache row by its key,
// branch, commit and version (its hits and last use keep the larger
// value); what to already has is not copied again. The two stores may be
// on different engines.
func Copy(ctx context.Context, from, to *DB) (CopyStats, error) {
	if err := to.writable(); err != nil {
		return CopyStats{}, err
	}
	var st CopyStats
	err := inTx(ctx, to.write, to.eng, func(tx *sql.Tx) error {
		st = CopyStats{}
		c := copier{ctx: ctx, from: from.read, tx: tx, st: &st}
		return c.all()
	})
	if err != nil {
		return CopyStats{}, fmt.Errorf("copy %s to %s: %w", from.path, to.path, err)
	}
	return st, nil
}

type copier struct {
	ctx  context.Context
	from *sql.DB
	tx   *sql.Tx
	st   *CopyStats
}

func (c *copier) all() error {
	runs, err := c.runs()
	if err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	if err := c.calls(runs); err != nil {
		return fmt.Errorf("model calls: %w", err)
	}
	if err := c.decisions(runs); err != nil {
		return fmt.Errorf("decisions: %w", err)
	}
	if err := c.heals(); err != nil {
		return fmt.Errorf("heals: %w", err)
	}
	if c.st.Elements, err = c.upsert(`element_cache`, copyElemCols, importElementSQL); err != nil {
		return fmt.Errorf("element cache: %w", err)
	}
	if c.st.Trajectories, err = c.upsert(`trajectories`, copyTrajCols, importTrajectorySQL); err != nil {
		return fmt.Errorf("trajectories: %w", err)
	}
	return nil
}

// each runs fn on every row of query on the source, its columns scanned
// into generic values.
func (c *copier) each(query string, fn func(vals []any) error, args ...any) error {
	rows, err := c.from.QueryContext(c.ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := fn(normalize(append([]any(nil), vals...))); err != nil {
			return err
		}
	}
	return rows.Err()
}

// normalize turns driver byte slices of text into strings, so that a value
// read from one engine binds as text on the other.
func normalize(vals []any) []any {
	for i, v := range vals {
		if b, ok := v.([]byte); ok {
			vals[i] = string(b)
		}
	}
	return vals
}

func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

func ncols(cols string) int { return strings.Count(cols, ",") + 1 }

// found returns the id of the target's row matching where, or 0.
func (c *copier) found(table, where string, args ...any) (int64, error) {
	var id int64
	err := c.tx.QueryRowContext(c.ctx, `SELECT id FROM `+table+` WHERE `+where+` LIMIT 1`, args...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// runs copies the runs the target does not have, with their tests and
// steps, and maps every source run id to the target's.
func (c *copier) runs() (map[int64]int64, error) {
	ids := map[int64]int64{}
	var fresh []int64 // source ids of the runs inserted now
	err := c.each(`SELECT id, `+copyRunCols+` FROM runs ORDER BY id`, func(v []any) error {
		src, cols := v[0].(int64), v[1:]
		id, err := c.found("runs", copyRunMatch, cols[0], cols[1], cols[7], cols[8], cols[9])
		if err != nil {
			return err
		}
		if id != 0 {
			ids[src] = id
			c.st.Skipped++
			return nil
		}
		if err := c.tx.QueryRowContext(c.ctx, `INSERT INTO runs (`+copyRunCols+`) VALUES (`+marks(len(cols))+`) RETURNING id`, cols...).Scan(&id); err != nil {
			return err
		}
		ids[src] = id
		fresh = append(fresh, src)
		c.st.Runs++
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, src := range fresh {
		if err := c.tests(src, ids[src]); err != nil {
			return nil, err
		}
		if err := c.runTests(src, ids[src]); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// runTests copies the names of the tests run srcRun set out to run.
func (c *copier) runTests(srcRun, run int64) error {
	return c.each(`SELECT name FROM run_tests WHERE run_id = ? ORDER BY name`, func(v []any) error {
		_, err := c.tx.ExecContext(c.ctx, `INSERT INTO run_tests (run_id, name) VALUES (?, ?) ON CONFLICT DO NOTHING`, run, v[0])
		return err
	}, srcRun)
}

func (c *copier) tests(srcRun, run int64) error {
	tests := map[int64]int64{}
	var order []int64
	err := c.each(`SELECT id, `+copyTestCols+` FROM test_results WHERE run_id = ? ORDER BY id`, func(v []any) error {
		var id int64
		if err := c.tx.QueryRowContext(c.ctx, `INSERT INTO test_results (run_id, `+copyTestCols+`) VALUES (?, `+marks(len(v)-1)+`) RETURNING id`,
			append([]any{run}, v[1:]...)...).Scan(&id); err != nil {
			return err
		}
		tests[v[0].(int64)] = id
		order = append(order, v[0].(int64))
		c.st.Tests++
		return nil
	}, srcRun)
	if err != nil {
		return err
	}
	for _, src := range order {
		err := c.each(`SELECT `+copyStepCols+` FROM step_results WHERE test_id = ? ORDER BY idx`, func(v []any) error {
			_, err := c.tx.ExecContext(c.ctx, `INSERT INTO step_results (test_id, `+copyStepCols+`) VALUES (?, `+marks(len(v))+`)`,
				append([]any{tests[src]}, v...)...)
			c.st.Steps++
			return err
		}, src)
		if err != nil {
			return err
		}
	}
	return nil
}

// runRef maps a source run id (NULL, or a run not copied) to the target's.
func runRef(v any, runs map[int64]int64) any {
	if id, ok := v.(int64); ok {
		if to, ok := runs[id]; ok {
			return to
		}
	}
	return nil
}

func (c *copier) calls(runs map[int64]int64) error {
	return c.each(`SELECT run_id, `+copyCallCols+` FROM model_calls ORDER BY id`, func(v []any) error {
		run, cols := runRef(v[0], runs), v[1:]
		where, args := copyCallMatch+` AND run_id IS NULL`, cols[:6]
		if run != nil {
			where, args = copyCallMatch+` AND run_id = ?`, append(append([]any{}, cols[:6]...), run)
		}
		if id, err := c.found("model_calls", where, args...); err != nil || id != 0 {
			c.st.Skipped += min(int(id), 1)
			return err
		}
		_, err := c.tx.ExecContext(c.ctx, `INSERT INTO model_calls (run_id, `+copyCallCols+`) VALUES (?, `+marks(len(cols))+`)`, append([]any{run}, cols...)...)
		c.st.ModelCalls++
		return err
	})
}

func (c *copier) decisions(runs map[int64]int64) error {
	return c.each(`SELECT run_id, `+copyDecCols+` FROM decisions ORDER BY id`, func(v []any) error {
		run, cols := runRef(v[0], runs), v[1:]
		if id, err := c.found("decisions", copyDecMatch, cols[0], cols[1], cols[2], cols[3], cols[10], cols[5]); err != nil || id != 0 {
			c.st.Skipped += min(int(id), 1)
			return err
		}
		_, err := c.tx.ExecContext(c.ctx, `INSERT INTO decisions (run_id, `+copyDecCols+`) VALUES (?, `+marks(len(cols))+`)`, append([]any{run}, cols...)...)
		c.st.Decisions++
		return err
	})
}

// heals copies the heals the target does not have, then points the copied
// superseded ones at their successors' target ids. A staged heal the
// target already has one of for the same key and branch (one staged heal
// per key and branch) is skipped.
func (c *copier) heals() error {
	ids := map[int64]int64{}
	type link struct{ heal, by int64 }
	var links []link
	err := c.each(`SELECT id, superseded_by, `+copyHealCols+` FROM heals ORDER BY id`, func(v []any) error {
		src, by, cols := v[0].(int64), v[1], v[2:]
		id, err := c.found("heals", copyHealMatch, cols[0], cols[16], cols[11])
		if err != nil {
			return err
		}
		if id != 0 {
			ids[src] = id
			c.st.Skipped++
			return nil
		}
		err = c.tx.QueryRowContext(c.ctx, `INSERT INTO heals (`+copyHealCols+`) VALUES (`+marks(len(cols))+`) ON CONFLICT DO NOTHING RETURNING id`, cols...).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			c.st.Skipped++ // a staged heal of the same key and branch is there
			return nil
		}
		if err != nil {
			return err
		}
		ids[src] = id
		if b, ok := by.(int64); ok {
			links = append(links, link{id, b})
		}
		c.st.Heals++
		return nil
	})
	if err != nil {
		return err
	}
	for _, l := range links {
		if to, ok := ids[l.by]; ok {
			if _, err := c.tx.ExecContext(c.ctx, `UPDATE heals SET superseded_by = ? WHERE id = ?`, to, l.heal); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyBatch is how many cache rows one upsert statement carries: 500 rows
// of 17 columns stay well within both engines' limits on bound values
// (SQLite's 32,766, PostgreSQL's 65,535), and a round trip per 500 rows is
// what makes a copy into a server quick.
const copyBatch = 500

// upsert copies every row of a cache table through the import's upsert,
// copyBatch rows a statement. (The source's rows are unique by the
// conflict key, so no statement updates one row twice.)
func (c *copier) upsert(table, cols, upsert string) (int, error) {
	n := ncols(cols)
	one := "(" + marks(n) + ")"
	head, tail, ok := strings.Cut(upsert, one)
	if !ok {
		return 0, fmt.Errorf("the upsert of %s has no row of %d values", table, n)
	}
	batched := func(rows int) string {
		return head + strings.TrimSuffix(strings.Repeat(one+", ", rows), ", ") + tail
	}
	full, err := c.tx.PrepareContext(c.ctx, batched(copyBatch))
	if err != nil {
		return 0, err
	}
	defer full.Close()
	var args []any
	rows, total := 0, 0
	flush := func() error {
		var err error
		if rows == copyBatch {
			_, err = full.ExecContext(c.ctx, args...)
		} else if rows > 0 {
			_, err = c.tx.ExecContext(c.ctx, batched(rows), args...)
		}
		total += rows
		args, rows = args[:0], 0
		return err
	}
	err = c.each(`SELECT `+cols+` FROM `+table+` ORDER BY id`, func(v []any) error {
		if len(v) != n {
			return fmt.Errorf("%d columns, want %d", len(v), n)
		}
		args = append(args, v...)
		if rows++; rows == copyBatch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return total, err
	}
	return total, flush()
}
