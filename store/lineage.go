package store

import (
	"encoding/json"
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

// lineageArgs are the lookup's parameters after the key: ?2 … ?6.
func (db *DB) lineageArgs() []any {
	l := db.lineage
	merged, _ := json.Marshal(nonNil(l.Merged)) // strings always marshal
	return []any{VersionKey(l.Version), l.Branch, l.Main, l.BaseDepth, string(merged)}
}

// lineageWhere and lineageOrder select and rank a key's rows (?1 is the
// key) by the rules of WithLineage.
const (
	lineageWhere = `key = ?1 AND version_key <= ?2
  AND (branch = ?3 OR branch = ?4 OR git_commit IN (SELECT value FROM json_each(?6)))`
	lineageOrder = `CASE
    WHEN branch <> ?3 AND git_commit IN (SELECT value FROM json_each(?6)) THEN 0
    WHEN branch = ?3 THEN 1
    WHEN depth <= ?5 THEN 2
    ELSE 3 END, id DESC`
)

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
