package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCachePolicies: read-only and off never write; off never reads;
// strict fails with exit 4 on a missing entry and passes on a warm cache.
func TestCachePolicies(t *testing.T) {
	t.Parallel()
	dir := project(t, fixtureServer(t), map[string]string{"cart.e2e.yaml": cartTest})
	run := func(policy string) (int, string) {
		t.Helper()
		code, out, errOut := e2e(t, "run", "--config", dir, "--cache", policy)
		return code, out + errOut
	}
	if code, out := run("strict"); code != exitStale || !strings.Contains(out, "cache is stale") || !strings.Contains(out, "no entry") {
		t.Fatalf("strict on an empty cache: exit %d\n%s", code, out)
	}
	if code, out := run("read-only"); code != 0 || !strings.Contains(out, "located") {
		t.Fatalf("read-only: exit %d\n%s", code, out)
	}
	if code, out := run("read-only"); code != 0 || strings.Contains(out, " hit ") {
		t.Fatalf("read-only wrote the cache: exit %d\n%s", code, out)
	}
	if code, out := run("read-write"); code != 0 || strings.Contains(out, " hit ") {
		t.Fatalf("read-write: exit %d\n%s", code, out)
	}
	if code, out := run("off"); code != 0 || strings.Contains(out, " hit ") {
		t.Fatalf("off read the cache: exit %d\n%s", code, out)
	}
	if code, out := run("strict"); code != 0 || !strings.Contains(out, " hit ") {
		t.Fatalf("strict on a warm cache: exit %d\n%s", code, out)
	}
	if code, out := run("sometimes"); code != exitUsage || !strings.Contains(out, "want read-write, read-only, off or strict") {
		t.Errorf("bad --cache: exit %d\n%s", code, out)
	}
}

// TestCacheCommands: stats, ls, show, export, rm, import and prune on the
// caches of a real run.
func TestCacheCommands(t *testing.T) {
	t.Parallel()
	dir := project(t, fixtureServer(t), map[string]string{"cart.e2e.yaml": cartTest})
	for range 2 {
		if code, out, errOut := e2e(t, "run", "--config", dir); code != 0 {
			t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
		}
	}
	cache := func(args ...string) string {
		t.Helper()
		code, out, errOut := e2e(t, append([]string{"cache"}, append(args, "--config", dir)...)...)
		if code != 0 {
			t.Fatalf("cache %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}
	out := cache("stats")
	// run 1: two located (click, expect); run 2: two hits.
	// No model located anything: the hits saved no model call, and say so.
	if !strings.Contains(out, "last 2 runs: 2 of 4 lookups hit (50%)") || !strings.Contains(out, "BRANCH") ||
		!strings.Contains(out, "no model calls saved (the local locator found these steps' elements without one)") {
		t.Errorf("stats:\n%s", out)
	}
	out = cache("ls", "--test", "add to cart")
	if !strings.Contains(out, "the Add to cart button") || !strings.Contains(out, "element") {
		t.Fatalf("ls:\n%s", out)
	}
	if out := cache("ls", "--test", "no such test"); !strings.Contains(out, "no cache rows") {
		t.Errorf("ls of another test:\n%s", out)
	}
	key := regexp.MustCompile(`(?m)^([0-9a-f]{12})\s+element\s+add to cart\s+the Add to cart button`).FindStringSubmatch(out)
	if key == nil {
		t.Fatalf("no key in ls:\n%s", out)
	}
	out = cache("show", key[1])
	for _, want := range []string{"identity (what the key is made of)", "  app          \"http://127.0.0.1:", "  occurrence   0", "the Add to cart button", "history:", "selectors:"} {
		if !strings.Contains(out, want) {
			t.Errorf("show lacks %q:\n%s", want, out)
		}
	}
	export := filepath.Join(t.TempDir(), "cache.jsonl")
	if out := cache("export", export); !strings.Contains(out, "exported 2 rows") {
		t.Fatalf("export:\n%s", out)
	}
	if out := cache("rm", key[1]); !strings.Contains(out, "removed 1 row of") {
		t.Fatalf("rm:\n%s", out)
	}
	if out := cache("ls"); strings.Contains(out, key[1]) {
		t.Fatalf("the key is still there after rm:\n%s", out)
	}
	if code, _, errOut := e2e(t, "cache", "import", "--config", dir, writeText(t, "{not json\n")); code != exitUsage || !strings.Contains(errOut, "in.jsonl:1:2: not JSON") || !strings.Contains(errOut, "nothing was imported") {
		t.Errorf("bad import: exit %d %s", code, errOut)
	}
	if out := cache("import", export); !strings.Contains(out, "imported 2 rows") {
		t.Fatalf("import:\n%s", out)
	}
	if code, out, errOut := e2e(t, "run", "--config", dir, "--cache", "strict"); code != 0 {
		t.Fatalf("strict run after import: exit %d\n%s%s", code, out, errOut)
	}
	if out := cache("prune"); !strings.Contains(out, "pruned 0 rows") {
		t.Errorf("prune of fresh rows:\n%s", out)
	}
	// Rows last used long ago expire. (An import keeps the later use of a
	// row it replaces, so the rows go first.)
	for _, k := range regexp.MustCompile(`"key":"([0-9a-f]+)"`).FindAllStringSubmatch(readText(t, export), -1) {
		cache("rm", k[1])
	}
	b, err := os.ReadFile(export)
	if err != nil {
		t.Fatal(err)
	}
	old := regexp.MustCompile(`"used_at":"[^"]*"`).ReplaceAllString(string(b), `"used_at":"2020-01-01T00:00:00Z"`)
	cache("import", writeText(t, old))
	if out := cache("prune"); !strings.Contains(out, "pruned 2 rows") {
		t.Errorf("prune of rows unused since 2020:\n%s", out)
	}
	if out := cache("ls"); !strings.Contains(out, "no cache rows") {
		t.Errorf("rows left after prune:\n%s", out)
	}
}

func writeText(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.jsonl")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
