package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/store/postgres/pgtest"
)

// mergeSuite is seven tests against the fixture app, one of which fails
// (its steps end failed, then skipped).
func mergeSuite() map[string]string {
	return map[string]string{
		"cart.e2e.yaml":   cartTest,
		"carol.e2e.yaml":  "name: carol menu\nurl: /users\nsteps:\n  - click: the Menu button in the Carol row\n  - expect: { visible: the Archive menu item }\n",
		"dave.e2e.yaml":   "name: dave menu\nurl: /users\nsteps:\n  - click: the Menu button in the Dave row\n  - expect: { visible: the Edit menu item }\n",
		"third.e2e.yaml":  "name: third product twice\nurl: /product?id=3\nsteps:\n  - click: the Add to cart button\n  - click: the Add to cart button\n  - expect: { text: { in: the cart status, is: \"Cart: 2 items\" } }\n",
		"second.e2e.yaml": "name: second product\nurl: /product?id=2\nsteps:\n  - click: the Add to cart button\n  - expect: { text: { in: the cart status, is: \"Cart: 1 item\" } }\n",
		"open.e2e.yaml":   "name: search then open\nurl: /search\nsteps:\n  - type: { into: the Search products box, text: trail }\n  - click: the Search button\n  - expect: { visible: the Trail Runner 2 link }\n  - click: the Trail Runner 2 link\n  - expect: { title: { contains: Trail Runner 2 } }\n",
		"wrong.e2e.yaml":  "name: wrong count\nurl: /product\nsteps:\n  - click: the Add to cart button\n  - expect: { text: { in: the cart status, is: \"Cart: 5 items\" } }\n  - click: the Add to cart button\n",
	}
}

// mergedView is what a merged report must have as the unsharded run had
// it: the tests, their statuses and their steps.
type mergedView struct {
	Summary map[string]float64
	Tests   map[string]string // name → file, status, steps
}

func readMergedView(t *testing.T, path string) mergedView {
	t.Helper()
	var rep struct {
		Summary map[string]float64 `json:"summary"`
		Tests   []struct {
			Name, File, Status string
			Steps              []struct {
				Line                         int
				Command, Kind, Status, Cache string
			}
		} `json:"tests"`
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	v := mergedView{Summary: map[string]float64{}, Tests: map[string]string{}}
	for _, k := range []string{"tests", "passed", "failed", "flaky", "steps", "hits", "located", "skipped", "misses"} {
		v.Summary[k] = rep.Summary[k]
	}
	for _, tt := range rep.Tests {
		var steps []string
		for _, s := range tt.Steps {
			steps = append(steps, fmt.Sprintf("%d %s %s %s %s", s.Line, s.Kind, s.Status, s.Cache, s.Command))
		}
		v.Tests[tt.Name] = tt.File + " " + tt.Status + "\n  " + strings.Join(steps, "\n  ")
	}
	return v
}

func sameView(t *testing.T, what string, got, want mergedView) {
	t.Helper()
	if !reflect.DeepEqual(got.Summary, want.Summary) {
		t.Errorf("%s: summary %v, the unsharded run's %v", what, got.Summary, want.Summary)
	}
	var names []string
	for n := range want.Tests {
		names = append(names, n)
	}
	for n := range got.Tests {
		if _, ok := want.Tests[n]; !ok {
			t.Errorf("%s: test %q was not in the unsharded run", what, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if got.Tests[n] != want.Tests[n] {
			t.Errorf("%s: test %q\n got %s\nwant %s", what, n, got.Tests[n], want.Tests[n])
		}
	}
}

// runSharded runs the suite of dir (its store warmed by a first run) once
// whole, writing whole, then in three shards one after another, each with
// --run-group group and a JSON report under shards/; it returns the
// unsharded run's view.
func runSharded(t *testing.T, dir, group, whole, shards string) mergedView {
	t.Helper()
	if code, out, errOut := e2e(t, "run", "--config", dir, "--ci"); code != 1 {
		t.Fatalf("warm-up run: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := e2e(t, "run", "--config", dir, "--ci", "--reporter", "json="+whole); code != 1 {
		t.Fatalf("unsharded run: exit %d\n%s%s", code, out, errOut)
	}
	want := readMergedView(t, whole)
	if want.Summary["tests"] != 7 || want.Summary["failed"] != 1 || want.Summary["hits"] == 0 || want.Summary["skipped"] != 1 {
		t.Fatalf("the unsharded run: %v", want.Summary)
	}
	for i := 1; i <= 3; i++ {
		p := filepath.Join(shards, fmt.Sprintf("shard-%d", i), "e2e.json")
		code, out, errOut := e2e(t, "run", "--config", dir, "--ci", "--shard", fmt.Sprintf("%d/3", i), "--run-group", group, "--reporter", "json="+p)
		if code > 1 {
			t.Fatalf("shard %d: exit %d\n%s%s", i, code, out, errOut)
		}
	}
	return want
}

// TestReportMergeEqualsUnsharded: a suite run in three shards on one
// SQLite store, merged by `e2e report merge` from the shards' JSON reports
// and by `e2e report --run-group` from the store, is the unsharded run:
// the same tests, statuses and steps, and the same counts; the merged
// JUnit is valid and the HTML report names the shards.
func TestReportMergeEqualsUnsharded(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := project(t, base, mergeSuite())
	cfg := fmt.Sprintf("baseURL: %s\ntests: [\"*.e2e.yaml\"]\ntimeouts: { step: 10s }\n", base)
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	shards := filepath.Join(out, "shards")
	want := runSharded(t, dir, "gh-4242", filepath.Join(out, "whole.json"), shards)

	merged, junit, html := filepath.Join(out, "merged.json"), filepath.Join(out, "merged.xml"), filepath.Join(out, "merged")
	code, stdout, stderr := e2e(t, "report", "merge", shards, "--reporter", "json="+merged+",junit="+junit+",html="+html)
	if code != 1 || !strings.Contains(stdout, "7 tests: 6 passed, 1 failed") {
		t.Fatalf("report merge: exit %d (want 1: a test failed)\n%s%s", code, stdout, stderr)
	}
	sameView(t, "report merge", readMergedView(t, merged), want)
	checkJUnit(t, junit, 7, 1)
	page, err := os.ReadFile(filepath.Join(html, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "run group gh-4242") || !strings.Contains(string(page), "shards 1/3, 2/3, 3/3") {
		t.Errorf("the merged HTML report does not name its group and shards")
	}
	// History came through the shards' JSON: every test has a strip.
	if n := strings.Count(string(page), `class="history"`); n != 7 {
		t.Errorf("%d history strips in the merged report, want 7", n)
	}

	grouped := filepath.Join(out, "grouped.json")
	code, stdout, stderr = e2e(t, "report", "--config", dir, "--run-group", "gh-4242", "--reporter", "json="+grouped)
	if code != 1 {
		t.Fatalf("report --run-group: exit %d\n%s%s", code, stdout, stderr)
	}
	sameView(t, "report --run-group (SQLite)", readMergedView(t, grouped), want)
	code, _, stderr = e2e(t, "report", "--config", dir, "--run-group", "nope")
	if code != exitUsage || !strings.Contains(stderr, "no run of that group") {
		t.Errorf("an unknown group: exit %d, %s", code, stderr)
	}
}

// TestReportRunGroupOnPostgres: the same on a PostgreSQL store the shards
// share, as CI machines would: `e2e report --run-group` from the server
// equals the unsharded run.
func TestReportRunGroupOnPostgres(t *testing.T) {
	t.Parallel()
	c := pgtest.Start(t)
	dir, _ := pgProject(t, c, "merge", mergeSuite())
	cfgPath := filepath.Join(dir, "e2e.yaml")
	b, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, []byte(strings.Replace(string(b), "step: 3s", "step: 10s", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	want := runSharded(t, dir, "pipeline-77", filepath.Join(out, "whole.json"), filepath.Join(out, "shards"))
	grouped := filepath.Join(out, "grouped.json")
	code, stdout, stderr := e2e(t, "report", "--config", dir, "--run-group", "pipeline-77", "--reporter", "json="+grouped)
	if code != 1 {
		t.Fatalf("report --run-group: exit %d\n%s%s", code, stdout, stderr)
	}
	sameView(t, "report --run-group (PostgreSQL)", readMergedView(t, grouped), want)
}

// TestReportMergeBadInput: a directory with no report, two reports of
// different projects, a report cut short and a file that is no report
// are refused with what is wrong and where, and write nothing.
func TestReportMergeBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	report := func(project, test string) string {
		return fmt.Sprintf(`{"run": {"id": 1, "project": %q, "status": "passed", "startedAt": "2026-03-01T10:00:00Z", "finishedAt": "2026-03-01T10:00:05Z"},
"summary": {"tests": 1, "passed": 1},
"tests": [{"name": %q, "file": "a.e2e.yaml", "status": "passed", "ms": 5, "attempts": 1, "steps": [{"index": 0, "line": 4, "command": "--step-type CLICK --description \"the Go button\"", "kind": "CLICK", "status": "hit", "cache": "hit", "ms": 5}]}]}
`, project, test)
	}
	empty := filepath.Join(dir, "empty")
	write("empty/package.json", `{"name": "app"}`)
	a := write("two/a/e2e.json", report("shop", "one"))
	write("two/b/e2e.json", report("blog", "two"))
	whole := report("shop", "three")
	cut := write("cut/e2e.json", whole[:len(whole)/2])
	out := filepath.Join(dir, "out.json")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{empty}, empty + ": no e2e JSON report in it"},
		{[]string{filepath.Join(dir, "two")}, `of project "shop" and`},
		{[]string{a, cut}, cut + ":3:"},
		{[]string{cut}, "the report is cut short"},
		{[]string{filepath.Join(dir, "empty", "package.json")}, "package.json: not an e2e JSON report"},
		{[]string{filepath.Join(dir, "missing")}, "missing: no such file or directory"},
	} {
		code, stdout, stderr := e2e(t, append([]string{"report", "merge", "--reporter", "json=" + out}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("report merge %v: exit %d, %q, want %q\n%s", c.args, code, stderr, c.want, stdout)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("report merge %v wrote a report", c.args)
		}
	}
	// Two good reports of one project merge; a test in both is kept once,
	// from the later run, with a note.
	later := strings.Replace(report("shop", "one"), "10:00:", "11:00:", 2)
	write("ok/a.json", report("shop", "one"))
	write("ok/b.json", strings.Replace(later, `"status": "passed", "ms": 5`, `"status": "passed", "ms": 9`, 1))
	write("ok/c.json", report("shop", "two"))
	code, stdout, stderr := e2e(t, "report", "merge", filepath.Join(dir, "ok"), "--reporter", "json="+out)
	if code != 0 || !strings.Contains(stderr, `test "one" is in`) || !strings.Contains(stdout, "2 tests: 2 passed") {
		t.Fatalf("report merge ok/: exit %d\n%s%s", code, stdout, stderr)
	}
	v := readMergedView(t, out)
	if len(v.Tests) != 2 {
		t.Errorf("merged %v", v.Tests)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), `"ms": 9`) {
		t.Errorf("the earlier result of a test in two reports was kept:\n%s", b)
	}
}
