package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

func newStoreCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "store",
		Short: "Work on whole stores (store copy: from a SQLite file to a PostgreSQL server, or back)",
		Args:  cobra.NoArgs,
	}
	var from, to string
	cp := &cobra.Command{
		Use:   "copy --from FILE|URL --to FILE|URL",
		Short: "Copy everything from one store to another, in one transaction on the target; copying again copies nothing twice",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if from == "" || to == "" {
				return fmt.Errorf("store copy: give both --from and --to (a SQLite file or a postgres:// URL)")
			}
			if from == to {
				return fmt.Errorf("store copy: --from and --to are the same store")
			}
			ctx := cmd.Context()
			src, err := openExisting(ctx, from)
			if err != nil {
				return err
			}
			defer src.Close()
			dst, err := openStore(ctx, to, nil, nil)
			if err != nil {
				return err
			}
			defer dst.Close()
			start := time.Now()
			st, err := store.Copy(ctx, src, dst)
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "copied %s to %s: %s in %s\n", src.Path(), dst.Path(), st, time.Since(start).Round(time.Millisecond))
			return nil
		},
	}
	cp.Flags().StringVar(&from, "from", "", "the store to copy: a SQLite file or a postgres:// URL")
	cp.Flags().StringVar(&to, "to", "", "the store to copy into (created and migrated when new)")
	cmd.AddCommand(cp)
	return cmd
}

// openExisting opens a store that must be there already: a SQLite file
// that does not exist is an error, not a new empty store.
func openExisting(ctx context.Context, target string) (*store.DB, error) {
	if err := existingStore(target); err != nil {
		return nil, err
	}
	return openStore(ctx, target, nil, nil)
}

func existingStore(target string) error {
	if testfile.IsDatabaseURL(target) {
		return nil
	}
	if _, err := os.Stat(target); err != nil {
		return fmt.Errorf("store copy --from %s: %w", target, unwrapPath(err))
	}
	return nil
}
