package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// The races of a shared store (issue 18), each run on both engines: what
// one writer does must never be lost to another's, whatever the timing.

// handles opens n handles on one new store, each with lineage l (as n
// processes would).
func handles(t *testing.T, n int, l session.Lineage) []*DB {
	t.Helper()
	target := testTarget(t)
	var dbs []*DB
	for range n {
		db, err := Open(context.Background(), target, WithLineage(l))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs = append(dbs, db)
	}
	return dbs
}

// together runs fn(i) for i in [0, n) at once and returns their errors.
func together(n int, fn func(i int) error) error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = fn(i) }()
	}
	wg.Wait()
	return errors.Join(errs...)
}

var mainLineage = session.Lineage{Branch: "main", Main: "main", Commit: "m1", Depth: 1, BaseDepth: 1, Version: "v1.0.0"}

// Eight runners on one branch promote the same key and record hits on it:
// one row, every hit counted.
func TestRacePromotingOneKey(t *testing.T) {
	const runners, rounds = 8, 25
	dbs := handles(t, runners, mainLineage)
	ctx := context.Background()
	first := sampleEntry("shared")
	first.Hits = 0
	must(t, dbs[0].PutCache(ctx, first))
	err := together(runners, func(i int) error {
		for r := range rounds {
			e := sampleEntry("shared")
			e.Hits = 0
			e.Description = fmt.Sprintf("runner %d round %d", i, r)
			if err := dbs[i].PutCache(ctx, e); err != nil {
				return err
			}
			if err := dbs[i].TouchCache(ctx, "shared"); err != nil {
				return err
			}
		}
		return nil
	})
	must(t, err)
	var rows, hits int
	must(t, dbs[0].read.QueryRow(`SELECT count(*), coalesce(sum(hits), 0) FROM element_cache WHERE key = 'shared'`).Scan(&rows, &hits))
	if rows != 1 || hits != runners*rounds {
		t.Errorf("%d rows with %d hits, want 1 row with %d hits", rows, hits, runners*rounds)
	}
}

// A heal accepted on a laptop while CI replays the same key and proposes
// the same heal again: it is accepted once, by the laptop, and the
// replays then read the healed trajectory.
func TestRaceHealAcceptedWhileCIReplays(t *testing.T) {
	const ci = 6
	dbs := handles(t, ci+1, mainLineage)
	ctx := context.Background()
	key := session.CacheKey("checkout")
	must(t, dbs[0].PutTrajectory(ctx, &session.Trajectory{Key: key, Goal: "pay", Steps: []string{"old"}}))
	heal := func() *session.Heal {
		return &session.Heal{Key: key, Goal: "pay", OldSteps: []string{"old"}, NewSteps: []string{"new"}, Reason: "the button moved"}
	}
	h := heal()
	must(t, dbs[0].PutHeal(ctx, h))
	err := together(ci+1, func(i int) error {
		if i == ci { // the laptop
			_, err := dbs[i].DecideHeal(ctx, h.ID, true, "laptop-ann")
			return err
		}
		for range 20 {
			if _, err := dbs[i].StagedHeal(ctx, key); err != nil {
				return err
			}
			if _, err := dbs[i].Trajectory(ctx, key); err != nil {
				return err
			}
			if err := dbs[i].TouchTrajectory(ctx, key); err != nil {
				return err
			}
			if err := dbs[i].PutHeal(ctx, heal()); err != nil {
				return err
			}
		}
		return nil
	})
	must(t, err)
	got, err := dbs[0].Heal(ctx, h.ID)
	must(t, err)
	if got.Status != "accepted" || got.DecidedBy != "laptop-ann" {
		t.Errorf("the heal: %s by %q, want accepted by laptop-ann", got.Status, got.DecidedBy)
	}
	var staged int
	must(t, dbs[0].read.QueryRow(`SELECT count(*) FROM heals WHERE key = ? AND status = 'staged'`, string(key)).Scan(&staged))
	if staged > 1 {
		t.Errorf("%d staged heals of one key on one branch", staged)
	}
	tr, err := dbs[0].Trajectory(ctx, key)
	must(t, err)
	if tr == nil || len(tr.Steps) != 1 || tr.Steps[0] != "new" {
		t.Errorf("after the accept the replays read %+v, want the healed steps", tr)
	}
}

// Main, after merging a branch, takes the branch's rows as its own while
// the branch still writes them: every write of both lands, and main never
// reads a row the branch wrote after main's copy as main's.
func TestRaceMainTakesAMergedBranchWhileItWrites(t *testing.T) {
	const keys = 40
	feature := session.Lineage{Branch: "feature", Main: "main", Commit: "f1", Depth: 2, BaseDepth: 1, Version: "v1.0.0"}
	merged := session.Lineage{Branch: "main", Main: "main", Commit: "m2", Depth: 2, BaseDepth: 2, Version: "v1.0.0", Merged: []string{"f1"}}
	target := testTarget(t)
	ctx := context.Background()
	open := func(l session.Lineage) *DB {
		db, err := Open(ctx, target, WithLineage(l))
		must(t, err)
		t.Cleanup(func() { db.Close() })
		return db
	}
	branch, main := open(feature), open(merged)
	for k := range keys {
		put(t, branch, fmt.Sprintf("k%d", k), "feature@0")
	}
	err := together(2, func(i int) error {
		for k := range keys {
			key := fmt.Sprintf("k%d", k)
			if i == 0 { // the branch writes on
				e := sampleEntry(key)
				e.Selectors = []session.Selector{{Kind: "id", Value: "feature@1"}}
				if err := branch.PutCache(ctx, e); err != nil {
					return err
				}
				continue
			}
			e, err := main.Cache(ctx, session.CacheKey(key)) // main reads the merged branch's row…
			if err != nil || e == nil {
				return fmt.Errorf("main reads %s: %v %v", key, e, err)
			}
			e.Selectors = []session.Selector{{Kind: "id", Value: "main@" + e.Selectors[0].Value}}
			if err := main.PutCache(ctx, e); err != nil { // …and writes it as its own
				return err
			}
		}
		return nil
	})
	must(t, err)
	for k := range keys {
		key := fmt.Sprintf("k%d", k)
		if got := read(t, branch, key); got != "feature@1" {
			t.Errorf("%s: the branch reads %q, want its last write", key, got)
		}
		// Main's lookups still read the merged commits' rows first (the
		// lineage rules); its own copy is there beside them.
		var sel string
		must(t, main.read.QueryRow(`SELECT selectors FROM element_cache WHERE key = ? AND branch = 'main'`, key).Scan(&sel))
		if !strings.Contains(sel, `"main@feature@0"`) && !strings.Contains(sel, `"main@feature@1"`) {
			t.Errorf("%s: main's own row holds %s, want its copy of the branch's", key, sel)
		}
	}
	var rows int
	must(t, main.read.QueryRow(`SELECT count(*) FROM element_cache`).Scan(&rows))
	if rows != 2*keys {
		t.Errorf("%d rows, want one per key on each branch (%d)", rows, 2*keys)
	}
}

// Twenty runners opening a new store at once migrate it once.
func TestOpenTogetherMigratesOnce(t *testing.T) {
	target := testTarget(t)
	ctx := context.Background()
	dbs := make([]*DB, 20)
	must(t, together(20, func(i int) error {
		var err error
		dbs[i], err = Open(ctx, target)
		return err
	}))
	for _, db := range dbs {
		defer db.Close()
	}
	ms, err := embeddedMigrations(dbs[0].eng)
	must(t, err)
	var n, distinct int
	must(t, dbs[0].read.QueryRow(`SELECT count(*), count(DISTINCT version) FROM schema_migrations`).Scan(&n, &distinct))
	if n != len(ms) || distinct != len(ms) {
		t.Errorf("schema_migrations has %d rows (%d versions), want %d", n, distinct, len(ms))
	}
}

// A store a newer e2e migrated is refused, on either engine, and left as
// it is.
func TestNewerSchemaRefusedOnEitherEngine(t *testing.T) {
	target := testTarget(t)
	ctx := context.Background()
	db, err := Open(ctx, target)
	must(t, err)
	_, err = db.write.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, '0999_future.sql', 'x')`)
	must(t, err)
	db.Close()
	_, err = Open(ctx, target)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("opening a newer store: %v, want ErrSchemaTooNew", err)
	}
	if se, ok := errors.AsType[*SchemaVersionError](err); !ok || se.Database != 999 {
		t.Errorf("error %v", err)
	}
}

// A server that does not answer is the database failing (exit 5), and its
// password stays out of the message.
func TestUnreachableServerIsAFailure(t *testing.T) {
	_, err := Open(context.Background(), "postgres://e2e:hunter2@127.0.0.1:1/e2e?connect_timeout=2")
	if err == nil || !IsFailure(err) {
		t.Fatalf("open an unreachable server: %v, want a failure", err)
	}
	if strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "xxxxx") {
		t.Errorf("message: %v", err)
	}
}
