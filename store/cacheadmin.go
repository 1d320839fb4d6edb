package store

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Cache row kinds.
const (
	KindElement    = "element"
	KindTrajectory = "trajectory"
)

// CacheRow is one row of the element cache or of the trajectories, as the
// cache commands list, show, export and import it. JSON columns stay raw.
type CacheRow struct {
	Kind     string          `json:"kind"` // KindElement or KindTrajectory
	Key      string          `json:"key"`
	Branch   string          `json:"branch"`
	Commit   string          `json:"commit"`
	Depth    int             `json:"depth"`
	Version  string          `json:"version"`
	Identity json.RawMessage `json:"identity"`
	Project  string          `json:"project"`
	Test     string          `json:"test"`
	// Text is the description of an element or the goal of a trajectory.
	Text      string    `json:"text"`
	CreatedAt time.Time `json:"created_at"`
	UsedAt    time.Time `json:"used_at"`
	Hits      int       `json:"hits"`
	// Element rows.
	Selectors json.RawMessage `json:"selectors,omitempty"`
	Node      json.RawMessage `json:"node,omitempty"`
	Intent    json.RawMessage `json:"intent,omitempty"`
	// Context is where the element stood (session.NodeContext); {} for rows
	// written before it was kept.
	Context json.RawMessage `json:"context,omitempty"`
	// Trajectory rows.
	Steps         json.RawMessage `json:"steps,omitempty"`
	Postcondition string          `json:"postcondition,omitempty"`
	Evidence      json.RawMessage `json:"evidence,omitempty"`
	Gaps          json.RawMessage `json:"gaps,omitempty"`
}

// CacheFilter narrows CacheRows; empty fields match everything. Key may be
// a prefix of a key.
type CacheFilter struct {
	Test   string
	Branch string
	Key    string
}

// cacheRowsSQL reads both tables in one shape; ?1 test, ?2 branch, ?3 key prefix.
const cacheRowsSQL = `
SELECT 'element', key, branch, git_commit, depth, version, identity, project, test, description,
       created_at, used_at, hits, selectors, node, intent, NULL, '', NULL, NULL, context
FROM element_cache
WHERE (?1 = '' OR test = ?1) AND (?2 = '' OR branch = ?2) AND (?3 = '' OR substr(key, 1, length(?3)) = ?3)
UNION ALL
SELECT 'trajectory', key, branch, git_commit, depth, version, identity, project, test, goal,
       created_at, used_at, hits, NULL, NULL, NULL, steps, postcondition, evidence, gaps, NULL
FROM trajectories
WHERE (?1 = '' OR test = ?1) AND (?2 = '' OR branch = ?2) AND (?3 = '' OR substr(key, 1, length(?3)) = ?3)
ORDER BY 9, 10, 12 DESC`

// CacheRows lists the rows of both tables that f matches, by test, then
// text, newest use first.
func (db *DB) CacheRows(ctx context.Context, f CacheFilter) ([]CacheRow, error) {
	var out []CacheRow
	err := db.eachCacheRow(ctx, f, func(r *CacheRow) error {
		out = append(out, *r)
		return nil
	})
	return out, err
}

// eachCacheRow calls fn with each row CacheRows lists, in its order, one at
// a time; an error of fn stops it and is returned.
func (db *DB) eachCacheRow(ctx context.Context, f CacheFilter, fn func(*CacheRow) error) error {
	rows, err := db.read.QueryContext(ctx, cacheRowsSQL, f.Test, f.Branch, f.Key)
	if err != nil {
		return fmt.Errorf("list cache: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r CacheRow
		var identity, created, used string
		var sel, node, intent, steps, ev, gaps, nodeContext sql.NullString
		if err := rows.Scan(&r.Kind, &r.Key, &r.Branch, &r.Commit, &r.Depth, &r.Version, &identity, &r.Project, &r.Test, &r.Text,
			&created, &used, &r.Hits, &sel, &node, &intent, &steps, &r.Postcondition, &ev, &gaps, &nodeContext); err != nil {
			return fmt.Errorf("list cache: %w", err)
		}
		r.Identity = json.RawMessage(identity)
		for _, c := range []struct {
			dst *json.RawMessage
			src sql.NullString
		}{{&r.Selectors, sel}, {&r.Node, node}, {&r.Intent, intent}, {&r.Steps, steps}, {&r.Evidence, ev}, {&r.Gaps, gaps},
			{&r.Context, nodeContext}} {
			if c.src.Valid {
				*c.dst = json.RawMessage(c.src.String)
			}
		}
		if r.CreatedAt, err = parseTime(created); err != nil {
			return fmt.Errorf("list cache: %w", err)
		}
		if r.UsedAt, err = parseTime(used); err != nil {
			return fmt.Errorf("list cache: %w", err)
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list cache: %w", err)
	}
	return nil
}

// DeleteCache removes every row of key (a full key), on every branch, from
// both tables, in one transaction, and returns how many went.
func (db *DB) DeleteCache(ctx context.Context, key string) (int64, error) {
	if err := db.writable(); err != nil {
		return 0, err
	}
	if key == "" {
		return 0, errors.New("delete cache: empty key")
	}
	var n int64
	err := inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM element_cache WHERE key = ?`, `DELETE FROM trajectories WHERE key = ?`} {
			res, err := tx.ExecContext(ctx, q, key)
			if err != nil {
				return err
			}
			c, _ := res.RowsAffected()
			n += c
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("delete cache %s: %w", key, err)
	}
	return n, nil
}

// PruneCache removes the rows of both tables last used before cutoff, in
// one transaction, and returns how many went.
func (db *DB) PruneCache(ctx context.Context, cutoff time.Time) (int64, error) {
	if err := db.writable(); err != nil {
		return 0, err
	}
	var n int64
	err := inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		for _, q := range []string{`DELETE FROM element_cache WHERE used_at < ?`, `DELETE FROM trajectories WHERE used_at < ?`} {
			res, err := tx.ExecContext(ctx, q, formatTime(cutoff))
			if err != nil {
				return err
			}
			c, _ := res.RowsAffected()
			n += c
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("prune cache: %w", err)
	}
	return n, nil
}

// ExportCache writes every row of both tables to w as JSON lines, one row
// at a time, and returns how many it wrote.
func (db *DB) ExportCache(ctx context.Context, w io.Writer) (int, error) {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	n := 0
	err := db.eachCacheRow(ctx, CacheFilter{}, func(r *CacheRow) error {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("export cache: %w", err)
		}
		n++
		return nil
	})
	if err != nil {
		return 0, err
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("export cache: %w", err)
	}
	return n, nil
}

// CacheStats sums up the caches and how recent runs used them.
type CacheStats struct {
	Runs    int // runs looked at
	Lookups int // steps that needed an element or a trajectory: hit, re-identified, located or re-located
	Hits    int // of which replayed from the cache (its selectors or trajectory)
	// Reidentified of the lookups missed on the cached selectors and found
	// the element by its likeness to the cached node: like a hit, no locate
	// and no model call.
	Reidentified int
	HitRate      float64 // Hits over Lookups
	// ServedRate is Hits and Reidentified over Lookups: the lookups the
	// cache answered with no locate and no model call.
	ServedRate float64
	Saved      float64 // model calls the hits and re-identified steps saved, estimated (see CacheStatistics)
	ByBranch   []BranchCount
}

// BranchCount is how many rows one branch and version hold.
type BranchCount struct {
	Branch, Version        string
	Elements, Trajectories int
}

// CacheStatistics returns, over the last runs runs, the lookups (steps
// that hit, were re-identified, located or re-located), the hits and the
// re-identified steps apart, the hit rate (hits over lookups), the served
// rate (hits and re-identified steps over lookups), the model calls they
// saved (for each step kind, its hits and re-identified steps times the
// mean model calls of its steps that were located or re-located, over the
// whole history), and the rows by branch and version.
func (db *DB) CacheStatistics(ctx context.Context, runs int) (CacheStats, error) {
	var s CacheStats
	err := db.read.QueryRowContext(ctx, `
WITH recent AS (SELECT id FROM runs ORDER BY id DESC LIMIT ?),
     steps AS (SELECT s.kind, s.status FROM step_results s JOIN test_results t ON t.id = s.test_id
               WHERE t.run_id IN (SELECT id FROM recent) AND s.status IN ('hit', 're-identified', 'located', 're-located')),
     cost AS (SELECT s.kind, avg(s.llm_calls) AS calls FROM step_results s
              WHERE s.status IN ('located', 're-located') GROUP BY s.kind)
SELECT (SELECT count(*) FROM recent), count(*), coalesce(sum(CASE WHEN status = 'hit' THEN 1 ELSE 0 END), 0),
       coalesce(sum(CASE WHEN status = 're-identified' THEN 1 ELSE 0 END), 0),
       coalesce(sum(CASE WHEN status IN ('hit', 're-identified')
                         THEN coalesce((SELECT calls FROM cost WHERE cost.kind = steps.kind), 0) END), 0)
FROM steps`, runs).Scan(&s.Runs, &s.Lookups, &s.Hits, &s.Reidentified, &s.Saved)
	if err != nil {
		return s, fmt.Errorf("cache stats: %w", err)
	}
	if s.Lookups > 0 {
		s.HitRate = float64(s.Hits) / float64(s.Lookups)
		s.ServedRate = float64(s.Hits+s.Reidentified) / float64(s.Lookups)
	}
	rows, err := db.read.QueryContext(ctx, `
SELECT branch, version, sum(CASE WHEN kind = 'element' THEN 1 ELSE 0 END), sum(CASE WHEN kind = 'trajectory' THEN 1 ELSE 0 END) FROM (
    SELECT branch, version, 'element' AS kind FROM element_cache
    UNION ALL SELECT branch, version, 'trajectory' FROM trajectories) AS rows_
GROUP BY branch, version ORDER BY branch, version`)
	if err != nil {
		return s, fmt.Errorf("cache stats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var b BranchCount
		if err := rows.Scan(&b.Branch, &b.Version, &b.Elements, &b.Trajectories); err != nil {
			return s, fmt.Errorf("cache stats: %w", err)
		}
		s.ByBranch = append(s.ByBranch, b)
	}
	return s, rows.Err()
}
