package store

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// Environment of a child writer process (see TestChildWriter).
const (
	childDBEnv = "E2E_STORE_CHILD_DB"
	childIDEnv = "E2E_STORE_CHILD_ID"
)

const childIterations = 200

// writeIteration is what each concurrent writer does once: a run with one
// test of three steps, an upsert of a cache key it shares with the other
// writers, an upsert of its own key, a touch of its own counter, and
// finishing the run.
func writeIteration(ctx context.Context, db *DB, writer string, i int) error {
	r := &session.Run{Project: "shop", Branch: writer, Version: "test"}
	if err := db.StartRun(ctx, r); err != nil {
		return err
	}
	tr := &session.TestResult{RunID: r.ID, Name: fmt.Sprintf("%s-test-%d", writer, i), Status: "passed",
		DurationMS: int64(i), Steps: sampleSteps()[:3]}
	if err := db.SaveTest(ctx, tr); err != nil {
		return err
	}
	shared := sampleEntry(fmt.Sprintf("shared-%d", i%50))
	shared.Description = fmt.Sprintf("written by %s in iteration %d", writer, i)
	if err := db.PutCache(ctx, shared); err != nil {
		return err
	}
	own := sampleEntry(fmt.Sprintf("%s-%d", writer, i))
	if err := db.PutCache(ctx, own); err != nil {
		return err
	}
	if _, err := db.Cache(ctx, shared.Key); err != nil {
		return err
	}
	if err := db.TouchCache(ctx, session.CacheKey("counter-"+writer)); err != nil {
		return err
	}
	r.Status = "passed"
	return db.FinishRun(ctx, r)
}

// TestChildWriter is the body of a child process started by
// TestTwoProcesses; run directly it skips. It waits for a byte on stdin so
// that both children open the database and start writing at the same time.
func TestChildWriter(t *testing.T) {
	path := os.Getenv(childDBEnv)
	if path == "" {
		t.Skip("only runs as a child of TestTwoProcesses")
	}
	writer := "child" + os.Getenv(childIDEnv)
	if _, err := io.ReadFull(os.Stdin, make([]byte, 1)); err != nil {
		t.Fatalf("wait for start: %v", err)
	}
	ctx := context.Background()
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PutCache(ctx, &session.CacheEntry{Key: session.CacheKey("counter-" + writer)}); err != nil {
		t.Fatal(err)
	}
	for i := range childIterations {
		if err := writeIteration(ctx, db, writer, i); err != nil {
			t.Fatalf("%s iteration %d: %v", writer, i, err)
		}
	}
}

// TestTwoProcesses runs two copies of this test binary that open the same
// new file at once (racing on the migrations) and each write 200 runs,
// tests and cache upserts. Both must succeed: no SQLITE_BUSY, no lost row.
func TestTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two processes")
	}
	path := testTarget(t)
	const children = 2
	type child struct {
		cmd   *exec.Cmd
		start io.WriteCloser
		out   bytes.Buffer
	}
	var cs []*child
	for i := range children {
		c := &child{cmd: exec.Command(os.Args[0], "-test.run=^TestChildWriter$", "-test.count=1", "-test.v")}
		c.cmd.Env = append(os.Environ(), childDBEnv+"="+path, childIDEnv+"="+strconv.Itoa(i))
		c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.out
		var err error
		if c.start, err = c.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := c.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	for _, c := range cs {
		if _, err := c.start.Write([]byte{1}); err != nil {
			t.Fatal(err)
		}
		c.start.Close()
	}
	for i, c := range cs {
		err := c.cmd.Wait()
		out := c.out.String()
		if err != nil || !strings.Contains(out, "--- PASS: TestChildWriter") {
			t.Errorf("child %d: %v\n%s", i, err, out)
		}
		for _, bad := range []string{"SQLITE_BUSY", "database is locked"} {
			if strings.Contains(out, bad) {
				t.Errorf("child %d reported %s", i, bad)
			}
		}
	}
	if t.Failed() {
		return
	}

	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	checkWrites(t, db, []string{"child0", "child1"}, childIterations)
}

// checkWrites checks that every writer's writeIteration calls all landed.
func checkWrites(t *testing.T, db *DB, writers []string, iterations int) {
	t.Helper()
	ctx := context.Background()
	n := len(writers) * iterations
	steps := len(sampleSteps()[:3])
	migrations, err := embeddedMigrations(db.eng)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		query string
		want  int
	}{
		{`SELECT count(*) FROM runs`, n},
		{`SELECT count(DISTINCT id) FROM runs WHERE status = 'passed' AND finished_at IS NOT NULL`, n},
		{`SELECT count(*) FROM test_results`, n},
		{`SELECT count(*) FROM step_results`, n * steps},
		{`SELECT count(*) FROM schema_migrations`, len(migrations)},
		{`SELECT count(*) FROM element_cache WHERE key LIKE 'shared-%'`, min(50, iterations)},
		{`SELECT count(*) FROM element_cache WHERE key NOT LIKE 'shared-%' AND key NOT LIKE 'counter-%'`, n},
		{`SELECT count(*) FROM test_results t
		  WHERE (SELECT count(*) FROM step_results s WHERE s.test_id = t.id) != ` + strconv.Itoa(steps), 0},
	} {
		var got int
		if err := db.read.QueryRowContext(ctx, c.query).Scan(&got); err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		if got != c.want {
			t.Errorf("%s = %d, want %d", c.query, got, c.want)
		}
	}
	for _, w := range writers {
		e, err := db.Cache(ctx, session.CacheKey("counter-"+w))
		if err != nil {
			t.Fatal(err)
		}
		if e == nil || e.Hits != iterations {
			t.Errorf("counter-%s = %+v, want %d hits", w, e, iterations)
		}
	}
	durations, err := db.LatestTestDurations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(durations) != n {
		t.Errorf("%d test durations, want %d", len(durations), n)
	}
}

// TestGoroutines writes from many goroutines through two handles on one
// file (two pools, as two processes would have) while others read.
func TestGoroutines(t *testing.T) {
	ctx := context.Background()
	path := testTarget(t)
	var handles []*DB
	for range 2 {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		handles = append(handles, db)
	}
	const (
		writersPerHandle = 4
		iterations       = 50
	)
	var writers []string
	for h := range handles {
		for w := range writersPerHandle {
			name := fmt.Sprintf("h%dw%d", h, w)
			writers = append(writers, name)
			if err := handles[h].PutCache(ctx, &session.CacheEntry{Key: session.CacheKey("counter-" + name)}); err != nil {
				t.Fatal(err)
			}
		}
	}

	done := make(chan struct{})
	var readers sync.WaitGroup
	readErrs := make(chan error, 2)
	for _, db := range handles {
		readers.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				runs, err := db.Runs(ctx, 5)
				if err == nil && len(runs) > 0 {
					_, err = db.Tests(ctx, runs[0].ID)
				}
				if err != nil {
					readErrs <- err
					return
				}
			}
		})
	}

	var wg sync.WaitGroup
	errs := make(chan error, len(writers))
	for i, name := range writers {
		db := handles[i/writersPerHandle]
		wg.Go(func() {
			for j := range iterations {
				if err := writeIteration(ctx, db, name, j); err != nil {
					errs <- fmt.Errorf("%s iteration %d: %w", name, j, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(done)
	readers.Wait()
	close(errs)
	close(readErrs)
	for err := range errs {
		t.Error(err)
	}
	for err := range readErrs {
		t.Errorf("reader: %v", err)
	}
	if t.Failed() {
		return
	}
	checkWrites(t, handles[0], writers, iterations)
}

// BenchmarkWriters8 has eight writers, each with its own store handle (as
// eight processes would), do writeIteration at once: a run, a test of three
// steps, two cache upserts (one key shared by all), a lookup, a touch and
// the run's finish. It reports the iterations all eight complete per second
// (six writes each) as iterations/s.
func BenchmarkWriters8(b *testing.B) {
	ctx := context.Background()
	target := testTarget(b)
	const writers = 8
	var dbs []*DB
	for range writers {
		db, err := Open(ctx, target)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		dbs = append(dbs, db)
	}
	for w, db := range dbs {
		if err := db.PutCache(ctx, &session.CacheEntry{Key: session.CacheKey(fmt.Sprintf("counter-w%d", w))}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1))
				if i > b.N {
					return
				}
				if err := writeIteration(ctx, db, fmt.Sprintf("w%d", w), i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "iterations/s")
}
