package store

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// testClock is a clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *testClock) set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// TestStaleRunsAreInterrupted: a run on a CI runner that never comes back
// (another host, its process not to be looked for) stays "running" while
// its heartbeat is younger than StaleAfter and is marked "interrupted",
// finished at its last heartbeat, once it is older — when runs are listed
// or a new run starts. A run of a live process on this host is left alone
// however old its heartbeat; a run marked so that comes back finishes with
// its own status. The clocks (the store's and the heartbeat's ticker) are
// the test's: no wall-clock wait.
func TestStaleRunsAreInterrupted(t *testing.T) {
	ctx := context.Background()
	target := testTarget(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := &testClock{now: t0}
	runner, err := Open(ctx, target, WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Close()
	var ticks []chan time.Time // a ticker per run, fired by hand
	runner.beats.newTicker = func(d time.Duration) (<-chan time.Time, func()) {
		if d != HeartbeatEvery {
			t.Errorf("heartbeat every %s, want %s", d, HeartbeatEvery)
		}
		c := make(chan time.Time)
		ticks = append(ticks, c)
		return c, func() {}
	}
	runner.beats.beaten = make(chan int64)
	gone := &session.Run{Project: "ci"}   // its runner goes away
	legacy := &session.Run{Project: "ci"} // written before heartbeats: none at all
	local := &session.Run{Project: "ci"}  // this host, this live process
	for _, r := range []*session.Run{gone, legacy, local} {
		must(t, runner.StartRun(ctx, r))
	}
	// The first two were recorded on machines that are not this one.
	if _, err := runner.write.Exec(`UPDATE runs SET host = 'ci-runner-7', pid = 4242 WHERE id = ?`, gone.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := runner.write.Exec(`UPDATE runs SET host = 'ci-runner-8', pid = 0, heartbeat_at = NULL WHERE id = ?`, legacy.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := runner.write.Exec(`UPDATE runs SET pid = ? WHERE id = ?`, os.Getpid(), local.ID); err != nil {
		t.Fatal(err)
	}
	// Nine minutes in, each run beats once.
	clock.set(t0.Add(9 * time.Minute))
	for i, r := range []*session.Run{gone, legacy, local} {
		ticks[i] <- clock.Now()
		if id := <-runner.beats.beaten; id != r.ID {
			t.Fatalf("run %d beat, want %d", id, r.ID)
		}
	}
	if _, err := runner.write.Exec(`UPDATE runs SET heartbeat_at = NULL WHERE id = ?`, legacy.ID); err != nil {
		t.Fatal(err)
	}

	status := func(db *DB) map[int64]session.Run {
		t.Helper()
		runs, err := db.Runs(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := map[int64]session.Run{}
		for _, r := range runs {
			out[r.ID] = r
		}
		return out
	}
	lister, err := Open(ctx, target, WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	defer lister.Close()

	clock.set(t0.Add(15 * time.Minute)) // six minutes after the last heartbeat, fifteen after the start
	got := status(lister)
	if got[gone.ID].Status != "running" || got[local.ID].Status != "running" {
		t.Errorf("at 15 min: %v; want the run that beat at 9 min still running", got)
	}
	if r := got[legacy.ID]; r.Status != "interrupted" || !r.FinishedAt.Equal(t0) {
		t.Errorf("at 15 min, a run of another host that never beat: %s finished %v; want interrupted at its start", r.Status, r.FinishedAt)
	}

	clock.set(t0.Add(9*time.Minute + StaleAfter)) // StaleAfter after its last heartbeat
	sums, err := lister.RunSummaries(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sums {
		want := map[int64]string{gone.ID: "interrupted", legacy.ID: "interrupted", local.ID: "running"}[s.ID]
		if want != "" && s.Status != want {
			t.Errorf("listed at %s: run %d is %s, want %s", StaleAfter+9*time.Minute, s.ID, s.Status, want)
		}
	}
	got = status(lister)
	if r := got[gone.ID]; !r.FinishedAt.Equal(t0.Add(9 * time.Minute)) {
		t.Errorf("the gone run finished at %v, want its last heartbeat", r.FinishedAt)
	}

	// A new run marks them too (here: a fourth that went silent).
	silent := &session.Run{Project: "ci"}
	must(t, runner.StartRun(ctx, silent))
	if _, err := runner.write.Exec(`UPDATE runs SET host = 'ci-runner-9' WHERE id = ?`, silent.ID); err != nil {
		t.Fatal(err)
	}
	clock.set(clock.Now().Add(StaleAfter))
	must(t, lister.StartRun(ctx, &session.Run{Project: "next"}))
	if s := status(lister)[silent.ID].Status; s != "interrupted" {
		t.Errorf("a run silent for %s, when a new run starts: %s", StaleAfter, s)
	}

	// The gone run's machine comes back after all: it finishes as it ends.
	gone.Status = "passed"
	must(t, runner.FinishRun(ctx, gone))
	if s := status(lister)[gone.ID].Status; s != "passed" {
		t.Errorf("a run that came back and finished: %s", s)
	}
}
