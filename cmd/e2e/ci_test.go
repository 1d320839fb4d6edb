package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/examples"
	"github.com/e2e-dev/e2e/session/browser"
)

// The tests of this package expect the default (non-CI) output unless they
// ask for --ci; a CI runner's own CI and GITHUB_ACTIONS must not leak in.
// A child process of e2eEnv keeps what its test gave it (its parent had
// them unset already).
func init() {
	if os.Getenv("E2E_HELPER_MAIN_ARGS") != "" {
		return
	}
	os.Unsetenv("CI")
	os.Unsetenv("GITHUB_ACTIONS")
	os.Unsetenv("GITHUB_STEP_SUMMARY")
	for _, k := range ciRunIDs { // a run's default --run-group
		os.Unsetenv(k)
	}
}

// suiteFiles are twelve tests against the fixture app: the bundled examples
// and seven more of the same kinds, most of which wait on the app.
func suiteFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, name := range []string{"booking.e2e.yaml", "login.e2e.yaml", "product.e2e.yaml", "search.e2e.yaml", "users.e2e.yaml"} {
		b, err := examples.FS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(b)
	}
	more := map[string]string{
		"carol.e2e.yaml":  "name: carol menu\nurl: /users\nsteps:\n  - click: the Menu button in the Carol row\n  - expect: { visible: the Archive menu item }\n",
		"dave.e2e.yaml":   "name: dave menu\nurl: /users\nsteps:\n  - click: the Menu button in the Dave row\n  - expect: { visible: the Edit menu item }\n",
		"third.e2e.yaml":  "name: third product twice\nurl: /product?id=3\nsteps:\n  - click: the Add to cart button\n  - click: the Add to cart button\n  - expect: { text: { in: the cart status, is: \"Cart: 2 items\" } }\n",
		"late.e2e.yaml":   "name: late action\nurl: /actions\nsteps:\n  - click: the Late action button\n  - expect: { text: { in: the Action log, contains: \"Clicked: Late action\" } }\n",
		"runner.e2e.yaml": "name: search runner\nurl: /search\nsteps:\n  - type: { into: the Search products box, text: trail }\n  - press: { key: Enter, in: the Search products box }\n  - expect: { visible: the Trail Runner 2 link }\n",
		"second.e2e.yaml": "name: second product\nurl: /product?id=2\nsteps:\n  - click: the Add to cart button\n  - expect: { text: { in: the cart status, is: \"Cart: 1 item\" } }\n",
		"open.e2e.yaml":   "name: search then open\nurl: /search\nsteps:\n  - type: { into: the Search products box, text: trail }\n  - click: the Search button\n  - expect: { visible: the Trail Runner 2 link }\n  - click: the Trail Runner 2 link\n  - expect: { title: { contains: Trail Runner 2 } }\n",
	}
	for k, v := range more {
		files[k] = v
	}
	if len(files) != 12 {
		t.Fatalf("%d files", len(files))
	}
	return files
}

// junitDoc is the part of JUnit XML that GitHub test reporters, GitLab and
// Jenkins read, declared independently of the writer.
type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    *int     `xml:"tests,attr"`
	Failures *int     `xml:"failures,attr"`
	Time     string   `xml:"time,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    *int   `xml:"tests,attr"`
		Failures *int   `xml:"failures,attr"`
		Time     string `xml:"time,attr"`
		Cases    []struct {
			Name       string `xml:"name,attr"`
			Classname  string `xml:"classname,attr"`
			Time       string `xml:"time,attr"`
			File       string `xml:"file,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			FlakyFailures []struct {
				Message string `xml:"message,attr"`
			} `xml:"flakyFailure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// checkJUnit validates the structure and the counts of a JUnit file and
// returns its test cases by name.
func checkJUnit(t *testing.T, path string, wantTests, wantFailures int) map[string]map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "<?xml") {
		t.Error("no XML declaration")
	}
	// The schema first (docs/schema/junit.xsd, with xmllint), then what the
	// schema cannot say: the counts add up and each case names its file.
	xsd := filepath.Join("..", "..", "docs", "schema", "junit.xsd")
	if out, err := exec.Command("xmllint", "--noout", "--schema", xsd, path).CombinedOutput(); err != nil {
		t.Errorf("%s does not match %s (xmllint, from libxml2-utils, which make test installs): %v\n%s", path, xsd, err, out)
	}
	var doc junitDoc
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("junit: %v", err)
	}
	if doc.Tests == nil || doc.Failures == nil || *doc.Tests != wantTests || *doc.Failures != wantFailures {
		t.Errorf("testsuites tests=%v failures=%v, want %d and %d", doc.Tests, doc.Failures, wantTests, wantFailures)
	}
	seconds := func(what, s string) {
		if f, err := strconv.ParseFloat(s, 64); err != nil || f < 0 {
			t.Errorf("%s time %q", what, s)
		}
	}
	seconds("testsuites", doc.Time)
	cases := map[string]map[string]string{}
	total, failures := 0, 0
	for _, s := range doc.Suites {
		if s.Name == "" || s.Tests == nil || s.Failures == nil || *s.Tests != len(s.Cases) {
			t.Errorf("testsuite %q: tests=%v for %d cases", s.Name, s.Tests, len(s.Cases))
		}
		seconds("testsuite "+s.Name, s.Time)
		f := 0
		for _, c := range s.Cases {
			total++
			if c.Name == "" || c.Classname == "" || c.File != s.Name {
				t.Errorf("testcase %+v", c)
			}
			seconds("testcase "+c.Name, c.Time)
			props := map[string]string{}
			for _, p := range c.Properties {
				props[p.Name] = p.Value
			}
			for _, k := range []string{"flaky", "healed", "attempts"} {
				if props[k] == "" {
					t.Errorf("testcase %s lacks the %s property", c.Name, k)
				}
			}
			if c.Failure != nil {
				f++
				if c.Failure.Message == "" || !strings.Contains(c.Failure.Text, s.Name+":") {
					t.Errorf("testcase %s failure %+v", c.Name, c.Failure)
				}
				props["failure"] = c.Failure.Message
			}
			props["flakyFailures"] = strconv.Itoa(len(c.FlakyFailures))
			cases[c.Name] = props
		}
		if *s.Failures != f {
			t.Errorf("testsuite %s: failures=%d, %d failed cases", s.Name, *s.Failures, f)
		}
		failures += f
	}
	if total != wantTests || failures != wantFailures {
		t.Errorf("%d cases, %d failed", total, failures)
	}
	return cases
}

// TestCISuite runs twelve tests with --ci on four workers and every
// reporter, checks the JUnit, the JSON and the HTML report (opened in
// Chromium), then splits the suite into three shards.
func TestCISuite(t *testing.T) {
	t.Parallel()
	signIn := []string{"E2E_USER=alice@example.com", "E2E_PASSWORD=correct-horse"} // for e2e run, in a child
	base := fixtureServer(t)
	dir := project(t, base, suiteFiles(t))
	// Four workers on a shared 2-core machine: give steps room.
	cfg := fmt.Sprintf("baseURL: %s\ntests: [\"*.e2e.yaml\"]\ntimeouts: { step: 15s }\n", base)
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	junit, jsonPath, htmlDir := filepath.Join(out, "junit.xml"), filepath.Join(out, "e2e.json"), filepath.Join(out, "report")
	code, stdout, stderr := e2eEnv(t, signIn, "run", "--config", dir, "--ci", "--workers", "4", "--screenshots", "on",
		"--reporter", "line,junit="+junit, "--reporter", "json="+jsonPath+",html="+htmlDir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	// One line per test, a summary, nothing per step.
	if n := strings.Count(stdout, "✓ "); n != 12 || strings.Contains(stdout, "located ") ||
		!strings.Contains(stdout, "12 tests: 12 passed, 0 failed, 0 flaky, 0 healed") {
		t.Errorf("CI output (%d test lines):\n%s", n, stdout)
	}
	checkJUnit(t, junit, 12, 0)

	var rep struct {
		Run struct {
			ID      int64  `json:"id"`
			Status  string `json:"status"`
			Workers int    `json:"workers"`
		} `json:"run"`
		Summary map[string]float64 `json:"summary"`
		Tests   []struct {
			Name     string `json:"name"`
			Status   string `json:"status"`
			Attempts int    `json:"attempts"`
			Flaky    *bool  `json:"flaky"`
			Healed   *bool  `json:"healed"`
			Worker   int    `json:"worker"`
			Steps    []map[string]any
		} `json:"tests"`
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Run.Status != "passed" || rep.Run.Workers != 4 || len(rep.Tests) != 12 || rep.Summary["tests"] != 12 || rep.Summary["passed"] != 12 {
		t.Errorf("json run %+v summary %v", rep.Run, rep.Summary)
	}
	for _, k := range []string{"flaky", "healed", "cacheHitRate", "modelCalls", "tokensIn", "tokensOut", "cost", "ms", "hits", "located", "misses"} {
		if _, ok := rep.Summary[k]; !ok {
			t.Errorf("json summary lacks %s", k)
		}
	}
	steps := 0
	for _, tt := range rep.Tests {
		if tt.Status != "passed" || tt.Attempts != 1 || tt.Flaky == nil || tt.Healed == nil || tt.Worker < 1 || tt.Worker > 4 {
			t.Errorf("json test %+v", tt)
		}
		for _, s := range tt.Steps {
			steps++
			for _, k := range []string{"index", "line", "command", "kind", "status", "cache", "ms", "llmCalls", "tokensIn", "tokensOut", "screenshot"} {
				if _, ok := s[k]; !ok {
					t.Errorf("json step of %s lacks %s: %v", tt.Name, k, s)
				}
			}
		}
	}

	// The HTML report: one folder with the page and a screenshot per step.
	index := filepath.Join(htmlDir, "index.html")
	shots, _ := filepath.Glob(filepath.Join(htmlDir, "files", "*.png"))
	if len(shots) != steps {
		t.Errorf("%d screenshots in the report for %d steps", len(shots), steps)
	}
	if !strings.Contains(stdout, "HTML report: "+index) {
		t.Errorf("the output does not name the report:\n%s", stdout)
	}
	html, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(html), "http://") || strings.Contains(string(html), "https://") {
		t.Error("the HTML report refers to outside addresses")
	}
	lookAtReport(t, index, 12, steps)

	// Three shards, each on its own copy of the database as CI machines
	// restore it: together exactly the suite, no test twice.
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		p := filepath.Join(out, fmt.Sprintf("shard%d.json", i))
		db := filepath.Join(t.TempDir(), "e2e.db")
		for _, suffix := range []string{"", "-wal", "-shm"} {
			if b, err := os.ReadFile(filepath.Join(dir, ".e2e", "e2e.db"+suffix)); err == nil {
				if err := os.WriteFile(db+suffix, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		code, stdout, _ := e2eEnv(t, signIn, "run", "--config", dir, "--db", db, "--ci", "--shard", fmt.Sprintf("%d/3", i), "--reporter", "json="+p)
		if code != 0 {
			t.Fatalf("shard %d: exit %d\n%s", i, code, stdout)
		}
		var sh struct {
			Run   struct{ Shard string }
			Tests []struct{ Name string }
		}
		b, _ := os.ReadFile(p)
		if err := json.Unmarshal(b, &sh); err != nil {
			t.Fatal(err)
		}
		if sh.Run.Shard != fmt.Sprintf("%d/3", i) || len(sh.Tests) < 2 || len(sh.Tests) > 6 {
			t.Errorf("shard %d: %s, %d tests", i, sh.Run.Shard, len(sh.Tests))
		}
		for _, tt := range sh.Tests {
			seen[tt.Name]++
		}
	}
	var names []string
	for _, tt := range rep.Tests {
		names = append(names, tt.Name)
		if seen[tt.Name] != 1 {
			t.Errorf("%s ran in %d shards", tt.Name, seen[tt.Name])
		}
	}
	if len(seen) != 12 {
		sort.Strings(names)
		t.Errorf("the shards ran %v, the suite is %v", seen, names)
	}
}

// lookAtReport opens the HTML report from disk in headless Chromium and
// checks what a person sees: the summary, the test list, thumbnails that
// load and enlarge on a click. E2E_REPORT_SCREENSHOT=path keeps a
// screenshot of it.
func lookAtReport(t *testing.T, index string, tests, thumbs int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := browser.Launch(ctx, browser.Options{Width: 1280, Height: 900})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.Navigate(ctx, "file://"+index); err != nil {
		t.Fatal(err)
	}
	var seen struct {
		Passed, Failed, Status string
		Tests, Thumbs, Loaded  int
		Cards                  []string
	}
	const js = `() => new Promise(done => {
	  const thumbs = [...document.querySelectorAll('img.thumb')];
	  // lazy images load once they are near the viewport: load them all
	  thumbs.forEach(i => i.loading = 'eager');
	  const check = () => {
	    const loaded = thumbs.filter(i => i.complete && i.naturalWidth > 0).length;
	    if (loaded < thumbs.length && performance.now() < 20000) return setTimeout(check, 50);
	    done({
	      passed: document.querySelector('#n-passed').textContent, failed: document.querySelector('#n-failed').textContent,
	      status: document.querySelector('#run-status').textContent,
	      tests: document.querySelectorAll('details.test').length, thumbs: thumbs.length, loaded,
	      cards: [...document.querySelectorAll('#summary .l')].map(e => e.textContent)});
	  };
	  check();
	})`
	if err := p.Eval(ctx, &seen, js); err != nil {
		t.Fatal(err)
	}
	if seen.Passed != strconv.Itoa(tests) || seen.Failed != "0" || seen.Status != "passed" || seen.Tests != tests {
		t.Errorf("the report shows %+v", seen)
	}
	if seen.Thumbs != thumbs || seen.Loaded != thumbs {
		t.Errorf("%d thumbnails, %d loaded, want %d", seen.Thumbs, seen.Loaded, thumbs)
	}
	for _, want := range []string{"passed", "failed", "flaky", "healed", "cache hit rate", "model calls", "tokens in/out", "cost", "time"} {
		found := false
		for _, c := range seen.Cards {
			found = found || c == want
		}
		if !found {
			t.Errorf("the summary lacks %q: %v", want, seen.Cards)
		}
	}
	if shot := os.Getenv("E2E_REPORT_SCREENSHOT"); shot != "" {
		png, err := p.Screenshot(ctx)
		if err == nil {
			err = os.WriteFile(shot, png, 0o644)
		}
		if err != nil {
			t.Error(err)
		}
	}
	// Opening the first test and clicking its first thumbnail enlarges it.
	var open bool
	if err := p.Eval(ctx, &open, `() => { const d = document.querySelector('details.test'); d.open = true;
	  d.querySelector('img.thumb').click(); const box = document.getElementById('lightbox');
	  return box.classList.contains('open') && getComputedStyle(box).display === 'flex' && box.querySelector('img').src.endsWith('.png'); }`); err != nil || !open {
		t.Errorf("a click on a thumbnail did not enlarge it (%v)", err)
	}
	if shot := os.Getenv("E2E_REPORT_SCREENSHOT"); shot != "" {
		if png, err := p.Screenshot(ctx); err == nil {
			_ = os.WriteFile(strings.TrimSuffix(shot, ".png")+"-lightbox.png", png, 0o644)
		}
	}
}

// TestCIRetriesFlakyAndExitCodes: a deliberately flaky test passes on a
// retry and is marked flaky in the output and the JUnit; without retries
// it fails the run (exit 1) with a GitHub annotation at the step's line and
// a step summary; bad flags exit 2.
func TestCIRetriesFlakyAndExitCodes(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	key := strconv.FormatInt(time.Now().UnixNano(), 36)
	flaky := func(k string) string {
		return "name: flaky\nurl: /flaky?key=" + k + "&fails=1\nsteps:\n  - expect: { text: { in: the status, contains: Ready on attempt } }\n"
	}
	dir := project(t, base, map[string]string{"flaky.e2e.yaml": flaky("a" + key), "cart.e2e.yaml": cartTest})
	junit := filepath.Join(dir, "junit.xml")
	code, out, errOut := e2e(t, "run", "--config", dir, "--ci", "--retries", "1", "--reporter", "junit="+junit)
	if code != 0 || !strings.Contains(out, "[flaky: passed on attempt 2]") || !strings.Contains(out, "2 passed, 0 failed, 1 flaky") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	cases := checkJUnit(t, junit, 2, 0)
	if c := cases["flaky"]; c["flaky"] != "true" || c["attempts"] != "2" || c["flakyFailures"] != "1" {
		t.Errorf("junit flaky case %v", c)
	}
	if c := cases["add to cart"]; c["flaky"] != "false" || c["attempts"] != "1" {
		t.Errorf("junit passing case %v", c)
	}

	// Without retries, in GitHub Actions.
	summary := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(filepath.Join(dir, "flaky.e2e.yaml"), []byte(flaky("b"+key)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = e2eEnv(t, []string{"GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY=" + summary}, "run", "--config", dir, "--ci", "--grep", "flaky")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	file := filepath.ToSlash(filepath.Join(dir, "flaky.e2e.yaml"))
	if wd, _ := os.Getwd(); strings.HasPrefix(file, wd+"/") {
		file = strings.TrimPrefix(file, wd+"/")
	}
	if !strings.Contains(out, "::error file="+file+",line=4,title=e2e%3A flaky failed::") || strings.Contains(out, "add to cart") {
		t.Errorf("annotations (only the grep'd test runs):\n%s", out)
	}
	md, err := os.ReadFile(summary)
	if err != nil || !strings.Contains(string(md), "## e2e run: ❌ failed") || !strings.Contains(string(md), "| 1 | 0 | 1 | 0 | 0 |") ||
		!strings.Contains(string(md), "- **flaky** (`"+file+":4`)") {
		t.Errorf("step summary (%v):\n%s", err, md)
	}

	// --grep-invert leaves the other test, which passes.
	if code, out, _ := e2e(t, "run", "--config", dir, "--ci", "--grep-invert", "^fla"); code != 0 || !strings.Contains(out, "1 test: 1 passed") {
		t.Errorf("grep-invert: exit %d\n%s", code, out)
	}
	for _, bad := range [][]string{{"--shard", "4/3"}, {"--shard", "x"}, {"--reporter", "xml=out.xml"}, {"--workers", "0"},
		{"--screenshots", "sometimes"}, {"--video", "always"}, {"--grep", "("}} {
		code, _, errOut := e2e(t, append([]string{"run", "--config", dir}, bad...)...)
		if code != 2 || errOut == "" {
			t.Errorf("%v: exit %d %q", bad, code, errOut)
		}
	}
}

// TestCIFailOnHealExitsThree: a popup breaks a recorded act; the scripted
// agent heals it (staged), so the run passes, but --fail-on-heal makes it
// exit 3; the HTML report shows the heal's old and new trajectories.
func TestCIFailOnHealExitsThree(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"act.e2e.yaml": `name: act
url: /product
steps:
  - act: put the shoe in the cart
  - expect: { text: { in: the cart status, is: "Cart: 1 item" } }
`})
	finish := agenttest.ToolCall("finish", map[string]any{"success": true, "message": "done", "autoGeneratedPostcondition": "the cart shows one item"}).Usage(800, 20)
	srv := agenttest.New(t,
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type CLICK --description "the Add to cart button"`}}).Usage(1200, 30), finish)
	model := []string{"--model", "scripted", "--model-url", srv.URL()}
	recJSON := filepath.Join(dir, "record.json")
	if code, out, errOut := e2e(t, append([]string{"run", "--config", dir, "--ci", "--reporter", "json=" + recJSON}, model...)...); code != 0 {
		t.Fatalf("record: %d\n%s\n%s", code, out, errOut)
	}
	// The JSON counts the scripted server's tokens against the act step
	// that spent them, and none against the expect.
	var rec struct {
		Summary struct {
			ModelCalls, TokensIn, TokensOut int
		} `json:"summary"`
		Tests []struct {
			Steps []struct {
				LLMCalls  int `json:"llmCalls"`
				TokensIn  int `json:"tokensIn"`
				TokensOut int `json:"tokensOut"`
			} `json:"steps"`
		} `json:"tests"`
	}
	if b, err := os.ReadFile(recJSON); err != nil || json.Unmarshal(b, &rec) != nil || len(rec.Tests) != 1 || len(rec.Tests[0].Steps) != 2 {
		t.Fatalf("record json: %v\n%s", err, b)
	}
	if st := rec.Tests[0].Steps; st[0].LLMCalls != 2 || st[0].TokensIn != 2000 || st[0].TokensOut != 50 || st[1].TokensIn != 0 || st[1].LLMCalls != 0 ||
		rec.Summary.ModelCalls != 2 || rec.Summary.TokensIn != 2000 || rec.Summary.TokensOut != 50 {
		t.Errorf("tokens per step %+v, summary %+v; want the act's 2 calls with 2000 in and 50 out", st, rec.Summary)
	}
	srv.Add(agenttest.ToolCall("execute_step", map[string]any{"steps": []string{
		`--step-type CLICK --description "the No thanks button"`, `--step-type CLICK --description "the Add to cart button"`}}), finish)
	htmlDir, jsonPath := filepath.Join(dir, "report"), filepath.Join(dir, "r.json")
	code, out, errOut := e2e(t, append([]string{"run", "--config", dir, "--variant", "popup", "--ci", "--fail-on-heal",
		"--reporter", "html=" + htmlDir + ",json=" + jsonPath}, model...)...)
	if code != exitHealed || !strings.Contains(out, "[healed]") || !strings.Contains(out, "1 passed, 0 failed, 0 flaky, 1 healed") {
		t.Fatalf("heal run: exit %d\n%s\n%s", code, out, errOut)
	}
	html, err := os.ReadFile(filepath.Join(htmlDir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Heal 1 (staged)", `class="add">--step-type CLICK --description &#34;the No thanks button&#34;`, "the No thanks button", "recorded trajectory", "healed trajectory"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	var rep struct {
		Tests []struct {
			Healed bool    `json:"healed"`
			Heals  []int64 `json:"heals"`
		} `json:"tests"`
	}
	b, _ := os.ReadFile(jsonPath)
	if err := json.Unmarshal(b, &rep); err != nil || len(rep.Tests) != 1 || !rep.Tests[0].Healed || len(rep.Tests[0].Heals) != 1 {
		t.Errorf("json: %s", b)
	}
	// The next run replays the staged heal without the model, but still
	// passes only through it: exit 3 again, until someone reviews it (a
	// rerun of the job does not get a heal past review).
	if code, out, _ := e2e(t, append([]string{"run", "--config", dir, "--variant", "popup", "--ci", "--fail-on-heal"}, model...)...); code != exitHealed || srv.Count() != 4 ||
		!strings.Contains(out, "1 passed, 0 failed, 0 flaky, 1 healed") {
		t.Errorf("replaying the staged heal: exit %d, %d model calls\n%s", code, srv.Count(), out)
	}
	// Accepted, the heal is the trajectory: the run passes clean, exit 0.
	if code, out, errOut := e2e(t, "heals", "accept", "1", "--config", dir); code != 0 {
		t.Fatalf("accept: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, _ := e2e(t, append([]string{"run", "--config", dir, "--variant", "popup", "--ci", "--fail-on-heal"}, model...)...); code != 0 || srv.Count() != 4 ||
		!strings.Contains(out, "1 passed, 0 failed, 0 flaky, 0 healed") {
		t.Errorf("after accepting the heal: exit %d, %d model calls\n%s", code, srv.Count(), out)
	}
}

// TestColorFlag: output is plain unless colour is asked for (--color
// always, or FORCE_COLOR), and NO_COLOR or CI mode keep auto plain.
func TestColorFlag(t *testing.T) {
	for _, k := range []string{"CI", "NO_COLOR", "FORCE_COLOR", "GITHUB_ACTIONS"} {
		t.Setenv(k, "")
	}
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"cart.e2e.yaml": cartTest})
	const esc = "\x1b["
	green, reset := "\x1b[32m", "\x1b[0m"
	for _, c := range []struct {
		name   string
		env    []string
		args   []string
		colour []string // coloured pieces the output must hold; none: no escape at all
	}{
		{name: "auto, not a terminal", args: []string{"run", "--config", dir}},
		{name: "always", args: []string{"run", "--config", dir, "--color", "always"},
			colour: []string{green + "✓" + reset + " click the Add to cart button", green + "1 passed" + reset}},
		{name: "CI mode, always", args: []string{"run", "--config", dir, "--ci", "--color", "always"},
			colour: []string{green + "✓" + reset + " add to cart (", green + "1 passed" + reset + ", 0 failed"}},
		{name: "FORCE_COLOR", env: []string{"FORCE_COLOR", "1"}, args: []string{"run", "--config", dir, "--ci"},
			colour: []string{green + "✓" + reset + " add to cart"}},
		{name: "never beats FORCE_COLOR", env: []string{"FORCE_COLOR", "1"}, args: []string{"run", "--config", dir, "--color", "never"}},
		{name: "NO_COLOR", env: []string{"NO_COLOR", "1"}, args: []string{"run", "--config", dir}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if len(c.env) == 2 {
				t.Setenv(c.env[0], c.env[1])
			}
			code, out, errOut := e2e(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
			}
			if len(c.colour) == 0 && strings.Contains(out, esc) {
				t.Errorf("plain output expected, got escapes:\n%q", out)
			}
			for _, want := range c.colour {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%q", want, out)
				}
			}
		})
	}
	if code, _, errOut := e2e(t, "run", "--config", dir, "--color", "rainbow"); code != exitUsage || !strings.Contains(errOut, "--color \"rainbow\": want auto, always or never") {
		t.Errorf("--color rainbow: exit %d, %s", code, errOut)
	}
}
