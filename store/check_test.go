package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// filledStore makes a closed store file with cache rows, heals and a run.
func filledStore(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if err := db.PutCache(ctx, sampleEntry(fmt.Sprintf("key-%03d", i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 30 {
		if err := db.PutHeal(ctx, &session.Heal{Key: session.CacheKey(fmt.Sprintf("k%d", i)), NewSteps: []string{strings.Repeat("s", 500)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.StartRun(ctx, &session.Run{Project: "p"}); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatal("the log is still there after Close")
	}
	return path
}

// pageOf returns the page size and the root page of table in the file.
func pageOf(t *testing.T, path, table string) (int, int) {
	t.Helper()
	raw := rawDB(t, path)
	defer raw.Close()
	var size, root int
	if err := raw.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil {
		t.Fatal(err)
	}
	if err := raw.QueryRow(`SELECT rootpage FROM sqlite_schema WHERE name = ?`, table).Scan(&root); err != nil {
		t.Fatal(err)
	}
	return size, root
}

// TestCheckFindsADamagedPage: a page overwritten in the middle of the file
// (its size unchanged) goes unnoticed by opening the store and by the
// statistics, and Check reports it.
func TestCheckFindsADamagedPage(t *testing.T) {
	ctx := context.Background()
	path := filledStore(t)
	size, root := pageOf(t, path, "heals")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0x77, 0x77, 0x77, 0x77}, int64((root-1)*size)); err != nil { // not a b-tree page type
		t.Fatal(err)
	}
	f.Close()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CacheStatistics(ctx, 20); err != nil {
		t.Fatalf("stats read the damaged page: %v", err)
	}
	err = db.Check(ctx)
	ce, ok := errors.AsType[*CorruptError](err)
	if !ok || !errors.Is(err, ErrCorrupt) || len(ce.Problems) == 0 || ce.Path != path || !IsFailure(err) || !IsCorrupt(err) {
		t.Fatalf("Check = %v, want a *CorruptError", err)
	}
	t.Log(err)
}

// TestCheckOfAGoodFile: a sound file checks out.
func TestCheckOfAGoodFile(t *testing.T) {
	db, err := Open(context.Background(), filledStore(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestOpenOfAFileCutShort: SQLite itself refuses, on open, a file shorter
// than its header says (its last page cut off); the error says the file is
// damaged (IsCorrupt) and counts as a database failure (IsFailure), which
// the command line maps to its own exit code and advice.
func TestOpenOfAFileCutShort(t *testing.T) {
	path := filledStore(t)
	size, _ := pageOf(t, path, "heals")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()-int64(size)); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path)
	if err == nil {
		db.Close()
		t.Fatal("Open of a file cut short succeeded")
	}
	if !IsCorrupt(err) || !IsFailure(err) {
		t.Fatalf("Open = %v, want a damaged file", err)
	}
}

// TestCheckOnEveryEngine: Check of a sound store with rows in every table
// passes on both engines (on PostgreSQL it ran SQLite's PRAGMA and failed:
// `e2e cache stats` exited 5).
func TestCheckOnEveryEngine(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, testTarget(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PutCache(ctx, sampleEntry("k1")); err != nil {
		t.Fatal(err)
	}
	if err := writeAll(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatalf("Check of a sound store: %v", err)
	}
	if _, err := db.CacheStatistics(ctx, 20); err != nil {
		t.Fatal(err)
	}
}
