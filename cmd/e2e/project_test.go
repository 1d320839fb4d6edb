package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectKeySharesCacheAcrossCheckouts: the cache key's project is the
// name of the directory holding e2e.yaml, so two checkouts in differently
// named directories share no rows, unless both set the same `project:`.
func TestProjectKeySharesCacheAcrossCheckouts(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	root := t.TempDir()
	db := filepath.Join(root, "shared.db")
	checkout := func(name, project string) string {
		t.Helper()
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		cfg := fmt.Sprintf("baseURL: %s\ntests: [\"*.e2e.yaml\"]\ntimeouts: { step: 3s }\ndb: %s\n", base, db)
		if project != "" {
			cfg += "project: " + project + "\n"
		}
		for file, src := range map[string]string{"e2e.yaml": cfg, "cart.e2e.yaml": cartTest} {
			if err := os.WriteFile(filepath.Join(dir, file), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	run := func(dir string) string {
		t.Helper()
		code, out, errOut := e2e(t, "run", "--config", dir)
		if code != 0 {
			t.Fatalf("run in %s: exit %d\n%s%s", filepath.Base(dir), code, out, errOut)
		}
		return out
	}
	// Without project: the directory names differ, so the second checkout
	// starts cold.
	run(checkout("shop-a", ""))
	if out := run(checkout("shop-b", "")); !strings.Contains(out, "0 cache hits") {
		t.Fatalf("checkouts named shop-a and shop-b shared cache rows without project:\n%s", out)
	}
	// With the same project: the second checkout replays the first's rows.
	run(checkout("clone-1", "shop"))
	if out := run(checkout("clone-2", "shop")); !strings.Contains(out, "2 cache hits") {
		t.Fatalf("checkouts with project: shop did not share cache rows:\n%s", out)
	}
	// And the key shows it.
	code, out, errOut := e2e(t, "cache", "ls", "--config", filepath.Join(root, "clone-2"))
	if code != 0 {
		t.Fatalf("cache ls: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(out, "the Add to cart button") {
		t.Fatalf("cache ls:\n%s", out)
	}
}
