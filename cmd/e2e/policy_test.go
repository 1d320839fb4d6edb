package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/store"
)

// policyStore makes a project whose store holds an old cache row, a
// trajectory and a staged heal, and returns the project's directory and
// its store's path.
func policyStore(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte("baseURL: http://127.0.0.1:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".e2e", "e2e.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	old := time.Now().Add(-400 * 24 * time.Hour)
	must(t, db.PutCache(ctx, &session.CacheEntry{Key: "k1elementkey", Description: "the Save button",
		Selectors: []session.Selector{{Kind: "id", Value: "#save"}}, CreatedAt: old, UsedAt: old}))
	must(t, db.PutTrajectory(ctx, &session.Trajectory{Key: "t1trajectory", Goal: "check out", Steps: []string{`--step-type CLICK --description "the Pay button"`}}))
	must(t, db.PutHeal(ctx, &session.Heal{Key: "t1trajectory", Goal: "check out", OldSteps: []string{"a"}, NewSteps: []string{`--step-type CLICK --description "the Pay now button"`}}))
	return dir, path
}

// storeState is what a writing command could change: the cache's rows
// and the heals' statuses.
func storeState(t *testing.T, path string) string {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.CacheRows(ctx, store.CacheFilter{})
	must(t, err)
	heals, err := db.Heals(ctx, "")
	must(t, err)
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.Key + " ")
	}
	for _, h := range heals {
		b.WriteString(h.Status + " ")
	}
	return b.String()
}

// TestWritingCommandsHonourTheReadOnlyPolicy: under an untrusted event —
// a fork's pull request, one whose fork was deleted (head.repo null), one
// whose payload cannot be read — and on a branch outside
// cache.writeBranches, every command that writes is refused with the
// reason and changes nothing: cache import, rm and prune, heals accept and
// reject, store copy into the store. Reading commands still work.
func TestWritingCommandsHonourTheReadOnlyPolicy(t *testing.T) {
	events := t.TempDir()
	payload := func(name, body string) string {
		p := filepath.Join(events, name)
		must(t, os.WriteFile(p, []byte(body), 0o644))
		return p
	}
	deleted := payload("deleted.json", `{"action":"opened","pull_request":{"number":7,"head":{"ref":"fix","repo":null},"base":{"repo":{"full_name":"acme/shop"}}}}`)
	fork := payload("fork.json", `{"action":"opened","pull_request":{"number":7,"head":{"ref":"fix","repo":{"full_name":"mallory/shop"}},"base":{"repo":{"full_name":"acme/shop"}}}}`)
	for _, c := range []struct {
		name string
		env  map[string]string
		yaml string
		why  string
	}{
		{"a fork's pull request", map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": fork}, "", "the fork mallory/shop"},
		{"a deleted fork's pull request", map[string]string{"GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": deleted}, "", "deleted fork"},
		{"a pull request with no payload", map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": ""}, "", "cannot be proven"},
		{"a branch outside writeBranches", map[string]string{"GITHUB_EVENT_NAME": ""}, "cache: { writeBranches: [release] }\n", "is not in cache.writeBranches"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			dir, path := policyStore(t)
			if c.yaml != "" {
				appendFile(t, filepath.Join(dir, "e2e.yaml"), c.yaml)
			}
			export := filepath.Join(t.TempDir(), "rows.jsonl")
			if code, out, errOut := e2e(t, "cache", "export", export, "--config", dir); code != 0 {
				t.Fatalf("cache export (a read): exit %d\n%s%s", code, out, errOut)
			}
			other := filepath.Join(t.TempDir(), "other.db")
			if db, err := store.Open(context.Background(), other); err != nil {
				t.Fatal(err)
			} else {
				must(t, db.PutCache(context.Background(), &session.CacheEntry{Key: "k2otherkey", Description: "x"}))
				db.Close()
			}
			before := storeState(t, path)
			for _, args := range [][]string{
				{"cache", "import", export, "--config", dir},
				{"cache", "import", export, "--db", path},
				{"cache", "rm", "k1elementkey", "--config", dir},
				{"cache", "prune", "--config", dir},
				{"cache", "prune", "--db", path},
				{"heals", "accept", "1", "--config", dir},
				{"heals", "reject", "1", "--db", path},
				{"store", "copy", "--from", other, "--to", path},
			} {
				if strings.Contains(c.name, "writeBranches") && slicesContains(args, "--db") || args[0] == "store" && c.yaml != "" {
					continue // with --db, e2e.yaml and its writeBranches are not read
				}
				code, out, errOut := e2e(t, args...)
				if code != exitUsage || !strings.Contains(errOut, "the store is read-only") || !strings.Contains(errOut, c.why) {
					t.Errorf("e2e %s: exit %d, want 2 and the store read-only because %s\n%s%s", strings.Join(args, " "), code, c.why, out, errOut)
				}
				if after := storeState(t, path); after != before {
					t.Errorf("e2e %s wrote: %q → %q", strings.Join(args, " "), before, after)
				}
			}
			if code, out, errOut := e2e(t, "heals", "list", "--config", dir); code != 0 || !strings.Contains(out, "staged") {
				t.Errorf("heals list (a read): exit %d\n%s%s", code, out, errOut)
			}
		})
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestEveryStoreOpensUnderThePolicy: the commands open stores in one place
// (openStore), which applies the read-only policy; a store.Open anywhere
// else in the command line would let a command write past it. (The demo
// opens its own throwaway directory's store.)
func TestEveryStoreOpensUnderThePolicy(t *testing.T) {
	files, err := filepath.Glob("*.go")
	must(t, err)
	open := regexp.MustCompile(`\bstore\.Open\(`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		must(t, err)
		for i, line := range strings.Split(string(src), "\n") {
			if !open.MatchString(line) {
				continue
			}
			switch {
			case f == "lineage.go" && strings.Contains(line, "return store.Open(ctx, target, opts...)"):
			case f == "demo.go" && strings.Contains(line, "store.Open(ctx, dbPath, store.WithRedactor(g.red))"):
			default:
				t.Errorf("%s:%d opens a store past openStore: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
