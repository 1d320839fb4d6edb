package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

func sampleEntry(key string) *session.CacheEntry {
	return &session.CacheEntry{
		Key:         session.CacheKey(key),
		Project:     "shop",
		Test:        "login",
		Description: `the menu button in the "Alice" row`,
		Selectors: []session.Selector{
			{Kind: "testid", Value: `[data-testid="row-menu"]`},
			{Kind: "aria", Value: `button[aria-label="Menu"]`},
			{Kind: "structural", Value: `main > table > tbody > tr:nth-child(1) > td:nth-child(3) > button`},
		},
		Node: session.NodeSnapshot{
			Tag: "button", Role: "button", Name: "Menu", Text: "⋯ Menu",
			Attrs: map[string]string{"aria-label": "Menu", "data-testid": "row-menu"},
			Box:   [4]float64{412.5, 96, 32, 24.25},
			Color: "rgb(37, 99, 235)",
		},
		Intent: session.Intent{
			Attributes: map[string]string{"role": "button", "color": "blue"},
			Related: []session.Relation{
				{Relation: "in", Role: "row", Name: "Alice"},
				{Relation: "nth", Name: "1"},
			},
		},
		CreatedAt: time.Date(2025, 5, 6, 7, 8, 9, 10, time.UTC),
		UsedAt:    time.Date(2025, 5, 7, 7, 8, 9, 10, time.UTC),
		Hits:      3,
	}
}

func TestCacheRoundTrip(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	for _, e := range []*session.CacheEntry{
		sampleEntry("db9a01"),
		{Key: "minimal", CreatedAt: time.Unix(1, 0).UTC(), UsedAt: time.Unix(2, 0).UTC()}, // nil slices and maps stay nil
		{Key: "empty", Selectors: []session.Selector{}, Node: session.NodeSnapshot{Attrs: map[string]string{}},
			Intent:    session.Intent{Attributes: map[string]string{}, Related: []session.Relation{}},
			CreatedAt: time.Unix(1, 0).UTC(), UsedAt: time.Unix(2, 0).UTC()},
	} {
		if err := db.PutCache(ctx, e); err != nil {
			t.Fatal(err)
		}
		got, err := db.Cache(ctx, e.Key)
		if err != nil {
			t.Fatal(err)
		}
		want := *e
		if e.Key == "empty" { // omitempty fields come back nil
			want.Node.Attrs, want.Intent.Attributes, want.Intent.Related = nil, nil, nil
		}
		if !reflect.DeepEqual(got, &want) {
			t.Errorf("Cache(%s):\n got %+v\nwant %+v", e.Key, got, &want)
		}
	}
}

func TestCacheAbsent(t *testing.T) {
	db := openTest(t)
	e, err := db.Cache(context.Background(), "nope")
	if e != nil || err != nil {
		t.Errorf("Cache(absent) = %v, %v; want nil, nil", e, err)
	}
}

func TestPutCacheReplaces(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	first := sampleEntry("k")
	if err := db.PutCache(ctx, first); err != nil {
		t.Fatal(err)
	}
	second := sampleEntry("k")
	second.Description = "the Sign in button"
	second.Selectors = second.Selectors[:1]
	second.Node.Color = ""
	second.Intent = session.Intent{}
	second.CreatedAt = first.CreatedAt.Add(time.Hour)
	second.UsedAt = second.CreatedAt
	second.Hits = 0
	if err := db.PutCache(ctx, second); err != nil {
		t.Fatal(err)
	}
	if second.Hits != first.Hits {
		t.Errorf("hits %d after a replace with 0, want the row's %d kept", second.Hits, first.Hits)
	}
	got, err := db.Cache(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, second) {
		t.Errorf("after replace:\n got %+v\nwant %+v", got, second)
	}
	var n int
	if err := db.read.QueryRow(`SELECT count(*) FROM element_cache`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d rows, want 1", n)
	}
}

func TestPutCacheDefaultsTimes(t *testing.T) {
	c := newClock()
	db := openTest(t, WithClock(c.Now))
	e := &session.CacheEntry{Key: "k"}
	if err := db.PutCache(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	if !e.CreatedAt.Equal(c.Now()) || !e.UsedAt.Equal(c.Now()) {
		t.Errorf("CreatedAt %v UsedAt %v, want both %v", e.CreatedAt, e.UsedAt, c.Now())
	}
}

func TestPutCacheEmptyKey(t *testing.T) {
	db := openTest(t)
	if err := db.PutCache(context.Background(), &session.CacheEntry{}); err == nil {
		t.Error("PutCache with an empty key succeeded")
	}
}

func TestTouchCache(t *testing.T) {
	c := newClock()
	db := openTest(t, WithClock(c.Now))
	ctx := context.Background()
	e := sampleEntry("k")
	if err := db.PutCache(ctx, e); err != nil {
		t.Fatal(err)
	}
	c.Advance(time.Hour)
	for range 2 {
		if err := db.TouchCache(ctx, "k"); err != nil {
			t.Fatal(err)
		}
	}
	got, err := db.Cache(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if got.Hits != e.Hits+2 || !got.UsedAt.Equal(c.Now()) || !got.CreatedAt.Equal(e.CreatedAt) {
		t.Errorf("after two touches: hits %d used %v created %v; want %d %v %v",
			got.Hits, got.UsedAt, got.CreatedAt, e.Hits+2, c.Now(), e.CreatedAt)
	}
	errorIs(t, db.TouchCache(ctx, "absent"), ErrNotFound)
}

// TestHitsCountedUnderParallelWriters: runs in parallel, each with its own
// connection to the file, count hits (TouchCache) on a row while others
// write it again (PutCache of a re-located or adopted entry, carrying an
// older count): every hit is kept. PutCache used to set hits to the count
// it carried, and lost the hits counted since it was read.
func TestHitsCountedUnderParallelWriters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	const writers, touches = 4, 50
	dbs := make([]*DB, writers)
	for i := range dbs {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		dbs[i] = db
	}
	e := sampleEntry("k")
	e.Hits = 0
	if err := dbs[0].PutCache(ctx, e); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*writers)
	for i, db := range dbs {
		wg.Go(func() {
			for range touches {
				if err := db.TouchCache(ctx, "k"); err != nil {
					errs <- err
					return
				}
			}
		})
		wg.Go(func() {
			for range touches {
				stale := sampleEntry("k")
				stale.Hits = 0 // a re-located element, or a count read before the touches
				stale.Description = fmt.Sprintf("written by %d", i)
				if err := db.PutCache(ctx, stale); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got, err := dbs[0].Cache(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if got.Hits != writers*touches {
		t.Errorf("hits = %d, want %d: hits were lost", got.Hits, writers*touches)
	}
}

// TestUnreadableRows: a row whose JSON columns are of the wrong shape is
// reported as session.ErrUnreadableRow, for the runner to count a miss.
func TestUnreadableRows(t *testing.T) {
	ctx := context.Background()
	db := openTest(t)
	if err := db.PutCache(ctx, sampleEntry("k")); err != nil {
		t.Fatal(err)
	}
	if err := db.PutTrajectory(ctx, &session.Trajectory{Key: "t", Steps: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`UPDATE element_cache SET selectors = '"notalist"'`, `UPDATE trajectories SET steps = '{"a":1}'`} {
		if _, err := db.write.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Cache(ctx, "k"); !errors.Is(err, session.ErrUnreadableRow) {
		t.Errorf("Cache = %v, want ErrUnreadableRow", err)
	}
	if _, err := db.Trajectory(ctx, "t"); !errors.Is(err, session.ErrUnreadableRow) {
		t.Errorf("Trajectory = %v, want ErrUnreadableRow", err)
	}
}
