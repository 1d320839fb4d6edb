package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// damagePage overwrites the first bytes of table's root page in the SQLite
// file at path, as a disk or a stray writer would, leaving its size alone.
func damagePage(t *testing.T, path, table string) {
	t.Helper()
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
}

// TestRunOnADamagedStore: a run that meets a damaged page of its SQLite
// store goes on (the step that met it fails, the reports are written) and
// then exits 5 with what `cache stats` advises, not 1 as for a failed test
// with no word of the store.
func TestRunOnADamagedStore(t *testing.T) {
	t.Parallel()
	dir := project(t, fixtureServer(t), map[string]string{"cart.e2e.yaml": cartTest})
	if code, out, errOut := e2e(t, "run", "--config", dir); code != 0 {
		t.Fatalf("first run: exit %d\n%s%s", code, out, errOut)
	}
	damagePage(t, filepath.Join(dir, ".e2e", "e2e.db"), "element_cache")
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, out, errOut := e2e(t, "run", "--config", dir, "--reporter", "junit="+junit)
	if code != exitStore || !strings.Contains(errOut, "malformed") || !strings.Contains(errOut, ".recover") || !strings.Contains(errOut, "move the file aside") {
		t.Errorf("a run on a damaged store: exit %d, want %d with the advice\n%s%s", code, exitStore, out, errOut)
	}
	if _, err := os.Stat(junit); err != nil {
		t.Errorf("the reports were not written: %v", err)
	}
	code, out, errOut = e2e(t, "cache", "stats", "--config", dir)
	if code != exitStore || !strings.Contains(errOut, ".recover") {
		t.Errorf("cache stats on the same file: exit %d\n%s%s", code, out, errOut)
	}
}
