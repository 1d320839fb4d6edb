package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/e2e-dev/e2e/session"
)

const (
	cacheGetSQL = `
SELECT project, test, description, selectors, node, intent, created_at, used_at, hits,
       identity, branch, git_commit, version, context
FROM element_cache WHERE id = ?`
	cacheTouchSQL = `UPDATE element_cache SET used_at = ?, hits = hits + 1 WHERE id = ?`
)

// Cache returns the element cache row for key that the store's lineage
// picks (see WithLineage), or nil and no error when there is none. Errors
// come from the query, or wrap session.ErrUnreadableRow when a stored JSON
// column of the row does not decode or a list of it is over its bound (a
// *session.OversizeRowError).
func (db *DB) Cache(ctx context.Context, key session.CacheKey) (_ *session.CacheEntry, err error) {
	defer db.noteFailure(&err)
	var (
		e                       = session.CacheEntry{Key: key}
		selectors, node, intent []byte
		nodeContext             []byte
		created, used           string
	)
	id, ok, err := db.pick(ctx, db.cachePick, key)
	if err != nil {
		return nil, fmt.Errorf("read cache %s: %w", key, err)
	}
	if !ok {
		return nil, nil
	}
	err = db.cacheGet.QueryRowContext(ctx, id).
		Scan(&e.Project, &e.Test, &e.Description, &selectors, &node, &intent, &created, &used, &e.Hits,
			&e.Identity, &e.Branch, &e.Commit, &e.Version, &nodeContext)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read cache %s: %w", key, err)
	}
	if err := json.Unmarshal(selectors, &e.Selectors); err != nil {
		return nil, fmt.Errorf("read cache %s: %w: selectors: %w", key, session.ErrUnreadableRow, err)
	}
	if err := json.Unmarshal(node, &e.Node); err != nil {
		return nil, fmt.Errorf("read cache %s: %w: node: %w", key, session.ErrUnreadableRow, err)
	}
	if err := json.Unmarshal(intent, &e.Intent); err != nil {
		return nil, fmt.Errorf("read cache %s: %w: intent: %w", key, session.ErrUnreadableRow, err)
	}
	if err := json.Unmarshal(nodeContext, &e.Context); err != nil {
		return nil, fmt.Errorf("read cache %s: %w: context: %w", key, session.ErrUnreadableRow, err)
	}
	if err := e.CheckBounds(); err != nil {
		// A row too large to replay (an import): a miss, never handed to
		// the page.
		return nil, fmt.Errorf("read cache %s: %w", key, err)
	}
	if e.CreatedAt, err = parseTime(created); err != nil {
		return nil, fmt.Errorf("read cache %s: %w", key, err)
	}
	if e.UsedAt, err = parseTime(used); err != nil {
		return nil, fmt.Errorf("read cache %s: %w", key, err)
	}
	return &e, nil
}

// PutCache inserts e as a row of the store's lineage (branch, commit,
// version), or replaces every column of that lineage's row with the same
// key, except its hit count: that becomes the larger of the row's and
// e.Hits, in the same statement, so hits counted by runs meanwhile
// (TouchCache) are never lost to a write of an older count. Rows of other
// branches, commits and versions are left alone. A zero e.CreatedAt becomes
// the clock's now and a zero e.UsedAt becomes e.CreatedAt; both, the stored
// hit count and the lineage are written back to e. It returns an error for
// an empty key or an identity that is not JSON.
func (db *DB) PutCache(ctx context.Context, e *session.CacheEntry) (err error) {
	defer db.noteFailure(&err)
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	if e == nil {
		return errors.New("put cache: nil entry")
	}
	return putCache(ctx, db.write, e, db.lineage, db.now())
}

func putCache(ctx context.Context, ex *sql.DB, e *session.CacheEntry, l session.Lineage, now time.Time) error {
	if e.Key == "" {
		return errors.New("put cache: empty key")
	}
	selectors, err := json.Marshal(e.Selectors)
	if err != nil {
		return fmt.Errorf("put cache %s: selectors: %w", e.Key, err)
	}
	node, err := json.Marshal(e.Node)
	if err != nil {
		return fmt.Errorf("put cache %s: node: %w", e.Key, err)
	}
	intent, err := json.Marshal(e.Intent)
	if err != nil {
		return fmt.Errorf("put cache %s: intent: %w", e.Key, err)
	}
	nodeContext, err := json.Marshal(e.Context)
	if err != nil {
		return fmt.Errorf("put cache %s: context: %w", e.Key, err)
	}
	identity := e.Identity
	if identity == "" {
		identity = "{}"
	}
	created := e.CreatedAt
	if created.IsZero() {
		created = now
	}
	used := e.UsedAt
	if used.IsZero() {
		used = created
	}
	var hits int
	err = ex.QueryRowContext(ctx, `
INSERT INTO element_cache (key, branch, git_commit, depth, version, version_key, identity,
    project, test, description, selectors, node, intent, context, created_at, used_at, hits)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (key, branch, git_commit, version) DO UPDATE SET
    depth = excluded.depth, identity = excluded.identity,
    project = excluded.project, test = excluded.test, description = excluded.description,
    selectors = excluded.selectors, node = excluded.node, intent = excluded.intent, context = excluded.context,
    created_at = excluded.created_at, used_at = excluded.used_at, hits = CASE WHEN element_cache.hits > excluded.hits THEN element_cache.hits ELSE excluded.hits END
RETURNING hits`,
		string(e.Key), l.Branch, l.Commit, l.Depth, l.Version, VersionKey(l.Version), identity,
		e.Project, e.Test, e.Description, string(selectors), string(node), string(intent), string(nodeContext),
		formatTime(created), formatTime(used), e.Hits).Scan(&hits)
	if err != nil {
		return fmt.Errorf("put cache %s: %w", e.Key, err)
	}
	e.CreatedAt, e.UsedAt, e.Hits = created, used, hits
	e.Identity, e.Branch, e.Commit, e.Version = identity, l.Branch, l.Commit, l.Version
	return nil
}

// TouchCache records a cache hit on the row of key that Cache returns, with
// one statement: used_at becomes the clock's now and hits grows by one. It
// returns an error wrapping ErrNotFound when there is no such row.
func (db *DB) TouchCache(ctx context.Context, key session.CacheKey) (err error) {
	defer db.noteFailure(&err)
	if db.readOnly != "" {
		return nil // a read-only store: the run writes nothing (ReadOnly says why)
	}
	id, ok, err := db.pick(ctx, db.cachePick, key)
	if err != nil {
		return fmt.Errorf("touch cache %s: %w", key, err)
	}
	if !ok {
		return fmt.Errorf("touch cache %s: %w", key, ErrNotFound)
	}
	if _, err := db.cacheTouch.ExecContext(ctx, formatTime(db.now()), id); err != nil {
		return fmt.Errorf("touch cache %s: %w", key, err)
	}
	return nil
}
