package store

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// TestRunGroup: the runs of one group come back oldest first with their
// shards and tests; another group's run and a run of no group stay out; an
// unknown or empty group has no runs. On both engines.
func TestRunGroup(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var ids []int64
	for i, r := range []session.Run{
		{Project: "shop", Group: "gh-41", Shard: "1/3", Tests: []string{"b", "a"}},
		{Project: "shop", Group: "other", Shard: "1/1", Tests: []string{"x"}},
		{Project: "shop", Group: "gh-41", Shard: "2/3", Tests: []string{"c"}},
		{Project: "shop", Shard: "", Tests: []string{"a"}},
		{Project: "shop", Group: "gh-41", Shard: "3/3", Tests: []string{"d"}},
	} {
		r.StartedAt, r.Status = start.Add(time.Duration(i)*time.Minute), "passed"
		if err := db.StartRun(ctx, &r); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	runs, err := db.RunGroup(ctx, "gh-41")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, r.Shard+":"+strings.Join(r.Tests, ",")+":"+r.Group)
	}
	want := []string{"1/3:a,b:gh-41", "2/3:c:gh-41", "3/3:d:gh-41"}
	if !reflect.DeepEqual(got, want) || runs[0].ID != ids[0] || runs[2].ID != ids[4] || !runs[1].StartedAt.Equal(start.Add(2*time.Minute)) {
		t.Errorf("group gh-41: %v (%+v)", got, runs)
	}
	for _, g := range []string{"", "gh-4", "nope"} {
		if runs, err := db.RunGroup(ctx, g); err != nil || len(runs) != 0 {
			t.Errorf("group %q: %v %v", g, runs, err)
		}
	}
}

// TestRunGroupOldDatabase: a database from before runs had a group (0018)
// keeps its runs readable after the migration, each in no group, and takes
// grouped runs after it.
func TestRunGroupOldDatabase(t *testing.T) {
	sqliteOnly(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	raw := rawDB(t, path)
	ms, err := embeddedMigrations(sqliteEngine)
	if err != nil {
		t.Fatal(err)
	}
	before := -1
	for i, m := range ms {
		if strings.HasPrefix(m.name, "0019_") {
			before = i
		}
	}
	if before < 0 {
		t.Fatal("no migration 0019")
	}
	if err := migrate(ctx, raw, sqliteEngine, ms[:before], time.Now); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO runs (id, project, started_at, status, shard) VALUES (1, 'shop', '2026-01-01T00:00:00.000000000Z', 'passed', '1/2')`,
		`INSERT INTO run_tests (run_id, name) VALUES (1, 'old')`,
		`INSERT INTO test_results (id, run_id, name, status) VALUES (10, 1, 'old', 'passed')`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sums, err := db.RunSummaries(ctx, 10)
	if err != nil || len(sums) != 1 || sums[0].Shard != "1/2" || sums[0].Tests != 1 {
		t.Fatalf("the old run after the migration: %+v %v", sums, err)
	}
	if runs, err := db.RunGroup(ctx, ""); err != nil || len(runs) != 0 {
		t.Errorf("the old run is in a group: %+v %v", runs, err)
	}
	r := session.Run{Project: "shop", Group: "ci-7", Tests: []string{"new"}}
	if err := db.StartRun(ctx, &r); err != nil {
		t.Fatal(err)
	}
	runs, err := db.RunGroup(ctx, "ci-7")
	if err != nil || len(runs) != 1 || runs[0].ID != r.ID || !reflect.DeepEqual(runs[0].Tests, []string{"new"}) {
		t.Errorf("group ci-7: %+v %v", runs, err)
	}
}

// TestDurationsBefore: the durations a shard splits its suite by leave out
// the results of its own run group, so that a shard that starts after
// another of its group has written results splits as the first did.
func TestDurationsBefore(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	save := func(group, name string, ms int64) {
		t.Helper()
		r := session.Run{Project: "shop", Group: group, Status: "passed"}
		if err := db.StartRun(ctx, &r); err != nil {
			t.Fatal(err)
		}
		if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: name, Status: "passed", DurationMS: ms}); err != nil {
			t.Fatal(err)
		}
	}
	save("", "a", 100)
	save("old", "b", 200)
	save("g", "a", 5000) // a shard of group g ran a
	save("g", "c", 7000)
	got, err := db.DurationsBefore(ctx, "g")
	want := map[string]time.Duration{"a": 100 * time.Millisecond, "b": 200 * time.Millisecond}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("DurationsBefore(g) = %v, %v; want %v", got, err, want)
	}
	got, err = db.DurationsBefore(ctx, "")
	want = map[string]time.Duration{"a": 5 * time.Second, "b": 200 * time.Millisecond, "c": 7 * time.Second}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("DurationsBefore(\"\") = %v, %v; want %v", got, err, want)
	}
}
