package store

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestOpenRefusesWhatLooksLikeAConnectionString: a path that is no form
// the driver reads but looks like a connection string is refused without
// quoting it, and nothing is made on disk (its password would have become
// directory names).
func TestOpenRefusesWhatLooksLikeAConnectionString(t *testing.T) {
	sqliteOnly(t)
	dir := t.TempDir()
	t.Chdir(dir)
	for _, target := range []string{
		"mysql://e2e:hunter2@db/e2e",
		"Postgres:/e2e:hunter2@db/e2e",
		"Host=db Password=hunter2",
		"host=db password='hunter2",
		"e2e.db password=hunter2",
	} {
		db, err := Open(context.Background(), target)
		if err == nil {
			db.Close()
			t.Errorf("Open(%q) opened a store", target)
			continue
		}
		if !errors.Is(err, ErrConnString) || strings.Contains(err.Error(), "hunter2") || IsFailure(err) {
			t.Errorf("Open(%q): %v; want ErrConnString, no password, not a store failure", target, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		t.Errorf("refused targets made %v on disk", ents)
	}
}

// TestOpenEveryFormOfAServer: the scheme in any case and libpq's
// keyword/value strings reach the server.
func TestOpenEveryFormOfAServer(t *testing.T) {
	t.Chdir(t.TempDir()) // a form taken for a path would make files here
	if !onPostgres() {
		t.Skip("about PostgreSQL's connection strings")
	}
	ctx := context.Background()
	target := testTarget(t)
	db, err := Open(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutCache(ctx, sampleEntry("k1")); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, schema, _ := strings.Cut(target, "&search_path=")
	for _, form := range []string{
		strings.Replace(target, "postgres://", "Postgres://", 1),
		strings.Replace(target, "postgres://", "POSTGRESQL://", 1),
		testCluster.DSN("") + " search_path=" + schema,
	} {
		db, err := Open(ctx, form)
		if err != nil {
			t.Errorf("Open(%q): %v", form, err)
			continue
		}
		if e, err := db.Cache(ctx, "k1"); err != nil || e == nil {
			t.Errorf("Open(%q) reads another store: %v %v", form, e, err)
		}
		db.Close()
	}
}
