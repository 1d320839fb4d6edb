package store

import (
	"bytes"
	"database/sql"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/e2e-dev/e2e/store/postgres"
	"github.com/e2e-dev/e2e/store/postgres/pgtest"
)

// The store's tests run twice: on SQLite, and, in a second run of this
// test binary at the same time, on PostgreSQL, against a throwaway cluster
// TestMain starts and removes; the second run's output follows the first's.
// Under -short only SQLite's run is made. A test opens its store with testTarget, which is a new file
// on SQLite and a new database on PostgreSQL; the few tests about SQLite's
// files (damaged files, WAL, busy locks) say so with sqliteOnly.
const (
	engineEnv = "E2E_STORE_TEST_ENGINE" // "postgres" in the second run
	serverEnv = "E2E_STORE_TEST_SERVER" // the cluster's directory, for the second run
	portEnv   = "E2E_STORE_TEST_PORT"   // its port
	hostEnv   = "E2E_STORE_TEST_HOST"   // 127.0.0.1 when it listens on TCP, else ""
)

var (
	testCluster *pgtest.Cluster // the second run's cluster
	testAdmin   *sql.DB         // its postgres database, as the superuser
)

func TestMain(m *testing.M) {
	if os.Getenv(engineEnv) == "postgres" {
		dir := os.Getenv(serverEnv)
		port, _ := strconv.Atoi(os.Getenv(portEnv))
		testCluster = &pgtest.Cluster{Dir: dir, Socket: dir, Port: port, User: "postgres", Host: os.Getenv(hostEnv)}
		conn, err := postgres.Connector(testCluster.URL(""), false)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		testAdmin = sql.OpenDB(conn)
		code := m.Run()
		testAdmin.Close()
		os.Exit(code)
	}
	flag.Parse()
	if os.Getenv(childDBEnv) != "" || testing.Short() {
		// a child writer of TestTwoProcesses (its parent chose the
		// engine), or -short, which leaves PostgreSQL out
		os.Exit(m.Run())
	}
	pg := make(chan pgRun, 1)
	go func() { pg <- runOnPostgres() }()
	code := m.Run()
	r := <-pg
	fmt.Fprintln(os.Stderr, "store: the same suite on PostgreSQL")
	os.Stdout.Write(r.stdout.Bytes())
	os.Stderr.Write(r.stderr.Bytes())
	if r.err != nil {
		fmt.Fprintf(os.Stderr, "store: on PostgreSQL: %v\n", r.err)
		code = max(code, 1)
	}
	os.Exit(code)
}

// pgRun is the second run's output and how it ended.
type pgRun struct {
	stdout, stderr bytes.Buffer
	err            error
}

// runOnPostgres starts a cluster and runs this test binary again, with its
// arguments, on it, then removes the cluster.
func runOnPostgres() (r pgRun) {
	c, err := pgtest.New()
	if err != nil {
		r.err = fmt.Errorf("cannot start PostgreSQL for the suite's second run: %w", err)
		return r
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), engineEnv+"=postgres", serverEnv+"="+c.Dir, portEnv+"="+strconv.Itoa(c.Port), hostEnv+"="+c.Host)
	cmd.Stdout, cmd.Stderr = &r.stdout, &r.stderr
	r.err = cmd.Run()
	if err := c.Stop(); err != nil {
		fmt.Fprintln(&r.stderr, err)
	}
	return r
}

// onPostgres reports whether this run of the suite is PostgreSQL's.
func onPostgres() bool { return testCluster != nil }

// sqliteOnly skips a test about SQLite's files in PostgreSQL's run: the
// first run has it.
func sqliteOnly(t testing.TB) {
	t.Helper()
	if onPostgres() {
		t.Skip("about SQLite's database files; run on SQLite")
	}
}

var dbSeq atomic.Int64

// testTarget returns where a test's new, empty store goes: a file in
// t.TempDir() on SQLite, a new database on PostgreSQL.
func testTarget(t testing.TB) string {
	t.Helper()
	if !onPostgres() {
		return filepath.Join(t.TempDir(), "e2e.db")
	}
	name := strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			return r
		case 'A' <= r && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '_'
	}, t.Name())
	if len(name) > 40 {
		name = name[:40]
	}
	// A schema of its own in one database: CREATE DATABASE takes a second
	// or more on a loaded machine, CREATE SCHEMA a millisecond; the store
	// sees nothing outside its search_path.
	name = fmt.Sprintf("t%d_%s", dbSeq.Add(1), name)
	if _, err := testAdmin.Exec("CREATE SCHEMA " + name); err != nil {
		t.Fatal(err)
	}
	return testCluster.URL("") + "&search_path=" + name
}

func TestRebind(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT 1`:        `SELECT 1`,
		`a = ? AND b = ?`: `a = $1 AND b = $2`,
		`(?1 = '' OR test = ?1) AND (?2 = '' OR b = ?2)`: `($1 = '' OR test = $1) AND ($2 = '' OR b = $2)`,
		`x = '?' AND y = ? -- why?` + "\n" + `AND z = ?`: `x = '?' AND y = $1 -- why?` + "\n" + `AND z = $2`,
		`"we?ird" = ? AND s = 'it''s ?' AND t = ?`:       `"we?ird" = $1 AND s = 'it''s ?' AND t = $2`,
		`unterminated 'abc ?`:                            `unterminated 'abc ?`,
	} {
		if got := rebind(in); got != want {
			t.Errorf("rebind(%q) = %q, want %q", in, got, want)
		}
	}
}

// storedBytes returns what the store holds as bytes, to search for what
// must not be there: the file and its write-ahead log on SQLite, a dump of
// the database (pg_dump, every table's rows) on PostgreSQL.
func storedBytes(t testing.TB, db *DB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	if !onPostgres() {
		for _, suffix := range []string{"", "-wal"} {
			b, err := os.ReadFile(db.Path() + suffix)
			if err != nil {
				t.Fatal(err)
			}
			out["e2e.db"+suffix] = b
		}
		return out
	}
	bin, err := pgtest.BinDir()
	if err != nil {
		t.Fatal(err)
	}
	u, schema, _ := strings.Cut(db.Path(), "&search_path=")
	b, err := exec.Command(filepath.Join(bin, "pg_dump"), "--data-only", "--schema="+schema, "-d", u).CombinedOutput()
	if err != nil {
		t.Fatalf("pg_dump: %v\n%s", err, b)
	}
	if !strings.Contains(string(b), "COPY "+schema+".element_cache") {
		t.Fatalf("pg_dump printed no element_cache rows:\n%s", b)
	}
	out["pg_dump"] = b
	return out
}
