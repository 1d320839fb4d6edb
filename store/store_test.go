package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/store/sqlite"
)

// clock is a settable clock for WithClock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// openTest opens a new store file in t.TempDir and closes it at cleanup.
func openTest(t testing.TB, opts ...Option) *DB {
	t.Helper()
	db, err := Open(context.Background(), testTarget(t), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db
}

func TestOpenCreatesParentDirectories(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "c", "e2e.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Path() != path {
		t.Errorf("Path() = %q, want %q", db.Path(), path)
	}
}

func TestOpenOddPath(t *testing.T) {
	// Characters that mean something in a URI must still name the file.
	path := filepath.Join(t.TempDir(), "dir with space?#%", "e2e.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var file string
	if err := db.read.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		t.Fatal(err)
	}
	if file != path {
		t.Errorf("database file = %q, want %q", file, path)
	}
}

func TestOpenEmptyPath(t *testing.T) {
	if _, err := Open(context.Background(), ""); err == nil {
		t.Fatal("Open(\"\") succeeded")
	}
}

func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e2e.db")
	writeFile(t, path, "this is not a SQLite database, just some text that is long enough to look like a header")
	db, err := Open(context.Background(), path)
	if err == nil {
		db.Close()
		t.Fatal("Open of a text file succeeded")
	}
	t.Log(err)
}

func TestPragmas(t *testing.T) {
	sqliteOnly(t)
	db := openTest(t)
	ctx := context.Background()
	for _, c := range []struct {
		pool   string
		pragma string
		want   string
	}{
		{"write", "journal_mode", "wal"},
		{"write", "foreign_keys", "1"},
		{"write", "synchronous", "1"}, // NORMAL
		{"write", "busy_timeout", "10000"},
		{"read", "journal_mode", "wal"},
		{"read", "foreign_keys", "1"},
		{"read", "query_only", "1"},
		{"read", "busy_timeout", "10000"},
	} {
		pool := db.write
		if c.pool == "read" {
			pool = db.read
		}
		var got string
		if err := pool.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatalf("%s PRAGMA %s: %v", c.pool, c.pragma, err)
		}
		if got != c.want {
			t.Errorf("%s PRAGMA %s = %s, want %s", c.pool, c.pragma, got, c.want)
		}
	}
}

func TestReadPoolIsQueryOnly(t *testing.T) {
	db := openTest(t)
	_, err := db.read.Exec(`INSERT INTO runs (started_at) VALUES ('x')`)
	if err == nil {
		t.Fatal("write through the read pool succeeded")
	}
}

func TestWriteTransactionsAreImmediate(t *testing.T) {
	// A second handle must not be able to take the write lock while the
	// first handle's transaction is open, even before it has written.
	path := filepath.Join(t.TempDir(), "e2e.db")
	ctx := context.Background()
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, path, WithBusyTimeout(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tx, err := a.write.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	err = b.StartRun(ctx, &session.Run{Project: "p"})
	if err == nil {
		t.Fatal("a write succeeded while another handle's IMMEDIATE transaction was open")
	}
	if !isBusy(err) {
		t.Fatalf("got %v, want SQLITE_BUSY", err)
	}
}

func TestWithClock(t *testing.T) {
	c := newClock()
	db := openTest(t, WithClock(c.Now))
	ctx := context.Background()
	r := &session.Run{Project: "p"}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	if !r.StartedAt.Equal(c.Now()) || r.Status != "running" {
		t.Errorf("StartRun set StartedAt %v Status %q, want %v running", r.StartedAt, r.Status, c.Now())
	}
	c.Advance(90 * time.Second)
	r.Status = "passed"
	if err := db.FinishRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	runs, err := db.Runs(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := runs[0].FinishedAt.Sub(runs[0].StartedAt); got != 90*time.Second {
		t.Errorf("run lasted %v, want 90s", got)
	}
	var applied string
	if err := db.read.QueryRow(`SELECT applied_at FROM schema_migrations WHERE version = 1`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if want := formatTime(c.Now().Add(-90 * time.Second)); applied != want {
		t.Errorf("migration applied_at = %s, want %s", applied, want)
	}
}

func TestTimeRoundTrip(t *testing.T) {
	in := time.Date(2024, 2, 29, 23, 59, 59, 123456789, time.FixedZone("x", -7*3600))
	out, err := parseTime(formatTime(in))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Equal(in) || out.Location() != time.UTC {
		t.Errorf("round trip %v -> %v", in, out)
	}
	// Stored times sort as strings in time order.
	if a, b := formatTime(in), formatTime(in.Add(time.Nanosecond)); !(a < b) {
		t.Errorf("%s !< %s", a, b)
	}
}

func isBusy(err error) bool { return sqlite.IsBusy(err) }

func errorIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("got error %v, want one wrapping %v", err, target)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
