package store

import (
	"context"
	"database/sql"
	"time"
)

// ping connects db, trying again while the file is locked by another
// process setting it up (switching it to WAL, migrating it): connecting
// runs pragmas that SQLite may refuse with SQLITE_BUSY at once instead of
// waiting in the busy handler. It gives up after limit.
func ping(ctx context.Context, db *sql.DB, eng *engine, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	wait := 5 * time.Millisecond
	for {
		err := db.PingContext(ctx)
		if err == nil || !eng.isBusy(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}
