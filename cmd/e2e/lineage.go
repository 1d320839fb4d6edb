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
// that reads and writes follow the git branch (e2e run, the studio, the
// MCP server), under the write policy (openStore).
func openRunStore(ctx context.Context, cfg *testfile.Config, opts ...store.Option) (*store.DB, error) {
	lineage, err := checkoutLineage(ctx, cfg)
	if err != nil {
		return nil, err
	}
	opts = append([]store.Option{store.WithLineage(lineage)}, opts...)
	return openStore(ctx, cfg.DBPath(), cfg, &lineage, opts...)
}

// openStore opens the store at target under the write policy: it is the
// one place the commands open a store (TestEveryStoreOpensUnderThePolicy
// checks), so that every command that writes honours it. The store is
// read-only when
//   - the run's event is untrusted (gitinfo.Untrusted: a pull request from
//     a fork, or one that cannot be proven to come from the base
//     repository), whatever else says, or
//   - cfg is known and the checkout's branch (lineage's, else looked up)
//     is not in its cache.writeBranches.
//
// A read-only store drops a run's writes; the commands whose purpose is to
// write (cache import, rm and prune, heals accept and reject, store copy
// into it, the studio's and the MCP server's heal decisions) fail with
// store.ErrReadOnly and the reason. cfg and lineage may be nil.
func openStore(ctx context.Context, target string, cfg *testfile.Config, lineage *session.Lineage, opts ...store.Option) (*store.DB, error) {
	why, err := readOnlyReason(ctx, cfg, lineage)
	if err != nil {
		return nil, err
	}
	if why != "" {
		opts = append(opts, store.WithReadOnly(why))
	}
	return store.Open(ctx, target, opts...)
}

// readOnlyReason says why a store opened for cfg must write nothing, or
// "" when it may write (see openStore).
func readOnlyReason(ctx context.Context, cfg *testfile.Config, lineage *session.Lineage) (string, error) {
	if why := gitinfo.Untrusted(os.LookupEnv); why != "" {
		return why, nil
	}
	if cfg == nil || len(cfg.Cache.WriteBranches) == 0 {
		return "", nil
	}
	if lineage == nil {
		l, err := checkoutLineage(ctx, cfg)
		if err != nil {
			return "", err
		}
		lineage = &l
	}
	if cfg.Cache.Writes(lineage.Branch) {
		return "", nil
	}
	b := lineage.Branch
	if b == "" {
		b = "(none: not in git)"
	}
	return fmt.Sprintf("the branch %s is not in cache.writeBranches", b), nil
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
