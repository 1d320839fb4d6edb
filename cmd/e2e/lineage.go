package main

import (
	"context"
	"errors"
	"os"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/gitinfo"
	"github.com/e2e-dev/e2e/session/testfile"
)

// checkoutLineage is where the project's checkout stands in git, with this
// tool's version, for the caches. Outside git, or before the first commit,
// the lineage has no branch.
func checkoutLineage(ctx context.Context, cfg *testfile.Config) (session.Lineage, error) {
	l, err := gitinfo.Resolve(ctx, cfg.Dir, cfg.Cache.MainBranch, os.LookupEnv)
	if errors.Is(err, gitinfo.ErrNotRepository) || errors.Is(err, gitinfo.ErrNoCommits) {
		l, err = session.Lineage{}, nil
	}
	l.Version = toolVersion()
	return l, err
}
