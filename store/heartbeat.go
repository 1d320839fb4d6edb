package store

import (
	"context"
	"sync"
	"time"
)

// A run writes a heartbeat every HeartbeatEvery while it runs. A run still
// "running" whose last heartbeat (or, before its first, its start) is older
// than StaleAfter is marked "interrupted" when runs are listed or a new run
// starts — unless it was recorded on this host by a process that is still
// alive: there the process itself is looked for, and one that is gone is
// marked at once. StaleAfter is ten missed heartbeats: a run whose machine
// is stalled or suspended that long and then comes back finishes with its
// own status all the same (FinishRun).
const (
	HeartbeatEvery = time.Minute
	StaleAfter     = 10 * time.Minute
)

// beats are the heartbeats of the runs this DB started and has not
// finished.
type beats struct {
	mu   sync.Mutex
	runs map[int64]func() // run id → stop its heartbeat (and wait for it)
	// newTicker makes the clock of the heartbeats (tests replace it);
	// beaten, when set (tests), learns the run id of every heartbeat
	// written.
	newTicker func(time.Duration) (<-chan time.Time, func())
	beaten    chan int64
}

func realTicker(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// startBeat writes run id's heartbeat every HeartbeatEvery until stopBeat.
func (db *DB) startBeat(id int64) {
	newTicker := db.beats.newTicker
	if newTicker == nil {
		newTicker = realTicker
	}
	tick, halt := newTicker(HeartbeatEvery)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer halt()
		for {
			select {
			case <-stop:
				return
			case <-tick:
			}
			ctx, cancel := context.WithTimeout(context.Background(), HeartbeatEvery)
			// A run already marked interrupted (or finished) stays so; its
			// FinishRun sets its own status.
			_, _ = db.write.ExecContext(ctx, `UPDATE runs SET heartbeat_at = ? WHERE id = ? AND status = 'running'`, formatTime(db.now()), id)
			cancel()
			if db.beats.beaten != nil {
				db.beats.beaten <- id
			}
		}
	}()
	var once sync.Once
	db.beats.mu.Lock()
	if db.beats.runs == nil {
		db.beats.runs = map[int64]func(){}
	}
	db.beats.runs[id] = func() { once.Do(func() { close(stop) }); <-done }
	db.beats.mu.Unlock()
}

// stopBeat ends run id's heartbeat; id 0 ends them all.
func (db *DB) stopBeat(id int64) {
	db.beats.mu.Lock()
	var stops []func()
	for rid, stop := range db.beats.runs {
		if id == 0 || rid == id {
			stops = append(stops, stop)
			delete(db.beats.runs, rid)
		}
	}
	db.beats.mu.Unlock()
	for _, stop := range stops {
		stop()
	}
}
