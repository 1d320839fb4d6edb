package store

import (
	"context"
	"fmt"

	"github.com/e2e-dev/e2e/store/postgres"
)

// openPostgres opens the store on the PostgreSQL server at target (a
// postgres:// URL). Writes go through a pool of connections whose
// transactions are SERIALIZABLE (inTx); reads through a pool whose
// transactions are read-only. The schema is migrated under an advisory
// lock. db.Path() is the URL with its password masked.
func openPostgres(ctx context.Context, target string, o options) (*DB, error) {
	masked := postgres.Mask(target)
	wc, err := postgres.Connector(target, o.readOnly != "")
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	rc, err := postgres.Connector(target, true)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	write := openPool(wc, o.redactor, true)
	write.SetMaxOpenConns(8)
	write.SetMaxIdleConns(2)
	read := openPool(rc, nil, true)
	read.SetMaxOpenConns(8)
	read.SetMaxIdleConns(4)
	return finishOpen(ctx, &DB{path: masked, eng: postgresEngine, write: write, read: read, now: o.now}, o)
}
