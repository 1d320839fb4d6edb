package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/gitinfo"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
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

// openRunStore opens the database of cfg with the checkout's lineage, so
// that reads and writes follow the git branch (e2e run and the studio).
func openRunStore(ctx context.Context, cfg *testfile.Config, opts ...store.Option) (*store.DB, error) {
	lineage, err := checkoutLineage(ctx, cfg)
	if err != nil {
		return nil, err
	}
	opts = append([]store.Option{store.WithLineage(lineage)}, opts...)
	fork, why, err := gitinfo.ForkPullRequest(os.LookupEnv)
	switch {
	case err != nil:
		return nil, err
	case fork:
		opts = append(opts, store.WithReadOnly(why))
	case !cfg.Cache.Writes(lineage.Branch):
		b := lineage.Branch
		if b == "" {
			b = "(none: not in git)"
		}
		opts = append(opts, store.WithReadOnly(fmt.Sprintf("the branch %s is not in cache.writeBranches", b)))
	}
	return store.Open(ctx, cfg.DBPath(), opts...)
}

// runBrowserOptions are the global browser flags over e2e.yaml's browser.
func runBrowserOptions(g *globals, cfg *testfile.Config) browser.Options {
	bo := g.browserOptions()
	if bo.Chrome == "" {
		bo.Chrome = cfg.Browser.Chrome
	}
	bo.Width, bo.Height = cfg.Browser.Viewport.Width, cfg.Browser.Viewport.Height
	bo.Headed = bo.Headed || !cfg.Browser.Headless // browser.headless: false
	return bo
}
