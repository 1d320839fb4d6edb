package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/store"
	"github.com/e2e-dev/e2e/store/postgres/pgtest"
)

// pgProject is project with its store on a new database of a throwaway
// PostgreSQL cluster; it returns the directory and the database's URL.
func pgProject(t *testing.T, c *pgtest.Cluster, name string, tests map[string]string) (string, string) {
	t.Helper()
	url, err := c.CreateDB(name)
	if err != nil {
		t.Fatal(err)
	}
	dir := project(t, fixtureServer(t), tests)
	appendFile(t, filepath.Join(dir, "e2e.yaml"), "db: "+url+"\n")
	return dir, url
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func storeRuns(t *testing.T, url string) int {
	t.Helper()
	db, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, err := db.Runs(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return len(runs)
}

// TestRunOnAPostgresStore: e2e run keeps its results and caches on a
// PostgreSQL server named in e2e.yaml: the second run replays from it; a
// pull request from a fork and a role that may not write read it and write
// nothing, and say so in one line.
func TestRunOnAPostgresStore(t *testing.T) {
	c := pgtest.Start(t)
	dir, url := pgProject(t, c, "shop", map[string]string{"cart.e2e.yaml": cartTest})
	run := func() (int, string) {
		t.Helper()
		code, out, errOut := e2e(t, "run", "--config", dir, "--cache", "read-write")
		return code, out + errOut
	}
	if code, out := run(); code != 0 || !strings.Contains(out, "located") {
		t.Fatalf("first run: exit %d\n%s", code, out)
	}
	if code, out := run(); code != 0 || !strings.Contains(out, " hit ") || strings.Contains(out, "read-only") {
		t.Fatalf("second run does not replay from the server: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e", "e2e.db")); !os.IsNotExist(err) {
		t.Errorf("a SQLite file was made beside a server store (%v)", err)
	}
	if n := storeRuns(t, url); n != 2 {
		t.Fatalf("the server holds %d runs, want 2", n)
	}
	code, out, errOut := e2e(t, "heals", "list", "--db", url)
	if code != 0 || !strings.Contains(out+errOut, "no staged heals") {
		t.Errorf("heals list --db URL: exit %d\n%s%s", code, out, errOut)
	}

	t.Run("fork", func(t *testing.T) {
		t.Setenv("GITHUB_EVENT_NAME", "pull_request")
		t.Setenv("GITHUB_REPOSITORY", "acme/shop")
		t.Setenv("GITHUB_HEAD_REPO", "mallory/shop")
		code, out := run()
		if code != 0 || !strings.Contains(out, " hit ") {
			t.Fatalf("a fork's run reads the store: exit %d\n%s", code, out)
		}
		want := "store: read-only, a pull request from the fork mallory/shop: this run records no results and writes no cache rows or heals\n"
		if strings.Count(out, "read-only") != 1 || !strings.Contains(out, want) {
			t.Errorf("want the one line %q in:\n%s", want, out)
		}
		if n := storeRuns(t, url); n != 2 {
			t.Errorf("a fork's run wrote: %d runs", n)
		}
	})

	t.Run("read-only role", func(t *testing.T) {
		for _, q := range []string{
			"CREATE ROLE e2e_ci_ro LOGIN",
			"GRANT SELECT ON ALL TABLES IN SCHEMA public TO e2e_ci_ro",
		} {
			if err := c.Exec("shop", q); err != nil {
				t.Fatal(err)
			}
		}
		ro := strings.Replace(url, "postgres://postgres@", "postgres://e2e_ci_ro@", 1)
		code, out, errOut := e2e(t, "run", "--config", dir, "--db", ro)
		if code != 0 || !strings.Contains(out, "store: read-only, the database role e2e_ci_ro may not write") {
			t.Fatalf("exit %d\n%s%s", code, out, errOut)
		}
		if n := storeRuns(t, url); n != 2 {
			t.Errorf("a read-only role's run wrote: %d runs", n)
		}
	})

	t.Run("branch not in writeBranches", func(t *testing.T) {
		cfg := filepath.Join(dir, "e2e.yaml")
		orig := readText(t, cfg)
		t.Cleanup(func() { os.WriteFile(cfg, []byte(orig), 0o644) })
		appendFile(t, cfg, "cache: { writeBranches: [main] }\n")
		code, out := run()
		if code != 0 || !strings.Contains(out, "store: read-only, the branch ") || !strings.Contains(out, "is not in cache.writeBranches") {
			t.Fatalf("exit %d\n%s", code, out)
		}
		if n := storeRuns(t, url); n != 2 {
			t.Errorf("wrote: %d runs", n)
		}
	})
}

// TestDatabaseURLIsMasked: a password that comes in through db.urlEnv never
// shows in a message, and one written in e2e.yaml is refused at its line.
func TestDatabaseURLIsMasked(t *testing.T) {
	dir := project(t, fixtureServer(t), map[string]string{"cart.e2e.yaml": cartTest})
	cfg := filepath.Join(dir, "e2e.yaml")
	appendFile(t, cfg, "db:\n  urlEnv: E2E_TEST_DB_URL\n")
	for _, pw := range []string{"hunter2", `hun"ter2 x\y`} { // the second is no URL net/url reads
		t.Setenv("E2E_TEST_DB_URL", "postgres://e2e:"+pw+"@127.0.0.1:1/e2e?connect_timeout=2")
		code, out, errOut := e2e(t, "run", "--config", dir)
		// exit 5 (the server does not answer), or 2 when the URL does not
		// parse (pgx wants a space percent-encoded): masked either way.
		if code != exitStore && code != exitUsage || strings.Contains(out+errOut, "hunter2") || strings.Contains(out+errOut, "ter2 x") ||
			!strings.Contains(out+errOut, "postgres://e2e:xxxxx@127.0.0.1:1/e2e") {
			t.Errorf("an unreachable server: exit %d\n%s%s", code, out, errOut)
		}
	}
	os.WriteFile(cfg, []byte(strings.Replace(readText(t, cfg), "db:\n  urlEnv: E2E_TEST_DB_URL\n", "db: postgres://e2e:hunter2@db.example.com/e2e\n", 1)), 0o644)
	code, out, errOut := e2e(t, "run", "--config", dir)
	if code != exitUsage || strings.Contains(out+errOut, "hunter2") || !strings.Contains(out+errOut, "e2e.yaml:4:5: the database password is read from the environment only") {
		t.Errorf("a password in e2e.yaml: exit %d\n%s%s", code, out, errOut)
	}
}

// TestStoreCopyCommand moves a project from its SQLite file to a server:
// the next run on the server replays from the copied cache, and copying
// again copies nothing twice.
func TestStoreCopyCommand(t *testing.T) {
	t.Parallel()
	c := pgtest.Start(t)
	url, err := c.CreateDB("moved")
	if err != nil {
		t.Fatal(err)
	}
	dir := project(t, fixtureServer(t), map[string]string{"cart.e2e.yaml": cartTest})
	if code, out, errOut := e2e(t, "run", "--config", dir); code != 0 {
		t.Fatalf("run on SQLite: exit %d\n%s%s", code, out, errOut)
	}
	file := filepath.Join(dir, ".e2e", "e2e.db")
	code, out, errOut := e2e(t, "store", "copy", "--from", file, "--to", url)
	if code != 0 || !strings.Contains(out, "copied "+file+" to "+url+": 1 run (1 test, 2 steps), 2 element cache rows") {
		t.Fatalf("store copy: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = e2e(t, "store", "copy", "--from", file, "--to", url)
	if code != 0 || !strings.Contains(out, ": 0 runs (0 tests, 0 steps)") || !strings.Contains(out, "1 already there") {
		t.Fatalf("store copy again: exit %d\n%s%s", code, out, errOut)
	}
	appendFile(t, filepath.Join(dir, "e2e.yaml"), "db: "+url+"\n")
	code, out, errOut = e2e(t, "run", "--config", dir, "--cache", "strict")
	if code != 0 || !strings.Contains(out, " hit ") {
		t.Fatalf("a strict run on the server after the copy: exit %d\n%s%s", code, out, errOut)
	}
	if n := storeRuns(t, url); n != 2 {
		t.Errorf("server holds %d runs, want the copied one and this one", n)
	}
	code, _, errOut = e2e(t, "store", "copy", "--from", filepath.Join(dir, "nope.db"), "--to", url)
	if code != exitUsage || !strings.Contains(errOut, "nope.db") {
		t.Errorf("copy from a missing file: exit %d\n%s", code, errOut)
	}
}

func TestStoreCopyMistakes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"store", "copy", "--from", filepath.Join(dir, "nope.db"), "--to", filepath.Join(dir, "x.db")}, "nope.db: no such file or directory"},
		{[]string{"store", "copy", "--from", filepath.Join(dir, "a.db")}, "give both --from and --to"},
		{[]string{"store", "copy", "--from", "x.db", "--to", "x.db"}, "the same store"},
	} {
		code, _, errOut := e2e(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("e2e %v: exit %d\n%s", c.args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.db")); !os.IsNotExist(err) {
		t.Errorf("a failed copy made the target (%v)", err)
	}
}

// TestEveryDatabaseFormIsAServer: a server named with its scheme in
// another case or as a libpq keyword/value string is reached as a server
// (here one that does not answer: exit 5), never taken for a SQLite path
// that would put the password into directory names; a value that only
// looks like a connection string is refused (exit 2). The password shows
// nowhere.
func TestEveryDatabaseFormIsAServer(t *testing.T) {
	dir := project(t, fixtureServer(t), map[string]string{"cart.e2e.yaml": cartTest})
	appendFile(t, filepath.Join(dir, "e2e.yaml"), "db:\n  urlEnv: E2E_TEST_DB_URL\n")
	t.Chdir(dir) // a value taken for a relative path lands here
	for _, c := range []struct {
		url  string
		code int
	}{
		{"Postgres://e2e:hunter2@127.0.0.1:1/e2e?connect_timeout=2", exitStore},
		{"POSTGRESQL://e2e:hunter2@127.0.0.1:1/e2e?connect_timeout=2", exitStore},
		{"host=127.0.0.1 port=1 user=e2e password=hunter2 connect_timeout=2", exitStore},
		{"host=127.0.0.1 port=1 password='hunter2 x' connect_timeout=2", exitStore},
		{"mysql://e2e:hunter2@127.0.0.1:1/e2e", exitUsage},
		{"Host=127.0.0.1 Password=hunter2", exitUsage},
	} {
		t.Setenv("E2E_TEST_DB_URL", c.url)
		code, out, errOut := e2e(t, "run", "--config", dir)
		if code != c.code || strings.Contains(out+errOut, "hunter2") {
			t.Errorf("%s: exit %d, want %d, no password\n%s%s", c.url, code, c.code, out, errOut)
		}
		for _, args := range [][]string{{"cache", "prune", "--db", c.url}, {"heals", "list", "--db", c.url}} {
			code, out, errOut := e2e(t, args...)
			if code != c.code || strings.Contains(out+errOut, "hunter2") {
				t.Errorf("%s %v: exit %d, want %d, no password\n%s%s", c.url, args, code, c.code, out, errOut)
			}
		}
	}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if strings.Contains(p, "hunter2") || strings.Contains(p, "127.0.0.1") {
			t.Errorf("a connection string became a path: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e", "e2e.db")); !os.IsNotExist(err) {
		t.Errorf("a SQLite store was made for a server (%v)", err)
	}
}
