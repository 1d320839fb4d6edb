package store

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

func sampleSteps() []session.StepResult {
	return []session.StepResult{
		{Index: 0, Line: 3, Command: `--step-type NAVIGATE --value "/login"`, Kind: "NAVIGATE",
			Status: session.StatusPassed, Cache: "none", DurationMS: 120},
		{Index: 1, Line: 4, Command: `--step-type CLICK --description "the Sign in button"`, Kind: "CLICK",
			Status: session.StatusHit, Cache: "hit", DurationMS: 35},
		{Index: 2, Line: 5, Command: `--step-type TYPE --description "the email field" --value "${EMAIL}"`, Kind: "TYPE",
			Status: session.StatusRelocated, Cache: "miss", MissReason: "attribute-changed", DurationMS: 2400, LLMCalls: 1},
		{Index: 3, Line: 6, Command: `--step-type CLICK --description "the blue Submit button"`, Kind: "CLICK",
			Status: session.StatusLocated, Cache: "miss", MissReason: "no-match", DurationMS: 1800, LLMCalls: 2},
		{Index: 4, Line: 7, Command: `--step-type ASSERT --description "the dashboard greets Alice"`, Kind: "ASSERT",
			Status: session.StatusFailed, Cache: "none", Error: "assertion failed: no greeting\nsecond line ✗",
			Screenshot: "/tmp/shots/login-4.png", DurationMS: 900, LLMCalls: 1},
		{Index: 5, Line: 8, Command: `--step-type CLICK --description "Log out"`, Kind: "CLICK",
			Status: session.StatusSkipped, Cache: "none"},
	}
}

func TestRunRoundTrip(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	start := time.Date(2025, 1, 2, 3, 4, 5, 6, time.UTC)
	r := &session.Run{Project: "shop", StartedAt: start, Status: "running",
		Branch: "feature/x", Commit: "0123abcd", Version: "v0.1.0"}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	if r.ID == 0 {
		t.Fatal("StartRun left ID 0")
	}
	runs, err := db.Runs(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || !runs[0].FinishedAt.IsZero() {
		t.Fatalf("Runs = %+v, want one unfinished run", runs)
	}
	r.Status = "failed"
	r.FinishedAt = start.Add(42*time.Second + 7)
	if err := db.FinishRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	runs, err = db.Runs(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := runs[0]
	if !got.StartedAt.Equal(r.StartedAt) || !got.FinishedAt.Equal(r.FinishedAt) {
		t.Errorf("times %v %v, want %v %v", got.StartedAt, got.FinishedAt, r.StartedAt, r.FinishedAt)
	}
	got.StartedAt, got.FinishedAt = r.StartedAt, r.FinishedAt
	if !reflect.DeepEqual(got, *r) {
		t.Errorf("Runs()[0] = %+v, want %+v", got, *r)
	}
}

func TestFinishUnknownRun(t *testing.T) {
	db := openTest(t)
	errorIs(t, db.FinishRun(context.Background(), &session.Run{ID: 99, Status: "passed"}), ErrNotFound)
}

func TestRunsNewestFirstWithLimit(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	for i := range 5 {
		if err := db.StartRun(ctx, &session.Run{Project: "p", Version: string(rune('a' + i))}); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := db.Runs(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for _, r := range runs {
		versions = append(versions, r.Version)
	}
	if strings.Join(versions, "") != "edc" {
		t.Errorf("Runs(3) versions %v, want e d c", versions)
	}
	all, err := db.Runs(ctx, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 5 {
		t.Errorf("Runs(-1) returned %d runs, want 5", len(all))
	}
}

func TestTestRoundTrip(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	r := &session.Run{Project: "shop"}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	tests := []*session.TestResult{
		{RunID: r.ID, Name: "login", File: "tests/login.e2e", Status: "failed",
			Error: "step 4: assertion failed", DurationMS: 5255, Attempts: 3, Steps: sampleSteps()},
		{RunID: r.ID, Name: "search flights", File: "tests/flights.e2e", Status: "passed", DurationMS: 10, Attempts: 2},
		{RunID: r.ID, Name: "cart", File: "tests/cart.e2e", Status: "passed", DurationMS: 77, Attempts: 1,
			Steps: sampleSteps()[:2]},
	}
	for _, tr := range tests {
		if err := db.SaveTest(ctx, tr); err != nil {
			t.Fatal(err)
		}
		if tr.ID == 0 {
			t.Fatal("SaveTest left ID 0")
		}
	}
	// Another run's tests must not show up.
	other := &session.Run{Project: "shop"}
	if err := db.StartRun(ctx, other); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveTest(ctx, &session.TestResult{RunID: other.ID, Name: "login", Status: "passed", Steps: sampleSteps()}); err != nil {
		t.Fatal(err)
	}

	got, err := db.Tests(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	var want []session.TestResult
	for _, tr := range tests {
		want = append(want, *tr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tests:\n got %+v\nwant %+v", got, want)
	}

	none, err := db.Tests(ctx, 12345)
	if err != nil || len(none) != 0 {
		t.Errorf("Tests(unknown) = %v, %v; want empty, nil", none, err)
	}
}

func TestSaveTestEmptyCacheIsNone(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	r := &session.Run{}
	if err := db.StartRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	tr := &session.TestResult{RunID: r.ID, Name: "t", Status: "passed",
		Steps: []session.StepResult{{Index: 0, Kind: "WAIT", Status: session.StatusPassed}}}
	if err := db.SaveTest(ctx, tr); err != nil {
		t.Fatal(err)
	}
	got, err := db.Tests(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if c := got[0].Steps[0].Cache; c != "none" {
		t.Errorf("empty Cache stored as %q, want none", c)
	}
}

func TestSaveTestUnknownRun(t *testing.T) {
	db := openTest(t)
	tr := &session.TestResult{RunID: 404, Name: "orphan", Status: "passed", Steps: sampleSteps()}
	errorIs(t, db.SaveTest(context.Background(), tr), ErrNotFound)
	if tr.ID != 0 {
		t.Errorf("ID set to %d on failure", tr.ID)
	}
	assertNoTestRows(t, db)
}

// TestSaveTestAtomic makes the second (or a later) step fail and checks that
// nothing of the test was written.
func TestSaveTestAtomic(t *testing.T) {
	for name, breakSteps := range map[string]func([]session.StepResult) []session.StepResult{
		"duplicate index": func(s []session.StepResult) []session.StepResult {
			s[1].Index = s[0].Index
			return s
		},
		"invalid status": func(s []session.StepResult) []session.StepResult {
			s[1].Status = "sort of"
			return s
		},
		"invalid cache": func(s []session.StepResult) []session.StepResult {
			s[1].Cache = "maybe"
			return s
		},
		"last step": func(s []session.StepResult) []session.StepResult {
			s[len(s)-1].Status = ""
			return s
		},
	} {
		t.Run(name, func(t *testing.T) {
			db := openTest(t)
			ctx := context.Background()
			r := &session.Run{Project: "p"}
			if err := db.StartRun(ctx, r); err != nil {
				t.Fatal(err)
			}
			tr := &session.TestResult{RunID: r.ID, Name: "login", Status: "passed",
				Steps: breakSteps(sampleSteps())}
			err := db.SaveTest(ctx, tr)
			if err == nil {
				t.Fatal("SaveTest succeeded")
			}
			if !strings.Contains(err.Error(), `save test "login": insert step`) {
				t.Errorf("error %q does not say which step failed", err)
			}
			if tr.ID != 0 {
				t.Errorf("ID set to %d on failure", tr.ID)
			}
			assertNoTestRows(t, db)
			// The store still works afterwards.
			tr = &session.TestResult{RunID: r.ID, Name: "login", Status: "passed", Steps: sampleSteps()}
			if err := db.SaveTest(ctx, tr); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestSaveTestCancelledContext(t *testing.T) {
	db := openTest(t)
	r := &session.Run{Project: "p"}
	if err := db.StartRun(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tr := &session.TestResult{RunID: r.ID, Name: "login", Status: "passed", Steps: sampleSteps()}
	errorIs(t, db.SaveTest(ctx, tr), context.Canceled)
	assertNoTestRows(t, db)
}

func assertNoTestRows(t *testing.T, db *DB) {
	t.Helper()
	for _, table := range []string{"test_results", "step_results"} {
		var n int
		if err := db.read.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%s has %d rows after a failed SaveTest", table, n)
		}
	}
}

func TestLatestTestDurations(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	durations := []map[string]int64{
		{"login": 1000, "search": 5000, "cart": 300},
		{"login": 1500, "search": 4000},
		{"login": 900},
	}
	for _, run := range durations {
		r := &session.Run{Project: "p"}
		if err := db.StartRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		for name, ms := range run {
			if err := db.SaveTest(ctx, &session.TestResult{RunID: r.ID, Name: name, Status: "passed", DurationMS: ms}); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := db.LatestTestDurations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Duration{"login": 900 * time.Millisecond, "search": 4 * time.Second, "cart": 300 * time.Millisecond}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LatestTestDurations = %v, want %v", got, want)
	}
}

func TestLatestTestDurationsEmpty(t *testing.T) {
	db := openTest(t)
	got, err := db.LatestTestDurations(context.Background())
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("LatestTestDurations = %v, %v; want an empty map", got, err)
	}
}

func TestNilRecords(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	for name, err := range map[string]error{
		"StartRun":  db.StartRun(ctx, nil),
		"FinishRun": db.FinishRun(ctx, nil),
		"SaveTest":  db.SaveTest(ctx, nil),
		"PutCache":  db.PutCache(ctx, nil),
	} {
		if err == nil {
			t.Errorf("%s(nil) succeeded", name)
		}
	}
}

// Environment of a child process that starts a run and waits (see
// TestChildRun).
const childRunEnv = "E2E_STORE_CHILD_RUN_DB"

// TestChildRun is the body of a child process started by
// TestInterruptedRuns; run directly it skips. It starts a run, prints its
// id and waits for its standard input to close, without finishing the run.
func TestChildRun(t *testing.T) {
	path := os.Getenv(childRunEnv)
	if path == "" {
		t.Skip("only runs as a child of TestInterruptedRuns")
	}
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r := &session.Run{Project: "child"}
	if err := db.StartRun(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("run %d\n", r.ID)
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// startChildRun starts a child process that starts a run and keeps
// running; it returns the child and its run's id.
func startChildRun(t *testing.T, path string) (*exec.Cmd, io.WriteCloser, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildRun$", "-test.count=1")
	cmd.Env = append(os.Environ(), childRunEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	var id int64
	if _, serr := fmt.Sscanf(line, "run %d", &id); err != nil || serr != nil {
		t.Fatalf("child: %q %v %v\n%s", line, err, serr, stderr.String())
	}
	return cmd, stdin, id
}

// TestInterruptedRuns: a run whose process was killed with SIGKILL in the
// middle, and one recorded by a process id that no longer exists, are
// marked interrupted when the next run starts; the run of a process still
// alive, and one recorded on another host, stay running. Before, a killed
// run stayed "running" forever.
func TestInterruptedRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "e2e.db")
	killed, _, killedRun := startChildRun(t, path)
	if err := killed.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = killed.Wait()
	_, alive, aliveRun := startChildRun(t, path)

	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	host, _ := os.Hostname()
	noSuchPid := 1 << 22 // above Linux's largest pid_max
	for _, row := range []struct {
		pid  int
		host string
	}{{noSuchPid, host}, {noSuchPid, "another-host"}} {
		if _, err := db.write.Exec(`INSERT INTO runs (project, started_at, status, pid, host) VALUES ('old', ?, 'running', ?, ?)`,
			formatTime(time.Now()), row.pid, row.host); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.StartRun(ctx, &session.Run{Project: "next"}); err != nil {
		t.Fatal(err)
	}
	runs, err := db.Runs(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for _, r := range runs {
		s := r.Status
		if r.Status != "running" && r.FinishedAt.IsZero() {
			s += " (no finish time)"
		}
		got[r.ID] = s
	}
	want := map[int64]string{killedRun: "interrupted", aliveRun: "running", 3: "interrupted", 4: "running", 5: "running"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("runs %v, want %v", got, want)
	}
	alive.Close()
}
