package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// on points the store at a checkout; tests switch it between writes.
func on(db *DB, l session.Lineage) *DB {
	db.setLineage(l)
	return db
}

// put writes an element row whose first selector names which write it was.
func put(t *testing.T, db *DB, key, mark string) {
	t.Helper()
	e := sampleEntry(key)
	e.Selectors = []session.Selector{{Kind: "id", Value: mark}}
	if err := db.PutCache(context.Background(), e); err != nil {
		t.Fatal(err)
	}
}

// read says which write Cache returns for key, "" for none.
func read(t *testing.T, db *DB, key string) string {
	t.Helper()
	e, err := db.Cache(context.Background(), session.CacheKey(key))
	if err != nil {
		t.Fatal(err)
	}
	if e == nil {
		return ""
	}
	return e.Selectors[0].Value
}

func TestLineageLookup(t *testing.T) {
	db := openTest(t)
	const v = "v1.0.0"
	main1 := session.Lineage{Branch: "main", Main: "main", Commit: "m1", Depth: 1, BaseDepth: 1, Version: v}
	main2 := session.Lineage{Branch: "main", Main: "main", Commit: "m2", Depth: 2, BaseDepth: 2, Version: v}
	feature := session.Lineage{Branch: "feature", Main: "main", Commit: "f1", Depth: 2, BaseDepth: 1, Version: v}
	other := session.Lineage{Branch: "other", Main: "main", Commit: "o1", Depth: 2, BaseDepth: 1, Version: v}

	put(t, on(db, main1), "k", "main@1")
	put(t, on(db, main2), "k", "main@2")
	put(t, on(db, main2), "later", "main@2 only")
	if got := read(t, on(db, feature), "k"); got != "main@1" {
		t.Errorf("a branch reads %q, want main's row as of its merge base", got)
	}
	if got := read(t, on(db, feature), "later"); got != "main@2 only" {
		t.Errorf("a key main has only after the merge base: %q, want main's newest", got)
	}
	put(t, on(db, feature), "k", "feature@1")
	if got := read(t, on(db, feature), "k"); got != "feature@1" {
		t.Errorf("a branch reads %q, want its own row first", got)
	}
	if got := read(t, on(db, main2), "k"); got != "main@2" {
		t.Errorf("main reads %q: a branch's row leaked before the merge", got)
	}
	if got := read(t, on(db, other), "k"); got != "main@1" {
		t.Errorf("another branch reads %q: a branch's row leaked sideways", got)
	}
	merge := session.Lineage{Branch: "main", Main: "main", Commit: "m3", Depth: 3, BaseDepth: 3, Version: v, Merged: []string{"f1"}}
	if got := read(t, on(db, merge), "k"); got != "feature@1" {
		t.Errorf("main after merging the branch reads %q, want the branch's row", got)
	}
	if err := on(db, merge).TouchCache(context.Background(), "k"); err != nil {
		t.Fatal(err)
	}
	var feat, others int
	if err := db.read.QueryRow(`SELECT sum(CASE WHEN branch = 'feature' THEN hits ELSE 0 END), sum(CASE WHEN branch <> 'feature' THEN hits ELSE 0 END) FROM element_cache WHERE key = 'k'`).Scan(&feat, &others); err != nil || feat != 4 || others != 6 {
		t.Errorf("touch went to another row: feature row hits %d (want 3+1), main rows %d (want 3+3), %v", feat, others, err)
	}
}

func TestLineageNeverReadsANewerVersion(t *testing.T) {
	db := openTest(t)
	l := session.Lineage{Branch: "main", Main: "main", Commit: "m1", Depth: 1, BaseDepth: 1}
	l.Version = "v1.2.0"
	put(t, on(db, l), "k", "by 1.2.0")
	l.Version = "v1.10.0"
	put(t, on(db, l), "k2", "by 1.10.0")
	l.Version = "v1.1.9"
	if got := read(t, on(db, l), "k"); got != "" {
		t.Errorf("v1.1.9 read a row of v1.2.0: %q", got)
	}
	l.Version = "v1.3.0"
	if got := read(t, on(db, l), "k"); got != "by 1.2.0" {
		t.Errorf("v1.3.0 cannot read a row of v1.2.0: %q", got)
	}
	if got := read(t, on(db, l), "k2"); got != "" {
		t.Errorf("v1.3.0 read a row of v1.10.0 (versions compared as text?): %q", got)
	}
	traj := &session.Trajectory{Key: "t", Goal: "g", Steps: []string{"x"}}
	l.Version = "v2.0.0"
	if err := on(db, l).PutTrajectory(context.Background(), traj); err != nil {
		t.Fatal(err)
	}
	l.Version = "v1.9.9"
	if got, err := on(db, l).Trajectory(context.Background(), "t"); err != nil || got != nil {
		t.Errorf("v1.9.9 read a trajectory of v2.0.0: %+v %v", got, err)
	}
}

func TestVersionKeyOrder(t *testing.T) {
	in := []string{"v0.0.0-dev", "v0.9.0", "v1.0.0-rc.1", "v1.0.0", "1.0.1", "v1.2.0", "v1.10.0", "v10.0.0"}
	keys := make([]string, len(in))
	for i, v := range in {
		keys[i] = VersionKey(v)
		if keys[i] == "" {
			t.Fatalf("VersionKey(%q) = \"\"", v)
		}
	}
	if !slices.IsSorted(keys) {
		t.Errorf("keys out of version order: %q", keys)
	}
	if VersionKey("(devel)") != "" || VersionKey("v1.2") != "" {
		t.Error("an unparsable version has a key")
	}
}

func TestStagedHealStaysOnItsBranch(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	main1 := session.Lineage{Branch: "main", Main: "main", Commit: "m1", Depth: 1, BaseDepth: 1}
	feature := session.Lineage{Branch: "feature", Main: "main", Commit: "f1", Depth: 2, BaseDepth: 1}
	if err := on(db, main1).PutTrajectory(ctx, &session.Trajectory{Key: "t", Steps: []string{"old"}}); err != nil {
		t.Fatal(err)
	}
	h := &session.Heal{Key: "t", OldSteps: []string{"old"}, NewSteps: []string{"new"}}
	if err := on(db, feature).PutHeal(ctx, h); err != nil {
		t.Fatal(err)
	}
	if got, _ := on(db, main1).StagedHeal(ctx, "t"); got != nil {
		t.Error("main sees a heal staged on a branch")
	}
	if got, _ := on(db, feature).StagedHeal(ctx, "t"); got == nil {
		t.Fatal("the branch does not see its staged heal")
	}
	if _, err := on(db, main1).DecideHeal(ctx, h.ID, true, "me"); err != nil { // accepted from anywhere
		t.Fatal(err)
	}
	if got, _ := on(db, main1).Trajectory(ctx, "t"); got == nil || got.Steps[0] != "old" {
		t.Errorf("main reads %+v after the branch's heal was accepted, want its own", got)
	}
	if got, _ := on(db, feature).Trajectory(ctx, "t"); got == nil || got.Steps[0] != "new" || got.Branch != "feature" {
		t.Errorf("the branch reads %+v, want the accepted heal as its own row", got)
	}
}

// BenchmarkKeyLookup1M looks up a key with lineage resolution in a store
// holding 1,000,000 element cache rows: 250,000 keys, each with a main row
// as of the merge base, a newer main row, a row of the branch being run and
// a row of another branch.
func BenchmarkKeyLookup1M(b *testing.B) {
	db := openTest(b)
	ctx := context.Background()
	const keys = 250_000
	start := db.now()
	err := inTx(ctx, db.write, db.eng, func(tx *sql.Tx) error {
		e := sampleEntry("")
		_, err := tx.ExecContext(ctx, `
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 - 1),
     l(branch, git_commit, depth) AS (VALUES ('main', 'm1', 1), ('main', 'm9', 9), ('feature', 'f1', 5), ('other', 'o1', 5))
INSERT INTO element_cache (key, branch, git_commit, depth, version, version_key, project, test, description, selectors, node, intent, created_at, used_at)
SELECT 'key-' || substr(CAST(1000000 + i AS TEXT), 2), l.branch, l.git_commit, l.depth, 'v1.0.0', ?2, 'shop', 'login', ?3, ?4, ?5, ?6, ?7, ?7 FROM n, l`,
			keys, VersionKey("v1.0.0"), e.Description, `[{"kind":"id","value":"#x"}]`, `{"tag":"button"}`, `{}`, formatTime(start))
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	var n int
	if err := db.read.QueryRow(`SELECT count(*) FROM element_cache`).Scan(&n); err != nil || n != 4*keys {
		b.Fatalf("%d rows, %v", n, err)
	}
	on(db, session.Lineage{Branch: "feature", Main: "main", Commit: "f2", Depth: 6, BaseDepth: 4, Version: "v1.1.0"})
	// lineage: the store's lookup. key-only: the baseline, the first row
	// of the key by the primary index, no lineage rules.
	b.Run("lineage", func(b *testing.B) {
		lookups(b, func(key session.CacheKey) error {
			e, err := db.Cache(ctx, key)
			if err == nil && (e == nil || e.Branch != "feature") {
				err = fmt.Errorf("lookup %s: got %+v", key, e)
			}
			return err
		})
	})
	// lineage-main: on main, with the largest merged-commit list gitinfo
	// gives (20 merges × 100 commits), the feature rows among them.
	b.Run("lineage-main", func(b *testing.B) {
		merged := []string{"f1"}
		for i := range 1999 {
			merged = append(merged, fmt.Sprintf("%040x", i))
		}
		saved := db.lineage
		defer db.setLineage(saved)
		on(db, session.Lineage{Branch: "main", Main: "main", Commit: "m10", Depth: 10, BaseDepth: 10, Version: "v1.1.0", Merged: merged})
		lookups(b, func(key session.CacheKey) error {
			e, err := db.Cache(ctx, key)
			if err == nil && (e == nil || e.Branch != "feature") {
				err = fmt.Errorf("lookup %s: got %+v", key, e)
			}
			return err
		})
	})
	b.Run("key-only", func(b *testing.B) {
		st, err := db.read.PrepareContext(ctx, `SELECT selectors, node, intent FROM element_cache WHERE key = ? LIMIT 1`)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		lookups(b, func(key session.CacheKey) error {
			var s, n, in string
			return st.QueryRowContext(ctx, string(key)).Scan(&s, &n, &in)
		})
	})
}

// lookups runs one lookup per iteration over keys spread across the store
// and reports the median time of one as median-ns/op.
func lookups(b *testing.B, lookup func(session.CacheKey) error) {
	var times []time.Duration
	i := 0
	for b.Loop() {
		key := session.CacheKey(fmt.Sprintf("key-%06d", (i*7919)%250_000))
		i++
		t0 := time.Now()
		if err := lookup(key); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/op")
}
