package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/store"
)

// damagedStore makes a store file with cache rows and heals, then
// overwrites the first bytes of table's root page, as a disk or a stray
// writer would, leaving the file's size alone.
func damagedStore(t *testing.T, table string) string {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		e := &session.CacheEntry{Key: session.CacheKey(fmt.Sprintf("key-%03d", i)), Test: "t", Description: strings.Repeat("d", 200)}
		if err := db.PutCache(ctx, e); err != nil {
			t.Fatal(err)
		}
		if err := db.PutHeal(ctx, &session.Heal{Key: e.Key, NewSteps: []string{strings.Repeat("s", 200)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path) // the driver store registers
	if err != nil {
		t.Fatal(err)
	}
	var size, root int64
	err = raw.QueryRow(`PRAGMA page_size`).Scan(&size)
	if err == nil {
		err = raw.QueryRow(`SELECT rootpage FROM sqlite_schema WHERE name = ?`, table).Scan(&root)
	}
	raw.Close()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt([]byte{0x77, 0x77, 0x77, 0x77}, (root-1)*size); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDamagedDatabase: `cache stats` checks the file (quick_check) and a
// damaged page fails it with the store's own exit code and what to do;
// before, stats did not read the damaged table and said nothing. A command
// that meets the damage while reading exits the same way (it exited 2, as
// for a usage error).
func TestDamagedDatabase(t *testing.T) {
	t.Parallel()
	code, out, errOut := e2e(t, "cache", "stats", "--db", damagedStore(t, "heals"))
	if code != exitStore || !strings.Contains(errOut, "is damaged (quick_check:") || !strings.Contains(errOut, ".recover") {
		t.Errorf("stats of a damaged file: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = e2e(t, "cache", "ls", "--db", damagedStore(t, "element_cache"))
	if code != exitStore || !strings.Contains(errOut, "malformed") || !strings.Contains(errOut, "move the file aside") {
		t.Errorf("ls of a damaged table: exit %d\n%s%s", code, out, errOut)
	}
}
