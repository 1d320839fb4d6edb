package store

import (
	"context"
	"database/sql"
	"github.com/e2e-dev/e2e/store/sqlite"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestEmbeddedMigrationsLoad(t *testing.T) {
	ms, err := embeddedMigrations(sqliteEngine)
	if err != nil {
		t.Fatal(err)
	}
	if ms[0].name != "0001_init.sql" {
		t.Errorf("first migration %s, want 0001_init.sql", ms[0].name)
	}
}

func TestLoadMigrationsRejectsBadSets(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"empty":     {},
		"bad name":  {"0001-init.sql": {Data: []byte("")}},
		"no words":  {"0001_.sql": {Data: []byte("")}},
		"uppercase": {"0001_Init.sql": {Data: []byte("")}},
		"gap":       {"0001_a.sql": {Data: []byte("")}, "0003_c.sql": {Data: []byte("")}},
		"duplicate": {"0001_a.sql": {Data: []byte("")}, "0001_b.sql": {Data: []byte("")}},
		"from zero": {"0000_a.sql": {Data: []byte("")}},
	} {
		if ms, err := loadMigrations(fsys); err == nil {
			t.Errorf("%s: loaded %d migrations, want an error", name, len(ms))
		}
	}
}

func TestMigrationsIdempotent(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	c := newClock()
	for i := range 3 {
		db, err := Open(ctx, path, WithClock(c.Now))
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		c.Advance(time.Hour)
		got := appliedMigrations(t, db.read)
		ms, _ := embeddedMigrations(sqliteEngine)
		if len(got) != len(ms) {
			t.Errorf("open %d: %d migrations recorded, want %d", i, len(got), len(ms))
		}
		for _, m := range got {
			if m.appliedAt != formatTime(newClock().Now()) {
				t.Errorf("open %d: migration %d re-applied at %s", i, m.version, m.appliedAt)
			}
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

type appliedMigration struct {
	version   int
	name      string
	appliedAt string
}

func appliedMigrations(t *testing.T, db *sql.DB) []appliedMigration {
	t.Helper()
	rows, err := db.Query(`SELECT version, name, applied_at FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []appliedMigration
	for rows.Next() {
		var m appliedMigration
		if err := rows.Scan(&m.version, &m.name, &m.appliedAt); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// rawDB opens path with the writer's settings but without migrating.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db := sql.OpenDB(sqlite.Connector(path, time.Second, false))
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

func TestMigrateAppliesOnlyNewOnes(t *testing.T) {
	ctx := context.Background()
	db := rawDB(t, filepath.Join(t.TempDir(), "e2e.db"))
	v1 := fstest.MapFS{"0001_a.sql": {Data: []byte(`CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1);`)}}
	v2 := fstest.MapFS{
		"0001_a.sql": v1["0001_a.sql"],
		"0002_b.sql": {Data: []byte(`CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (2);`)},
	}
	c := newClock()
	for i, fsys := range []fstest.MapFS{v1, v1, v2, v2} {
		ms, err := loadMigrations(fsys)
		if err != nil {
			t.Fatal(err)
		}
		if err := migrate(ctx, db, sqliteEngine, ms, c.Now); err != nil {
			t.Fatalf("migrate %d: %v", i, err)
		}
		c.Advance(time.Minute)
	}
	// 0001 ran once (one row in a from it), 0002 ran once.
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM a`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("a has %d rows, want 2 (each migration applied once)", n)
	}
	got := appliedMigrations(t, db)
	if len(got) != 2 || got[0].name != "0001_a.sql" || got[1].name != "0002_b.sql" {
		t.Fatalf("recorded %+v", got)
	}
	if got[1].appliedAt != formatTime(newClock().Now().Add(2*time.Minute)) {
		t.Errorf("0002 applied at %s, want on the third migrate", got[1].appliedAt)
	}
}

func TestFailedMigrationRollsBack(t *testing.T) {
	ctx := context.Background()
	db := rawDB(t, filepath.Join(t.TempDir(), "e2e.db"))
	ms, err := loadMigrations(fstest.MapFS{
		"0001_a.sql": {Data: []byte(`CREATE TABLE a (x INTEGER);`)},
		"0002_b.sql": {Data: []byte(`CREATE TABLE b (y INTEGER); INSERT INTO nowhere VALUES (1);`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	err = migrate(ctx, db, sqliteEngine, ms, time.Now)
	if err == nil || !strings.Contains(err.Error(), "0002_b.sql") {
		t.Fatalf("got %v, want an error naming 0002_b.sql", err)
	}
	if got := appliedMigrations(t, db); len(got) != 1 {
		t.Errorf("recorded %+v, want only 0001", got)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'b'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Error("table b of the failed migration exists")
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.write.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', 'x')`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	db, err = Open(ctx, path)
	if err == nil {
		db.Close()
		t.Fatal("Open of a database from a newer e2e succeeded")
	}
	errorIs(t, err, ErrSchemaTooNew)
	se, ok := err.(*SchemaVersionError)
	if !ok {
		t.Fatalf("got %T, want *SchemaVersionError", err)
	}
	ms, _ := embeddedMigrations(sqliteEngine)
	if se.Database != 9999 || se.Binary != len(ms) || se.Path != path {
		t.Errorf("got %+v", se)
	}
	for _, want := range []string{path, "9999", "upgrade e2e"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	t.Log(err)

	// The file was not touched: the future row is still the newest.
	raw := rawDB(t, path)
	if got := appliedMigrations(t, raw); got[len(got)-1].version != 9999 || len(got) != len(ms)+1 {
		t.Errorf("schema_migrations now %+v", got)
	}
}
