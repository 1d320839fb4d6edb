package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/run"
)

// sample is a run with a passing, a flaky, a healed and a failed test.
func sample(t *testing.T) *Input {
	t.Helper()
	dir := t.TempDir()
	shot, shot2 := filepath.Join(dir, "shot.png"), filepath.Join(dir, "shot2.png")
	for _, p := range []string{shot, shot2} {
		if err := os.WriteFile(p, []byte("\x89PNG fake"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Date(2026, 11, 30, 1, 0, 0, 0, time.UTC)
	click := `--step-type CLICK --description "the Add to cart button" --cache-id abc`
	rep := &run.Report{Run: session.Run{ID: 7, Project: "shop", Status: "failed", StartedAt: start, FinishedAt: start.Add(3 * time.Second)}}
	rep.Tests = []session.TestResult{
		{Name: "cart", File: "tests/cart.e2e.yaml", Status: "passed", DurationMS: 1200, Steps: []session.StepResult{
			{Index: 0, Line: 4, Command: click, Kind: "CLICK", Status: session.StatusHit, Cache: "hit", DurationMS: 40, Screenshot: shot}}},
		{Name: "flaky", File: "tests/flaky.e2e.yaml", Status: "passed", DurationMS: 900, Steps: []session.StepResult{
			{Index: 0, Line: 4, Command: click, Kind: "CLICK", Status: session.StatusLocated, Cache: "none", DurationMS: 300, LLMCalls: 1}}},
		{Name: "healed", File: "tests/act.e2e.yaml", Status: "passed", DurationMS: 2000, Steps: []session.StepResult{
			{Index: 0, Line: 5, Command: `--step-type ACT --description "buy it"`, Kind: "ACT", Status: session.StatusRelocated, Cache: "miss", MissReason: "healed (staged, heal 3)"}}},
		{Name: "bad, really", File: "tests/bad.e2e.yaml", Status: "failed", DurationMS: 3000, Error: "step 2 (line 6): 50% wrong\nsecond line", Steps: []session.StepResult{
			{Index: 0, Line: 5, Command: click, Kind: "CLICK", Status: session.StatusHit, Cache: "hit"},
			{Index: 1, Line: 6, Command: `--step-type EXPECT --expect visible --description "the Done heading"`, Kind: "EXPECT", Status: session.StatusFailed, Cache: "none", Error: "50% wrong\nsecond line", Screenshot: shot2},
			{Index: 2, Line: 7, Command: click, Kind: "CLICK", Status: session.StatusSkipped, Cache: "none"}}},
	}
	rep.Details = []run.TestDetail{
		{Attempts: 1, Worker: 1},
		{Attempts: 2, Flaky: true, AttemptErrors: []string{"step 1 (line 4): not yet"}, Worker: 2, Tokens: map[int]run.Tokens{0: {In: 900, Out: 40, Cost: 0.01}}},
		{Attempts: 1, Heals: []int64{3}, Worker: 1},
		{Attempts: 2, AttemptErrors: []string{"step 2 (line 6): first"}, Worker: 2, Snapshot: "- heading \"Not done\" [level=1]\n", SnapshotStep: 1},
	}
	return &Input{Report: rep, Shard: "2/3", Workers: 2,
		Calls: []session.ModelCall{{TokensIn: 900, TokensOut: 40, Cost: 0.01}},
		Heals: map[int64]*session.Heal{3: {ID: 3, Status: "staged", Goal: "buy it", Reason: "a popup covered the button",
			OldSteps: []string{click}, NewSteps: []string{`--step-type CLICK --description "the No thanks button"`, click}}}}
}

func TestSummary(t *testing.T) {
	s := Summarize(sample(t))
	if s.Total != 4 || s.Passed != 3 || s.Failed != 1 || s.Flaky != 1 || s.Healed != 1 || s.ModelCalls != 1 || s.TokensIn != 900 || s.Duration != 3*time.Second {
		t.Errorf("%+v", s)
	}
	// hits 2 of 4 lookups (2 hits, 1 located, 1 re-located)
	if s.CacheHitRate != 0.5 {
		t.Errorf("cache hit rate %v", s.CacheHitRate)
	}
}

func TestJUnit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out", "junit.xml")
	if err := WriteJUnit(path, sample(t)); err != nil {
		t.Fatal(err)
	}
	if out, err := xmllint(path); err != nil {
		t.Errorf("the JUnit does not match docs/schema/junit.xsd: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(path)
	var doc JUnitSuites
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tests != 4 || doc.Failures != 1 || len(doc.Suites) != 4 || doc.Suites[0].Name != "tests/act.e2e.yaml" {
		t.Fatalf("%+v", doc)
	}
	cases := map[string]JUnitCase{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			cases[c.Name] = c
		}
	}
	bad := cases["bad, really"]
	if bad.Failure == nil || bad.Line != 6 || bad.Classname != "tests.bad" || !strings.Contains(bad.Failure.Text, "tests/bad.e2e.yaml:6: 50% wrong") ||
		len(bad.RerunFailures) != 1 || !strings.Contains(bad.SystemOut, "- line 7:") {
		t.Errorf("failed case: %+v", bad)
	}
	if f := cases["flaky"]; f.Failure != nil || len(f.FlakyFailures) != 1 || prop(f, "flaky") != "true" || prop(f, "attempts") != "2" {
		t.Errorf("flaky case: %+v", f)
	}
	if h := cases["healed"]; prop(h, "healed") != "true" || prop(h, "heal") != "3" {
		t.Errorf("healed case: %+v", h)
	}
}

// xmllint validates a JUnit file against the project's JUnit schema.
func xmllint(path string) ([]byte, error) {
	bin, err := exec.LookPath("xmllint")
	if err != nil {
		return nil, fmt.Errorf("xmllint is needed to check JUnit files against docs/schema/junit.xsd (make test installs libxml2-utils): %w", err)
	}
	return exec.Command(bin, "--noout", "--schema", filepath.Join("..", "..", "docs", "schema", "junit.xsd"), path).CombinedOutput()
}

// TestJUnitSchemaRejects: the schema the JUnit checks rely on catches what
// JUnit readers choke on.
func TestJUnitSchemaRejects(t *testing.T) {
	good := `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="1" failures="0" time="1.5"><testsuite name="a.e2e.yaml" tests="1" failures="0" errors="0" time="1.5"><testcase name="a" classname="a" time="1.5"></testcase></testsuite></testsuites>`
	for name, doc := range map[string]string{
		"good":                 good,
		"no testcase name":     strings.Replace(good, `<testcase name="a"`, `<testcase`, 1),
		"a count that is text": strings.Replace(good, `tests="1" failures="0" errors`, `tests="one" failures="0" errors`, 1),
		"a negative time":      strings.Replace(good, `time="1.5"></testcase>`, `time="-1"></testcase>`, 1),
		"an unknown element":   strings.Replace(good, `</testcase>`, `<passed/></testcase>`, 1),
		"failure after output": strings.Replace(good, `</testcase>`, `<system-out>x</system-out><failure message="m"/></testcase>`, 1),
	} {
		path := filepath.Join(t.TempDir(), "junit.xml")
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := xmllint(path)
		if (err == nil) != (name == "good") {
			t.Errorf("%s: xmllint said %v\n%s", name, err, out)
		}
	}
}

func prop(c JUnitCase, name string) string {
	for _, p := range c.Properties {
		if p.Name == name {
			return p.Value
		}
	}
	return ""
}

func TestJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	if err := WriteJSON(path, sample(t)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var j JSON
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if j.Run.Shard != "2/3" || j.Summary.Flaky != 1 || j.Summary.Healed != 1 || j.Summary.TokensIn != 900 || len(j.Tests) != 4 {
		t.Fatalf("%s", b)
	}
	f := j.Tests[1]
	if !f.Flaky || f.Attempts != 2 || f.Steps[0].TokensIn != 900 || f.Steps[0].LLMCalls != 1 || f.Worker != 2 {
		t.Errorf("flaky test %+v", f)
	}
	if bad := j.Tests[3]; bad.Snapshot == "" || bad.Steps[1].Error == "" || bad.Steps[2].Status != "skipped" {
		t.Errorf("failed test %+v", bad)
	}
}

func TestGitHubAnnotationsAndSummary(t *testing.T) {
	var b bytes.Buffer
	in := sample(t)
	WriteGitHubAnnotations(&b, in)
	out := b.String()
	for _, want := range []string{
		"::error file=tests/bad.e2e.yaml,line=6,title=e2e%3A bad%2C really failed::50%25 wrong%0Asecond line%0Astep: expect the Done heading visible\n",
		"::warning file=tests/flaky.e2e.yaml,line=4,title=e2e%3A flaky is flaky::passed on attempt 2",
		"::notice file=tests/act.e2e.yaml,line=5,title=e2e%3A healed was healed::",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("annotations lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "cart") {
		t.Errorf("a passing test was annotated:\n%s", out)
	}
	path := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(path, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendGitHubSummary(path, in); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"earlier step\n## e2e run (shard 2/3): ❌ failed", "| 4 | 3 | 1 | 1 | 1 | 50% | 0 | 1 | 940 | $0.0100 | 3s |",
		"- **bad, really** (`tests/bad.e2e.yaml:6`): step 2 (line 6): 50% wrong", "- **flaky**: passed on attempt 2"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary lacks %q:\n%s", want, md)
		}
	}
}

func TestHTMLReportFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	index, err := WriteHTML(dir, sample(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	files, _ := os.ReadDir(filepath.Join(dir, "files"))
	if len(files) != 2 { // the cart step's screenshot and the failing step's
		t.Errorf("%d files copied", len(files))
	}
	for _, want := range []string{`id="n-passed">3<`, `id="n-failed">1<`, `id="n-flaky">1<`, `id="n-healed">1<`, `50%`,
		`<img class="thumb" src="files/t1-step1.png"`, `src="files/t4-step2.png"`, "click the Add to cart button",
		"Page at the failure (step 2)", "Heal 3 (staged): buy it", `<td class="add">--step-type CLICK --description &#34;the No thanks button&#34;</td>`,
		`<td class="none"></td><td class="add">`, "attempt 1 failed: step 2 (line 6): first", "flaky · attempt 2", "shard 2/3"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if strings.Contains(html, "http://") || strings.Contains(html, "https://") || strings.Contains(html, "<link") || strings.Contains(html, "<script src") {
		t.Error("the report is not self-contained")
	}
}

func TestDiffStepsKeepsCommonSteps(t *testing.T) {
	a := []string{"--step-type CLICK --description a", "--step-type CLICK --description b", "--step-type CLICK --description c"}
	b := []string{"--step-type CLICK --description a", "--step-type CLICK --description x", "--step-type CLICK --description c"}
	rows := diffSteps(a, b)
	var kinds []string
	for _, r := range rows {
		kinds = append(kinds, r.OldClass+"/"+r.NewClass)
	}
	if strings.Join(kinds, " ") != "same/same none/add del/none same/same" {
		t.Errorf("rows %v", kinds)
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	bar := &ProgressBar{W: &b, Width: 10}
	pass := session.TestResult{Name: "a", Status: "passed"}
	fail := session.TestResult{Name: "b", File: "b.e2e.yaml", Status: "failed", Error: "boom"}
	bar.Update(run.Progress{Done: 1, Total: 4, Test: &pass, Detail: &run.TestDetail{}, Elapsed: 2 * time.Second})
	bar.Update(run.Progress{Done: 2, Total: 4, Test: &fail, Detail: &run.TestDetail{}, Elapsed: 4 * time.Second})
	out := b.String()
	if !strings.Contains(out, "[##........] 1/4 tests, 0 failed, ETA 6s") || !strings.Contains(out, "✗ b (b.e2e.yaml)") ||
		!strings.Contains(out, "[#####.....] 2/4 tests, 1 failed, ETA 4s") {
		t.Errorf("%q", out)
	}
}
