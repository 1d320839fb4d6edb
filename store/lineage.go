package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session"
)

// WithLineage makes the store read and write cache rows (element cache,
// trajectories, heals) for the checkout l: rows written carry its branch,
// commit, depth and version, and a lookup of a key picks, among the rows
// whose version is not newer than l.Version:
//
//  1. on the main branch, rows written at commits that recent merges brought
//     in (l.Merged), newest first;
//  2. the branch's own rows, newest first;
//  3. main's rows written at or before the merge base (depth ≤ l.BaseDepth);
//  4. main's newest rows.
//
// Without it the store reads and writes rows with no branch.
func WithLineage(l session.Lineage) Option {
	return func(o *options) { o.lineage = l }
}

// Lineage returns the lineage the store reads and writes with.
func (db *DB) Lineage() session.Lineage { return db.lineage }

// setLineage makes l the store's lineage, with what lookups derive from it.
func (db *DB) setLineage(l session.Lineage) {
	db.lineage = l
	db.versionKey = VersionKey(l.Version)
	db.merged = make(map[string]bool, len(l.Merged))
	for _, c := range l.Merged {
		db.merged[c] = true
	}
}

// rank places a row in the lookup order of WithLineage: lower is read
// first; -1 is never read.
func (db *DB) rank(branch, commit string, depth int) int {
	l := db.lineage
	switch {
	case branch != l.Branch && db.merged[commit]:
		return 0
	case branch == l.Branch:
		return 1
	case branch == l.Main && depth <= l.BaseDepth:
		return 2
	case branch == l.Main:
		return 3
	}
	return -1
}

// pickSQL lists the rows of a key that the running version may read,
// newest first; the lineage rules then pick one in Go (the rows of one key
// are few, and the merged commits can be thousands).
const pickSQL = `SELECT id, branch, git_commit, depth FROM %s WHERE key = ? AND version_key <= ? ORDER BY id DESC`

// pick returns the id of the row of key that the lineage rules choose from
// the rows st (pickSQL on a table) lists, or false when none may be read.
func (db *DB) pick(ctx context.Context, st *sql.Stmt, key session.CacheKey) (int64, bool, error) {
	rows, err := st.QueryContext(ctx, string(key), db.versionKey)
	if err != nil {
		return 0, false, err
	}
	defer rows.Close()
	best, bestRank := int64(0), -1
	for rows.Next() {
		var id int64
		var branch, commit string
		var depth int
		if err := rows.Scan(&id, &branch, &commit, &depth); err != nil {
			return 0, false, err
		}
		if r := db.rank(branch, commit, depth); r >= 0 && (bestRank < 0 || r < bestRank) {
			best, bestRank = id, r
		}
	}
	return best, bestRank >= 0, rows.Err()
}

// VersionKey returns a version ("v1.2.3", "1.2.3-rc.1", "v0.0.0-dev") in a
// form whose string order is version order: a pre-release sorts before its
// release. A version that is not MAJOR.MINOR.PATCH[-pre] sorts first.
func VersionKey(v string) string {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	core, pre, hasPre := strings.Cut(v, "-")
	core, _, _ = strings.Cut(core, "+")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return ""
	}
	var b strings.Builder
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 32)
		if err != nil {
			return ""
		}
		if i > 0 {
			b.WriteByte('.')
		}
		fmt.Fprintf(&b, "%010d", n)
	}
	if hasPre {
		b.WriteString("-" + pre) // '-' sorts before '~'
	} else {
		b.WriteString("~")
	}
	return b.String()
}
