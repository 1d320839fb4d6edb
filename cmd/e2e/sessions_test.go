package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/report"
)

// sessionFlow signs in, then stores a theme in localStorage and a
// dismissed notice in sessionStorage on /account: all of it is the state
// a session captures.
const sessionFlow = `name: sign in
params: [user, password]
url: /login
steps:
  - type: { into: the email field, text: "{{ user }}" }
  - type: { into: the password field, text: "{{ password }}" }
  - click: the Sign in button
  - navigate: /account
  - click: the Use the dark theme button
  - click: the Dismiss the notice button
`

// sessionsConfig is the sessions: of the tests' e2e.yaml.
const sessionsConfig = `sessions:
  signed in:
    flow: sign in
    with: { user: "{{ env.E2E_SESSION_USER }}", password: "{{ secret.E2E_SESSION_PW }}" }
    check: { url: /account }
`

// signedInTest is a test that starts signed in: it sees /account, the
// theme from localStorage and the notice dismissed in sessionStorage.
func signedInTest(name string) string {
	return "name: " + name + "\nurl: /account\nsession: signed in\nsteps:\n" +
		"  - expect: { text: { in: the Theme status, is: \"Theme: dark\" } }\n" +
		"  - expect: { text: { in: the Notice status, contains: dismissed } }\n"
}

// signIns serves the fixture and counts its sign-ins (POST /login); it
// keeps the session cookies it gave.
type signIns struct {
	mu     sync.Mutex
	n      int
	tokens []string
}

func (s *signIns) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *signIns) given() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.tokens...)
}

func countSignIns(t *testing.T) (string, *signIns) {
	t.Helper()
	skipShort(t, "a browser")
	s := &signIns{}
	h := fixture.Handler(fixture.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		if r.Method != http.MethodPost || r.URL.Path != "/login" {
			return
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		s.n++
		for _, c := range (&http.Response{Header: w.Header()}).Cookies() {
			if c.Name == "e2e_session" && c.Value != "" {
				s.tokens = append(s.tokens, c.Value)
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, s
}

// sessionProject is a project with the sign-in flow, sessions: and tests.
func sessionProject(t *testing.T, base, sessions string, tests map[string]string) string {
	t.Helper()
	dir := project(t, base, tests)
	cfg := filepath.Join(dir, "e2e.yaml")
	src, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(src, sessions...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "flows"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "flows", "sign-in.flow.yaml"), []byte(sessionFlow), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var sessionEnv = []string{"E2E_SESSION_USER=alice@example.com", "E2E_SESSION_PW=correct-horse"}

// TestSessionSignsInOnce: three tests say session: signed in; the flow
// runs once (one sign-in) and each test starts with its cookie, its local
// storage and its session storage. One test fails quoting the page that
// shows the session cookie's value: that value, and the password, are in
// no output (stdout, stderr, the database and its WAL, the JSON, JUnit
// and HTML reports, file names).
func TestSessionSignsInOnce(t *testing.T) {
	t.Parallel()
	base, logins := countSignIns(t)
	dir := sessionProject(t, base, sessionsConfig, map[string]string{
		"a.e2e.yaml": signedInTest("first"),
		"b.e2e.yaml": signedInTest("second"),
		"c.e2e.yaml": "name: third\nurl: /account\nsession: signed in\nsteps:\n" +
			"  - expect: { text: { in: the Session ID, is: \"Session ID (for support): none\" } }\n",
	})
	out := filepath.Join(dir, "out")
	code, stdout, stderr := e2eEnv(t, sessionEnv, "run", "--config", dir, "--workers", "1",
		"--reporter", "junit="+filepath.Join(out, "junit.xml")+",json="+filepath.Join(out, "results.json")+",html="+filepath.Join(out, "html"))
	if code != 1 || !strings.Contains(stdout, "2 passed") || !strings.Contains(stdout, "✓ first") || !strings.Contains(stdout, "✓ second") {
		t.Fatalf("want first and second to pass and third to fail: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := logins.count(); n != 1 {
		t.Errorf("the flow signed in %d times, want once for three tests:\n%s", n, stdout)
	}
	tokens := logins.given()
	if len(tokens) != 1 {
		t.Fatalf("session cookies given: %d", len(tokens))
	}
	if !strings.Contains(stdout, `Session ID (for support): ***`) {
		t.Errorf("the third test's failure does not quote the page, redacted:\n%s", stdout)
	}
	outputs := map[string]string{"stdout": stdout, "stderr": stderr}
	readOutputs(t, dir, outputs)
	if _, ok := outputs[filepath.Join(".e2e", "e2e.db")]; !ok {
		t.Errorf("no database among the outputs")
	}
	noLeak(t, outputs, append(leakForms(tokens[0]), leakForms("correct-horse")...))
}

// TestSessionCookieLeavesNoTrace: a test that starts signed in shows the
// page that prints the session cookie's value to the model twice (an
// assert the model judges, an act the agent plays) and fails quoting it;
// screenshots after every step, video of the failure and every report are
// on. The cookie's value (known from the fixture's Set-Cookie) and the
// password are in no output, in any encoding: stdout, stderr, the
// database and its WAL, the JSON, JUnit and HTML reports, file names, and
// every request the model server got (which did see the page, redacted).
func TestSessionCookieLeavesNoTrace(t *testing.T) {
	t.Parallel()
	base, logins := countSignIns(t)
	dir := sessionProject(t, base, sessionsConfig, map[string]string{
		"support.e2e.yaml": "name: support\nurl: /account\nsession: signed in\nsteps:\n" +
			"  - assert: the page shows a session id for support\n" +
			"  - act: use the dark theme\n" +
			"  - expect: { text: { in: the Session ID, is: \"Session ID (for support): none\" } }\n",
	})
	srv := agenttest.New(t,
		judge(true, "the page shows one"),
		agenttest.ToolCall("execute_step", map[string]any{"steps": []string{`--step-type CLICK --description "the Use the dark theme button"`}}),
		agenttest.ToolCall("finish", map[string]any{"success": true, "message": "dark", "autoGeneratedPostcondition": "the theme is dark"}))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := e2eEnv(t, sessionEnv, "run", "--config", dir, "--workers", "1", "--model", "scripted", "--model-url", srv.URL(),
		"--screenshots", "on", "--video", "failures",
		"--reporter", "junit="+filepath.Join(out, "junit.xml")+",json="+filepath.Join(out, "results.json")+",html="+filepath.Join(out, "html"))
	if code != 1 || !strings.Contains(stdout, "0 passed, 1 failed") {
		t.Fatalf("want the test to fail: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, `Session ID (for support): ***`) {
		t.Errorf("the failure does not quote the page, redacted:\n%s", stdout)
	}
	tokens := logins.given()
	if len(tokens) != 1 {
		t.Fatalf("session cookies given: %d", len(tokens))
	}
	outputs := map[string]string{"stdout": stdout, "stderr": stderr}
	if srv.Count() != 3 {
		t.Errorf("%d model requests, want 3 (the assert, the act's two turns)", srv.Count())
	}
	for i, r := range srv.Requests() {
		outputs[fmt.Sprintf("model request %d", i+1)] = string(r.Body)
		if !strings.Contains(string(r.Body), "Session ID (for support): ***") {
			t.Errorf("model request %d does not show the page, redacted", i+1)
		}
	}
	readOutputs(t, dir, outputs)
	for _, want := range []string{filepath.Join(".e2e", "e2e.db"), filepath.Join("out", "results.json"), filepath.Join("out", "junit.xml"), filepath.Join("out", "html", "index.html")} {
		if _, ok := outputs[want]; !ok {
			t.Errorf("no %s among the outputs", want)
		}
	}
	noLeak(t, outputs, append(leakForms(tokens[0], strings.TrimPrefix(tokens[0], "sess-")), leakForms("correct-horse")...))
}

// readOutputs adds every file under dir but the YAML and images (by
// path relative to dir) and the names of all of them ("file names") to
// outputs.
func readOutputs(t *testing.T, dir string, outputs map[string]string) {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel)
		if d.IsDir() || strings.HasSuffix(p, ".yaml") || filepath.Ext(p) == ".png" || filepath.Ext(p) == ".jpg" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		outputs[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	outputs["file names"] = strings.Join(names, "\n")
}

// TestSessionSharedByWorkers: four tests that need the session start at
// once on four workers; one of them captures it, the others wait for that
// capture: one sign-in, and all four pass.
func TestSessionSharedByWorkers(t *testing.T) {
	t.Parallel()
	base, logins := countSignIns(t)
	tests := map[string]string{}
	for _, n := range []string{"a", "b", "c", "d"} {
		tests[n+".e2e.yaml"] = signedInTest("test " + n)
	}
	dir := sessionProject(t, base, sessionsConfig, tests)
	code, stdout, stderr := e2eEnv(t, sessionEnv, "run", "--config", dir, "--workers", "4")
	if code != 0 || !strings.Contains(stdout, "4 passed") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := logins.count(); n != 1 {
		t.Errorf("four workers signed in %d times, want once:\n%s", n, stdout)
	}
}

// TestSessionCIShardsAndWorkers: e2e run --ci --workers 2 --shard i/2, as
// two CI machines run a suite: each shard is a run of its own that signs
// in once, its two workers starting two tests that need the session at
// once and sharing the one capture; a run with no test that needs the
// session never signs in.
func TestSessionCIShardsAndWorkers(t *testing.T) {
	t.Parallel()
	base, logins := countSignIns(t)
	tests := map[string]string{"cart.e2e.yaml": cartTest}
	for _, n := range []string{"a", "b", "c", "d"} {
		tests[n+".e2e.yaml"] = signedInTest("test " + n)
	}
	dir := sessionProject(t, base, sessionsConfig, tests)
	// Each shard has a database of its own, as a CI machine has, with no
	// durations in it: the tests go to the shards in name order, add to
	// cart, test b and test d to the first, test a and test c to the
	// second.
	want := map[string][]string{"1/2": {"add to cart", "test b", "test d"}, "2/2": {"test a", "test c"}}
	for k, shard := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "out", strconv.Itoa(k+1)+".json")
		code, stdout, stderr := e2eEnv(t, sessionEnv, "run", "--config", dir, "--ci", "--workers", "2", "--shard", shard,
			"--db", filepath.Join(dir, strconv.Itoa(k+1)+".db"), "--reporter", "line,json="+out)
		if code != 0 || !strings.Contains(stdout, fmt.Sprintf("%d tests (shard %s): %d passed, 0 failed", len(want[shard]), shard, len(want[shard]))) {
			t.Fatalf("shard %s: exit %d\n%s\n%s", shard, code, stdout, stderr)
		}
		if n := logins.count(); n != k+1 {
			t.Errorf("after shard %s, %d sign-ins in all, want %d: each shard signs in once, its workers sharing it:\n%s", shard, n, k+1, stdout)
		}
		var j report.JSON
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &j); err != nil {
			t.Fatal(err)
		}
		var names []string
		workers := map[string]map[int]bool{}
		for _, jt := range j.Tests {
			names = append(names, jt.Name)
			kind := "session"
			if jt.Name == "add to cart" {
				kind = "none"
			}
			if workers[kind] == nil {
				workers[kind] = map[int]bool{}
			}
			workers[kind][jt.Worker] = true
		}
		sort.Strings(names)
		if j.Run.Shard != shard || !slices.Equal(names, want[shard]) {
			t.Errorf("shard %s ran %v (report's shard %q), want %v", shard, names, j.Run.Shard, want[shard])
		}
		if shard == "2/2" && len(workers["session"]) != 2 {
			t.Errorf("shard %s: the tests that need the session ran on workers %v, want both", shard, workers["session"])
		}
	}
	code, stdout, stderr := e2eEnv(t, sessionEnv, "run", "--config", dir, "--ci", "--workers", "2", "--grep", "cart")
	if code != 0 || !strings.Contains(stdout, "1 test: 1 passed") {
		t.Fatalf("--grep cart: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := logins.count(); n != 2 {
		t.Errorf("a run with no test that needs the session signed in: %d sign-ins in all, want 2", n)
	}
}

// TestSessionExpiredIsCapturedAgain: the first test ends every sign-in on
// the server; the next test's check (/account) ends at /login, so the
// session is captured again, once, and that test passes.
func TestSessionExpiredIsCapturedAgain(t *testing.T) {
	t.Parallel()
	base, logins := countSignIns(t)
	dir := sessionProject(t, base, sessionsConfig, map[string]string{
		"a.e2e.yaml": "name: expire\nurl: /account\nsession: signed in\nsteps:\n  - navigate: /expire-sessions\n  - expect: { url: /login }\n",
		"b.e2e.yaml": signedInTest("after expiry"),
		"c.e2e.yaml": signedInTest("after the second capture"),
	})
	code, stdout, stderr := e2eEnv(t, sessionEnv, "run", "--config", dir, "--workers", "1")
	if code != 0 || !strings.Contains(stdout, "3 passed") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := logins.count(); n != 2 {
		t.Errorf("signed in %d times, want 2 (the second after the expiry):\n%s", n, stdout)
	}
	if strings.Count(stdout, "session signed in has expired (check.url /account showed /login): capturing it again") != 1 {
		t.Errorf("the output does not say once that the session expired:\n%s", stdout)
	}
}

// TestSessionCaptureFails: a wrong password keeps the flow from signing
// in; every test that needs the session is reported as not run because of
// it (a status of its own, not a failure), the flow's own failure shown
// once, while a test without it runs and passes. A session whose flow
// passes without signing in fails at its check. The same holds in the
// console, under --ci (its lines and summary), the JSON, JUnit and HTML
// reports and e2e runs show; no test is retried for it, and the run fails.
func TestSessionCaptureFails(t *testing.T) {
	t.Parallel()
	base, logins := countSignIns(t)
	dir := sessionProject(t, base, sessionsConfig+`  visitor:
    flow: look around
    check: { url: /account }
`, map[string]string{
		"a.e2e.yaml": signedInTest("needs it"),
		"b.e2e.yaml": signedInTest("needs it too"),
		"c.e2e.yaml": "name: visitor\nurl: /\nsession: visitor\nsteps:\n  - click: the Users link\n",
		"d.e2e.yaml": cartTest,
	})
	if err := os.WriteFile(filepath.Join(dir, "flows", "look.flow.yaml"), []byte("name: look around\nurl: /\nsteps:\n  - expect: { visible: the e2e fixture heading }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"E2E_SESSION_USER=alice@example.com", "E2E_SESSION_PW=wrong-horse"}
	const (
		flowFailure  = `flow "sign in", step 5 (flows/sign-in.flow.yaml:9):`
		signInReason = `session "signed in" could not sign in`
		checkFailure = `the flow "look around" passed, but check.url /account then showed /login: it did not sign in`
	)

	// The console: the session's flow prints its steps and its failure
	// once; each test that needed it says it was not run, and why, in a
	// few words.
	code, stdout, stderr := e2eEnv(t, env, "run", "--config", dir, "--workers", "1", "--retries", "1")
	if code != 1 || !strings.Contains(stdout, "1 passed, 0 failed, 3 not run") || !strings.Contains(stdout, "✓ add to cart") {
		t.Fatalf("want the cart test to pass and the three others not run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := logins.count(); n != 1 {
		t.Errorf("signed in %d times, want once: a capture that failed is not tried again by the tests after, nor by retries:\n%s", n, stdout)
	}
	for want, n := range map[string]int{
		"  - not run: " + signInReason + "\n":              2,
		"- needs it: not run\n":                            1,
		"- needs it too: not run\n":                        1,
		signInReason + ": " + flowFailure:                  0, // not repeated for each test
		"flows/sign-in.flow.yaml:9: ":                      1, // the flow's failing step, under the session's lines
		`  - not run: session "visitor" could not sign in`: 1,
		checkFailure: 1,
	} {
		if got := strings.Count(stdout, want); got != n {
			t.Errorf("the output has %q %d times, want %d:\n%s", want, got, n, stdout)
		}
	}
	if strings.Contains(stdout, "retrying needs it") {
		t.Errorf("a test that did not run is tried again:\n%s", stdout)
	}
	code, shown, stderr := e2e(t, "runs", "show", "1", "--config", dir)
	if code != 0 || !strings.Contains(shown, "4 tests: 1 passed, 0 failed, 3 not run") ||
		strings.Count(shown, flowFailure) != 1 || !strings.Contains(shown, "- not run: needs it, needs it too: "+signInReason+": "+flowFailure) ||
		!strings.Contains(shown, "- not run: visitor: session \"visitor\" could not sign in: "+checkFailure) {
		t.Errorf("runs show: exit %d\n%s\n%s", code, shown, stderr)
	}
	if !regexp.MustCompile(`(?m)^S\s+needs it\s+not run\s`).MatchString(shown) {
		t.Errorf("runs show does not mark needs it as not run:\n%s", shown)
	}

	// --ci with two workers and every report.
	out := filepath.Join(dir, "out")
	code, stdout, stderr = e2eEnv(t, env, "run", "--config", dir, "--ci", "--workers", "2", "--retries", "1",
		"--reporter", "line,json="+filepath.Join(out, "results.json")+",junit="+filepath.Join(out, "junit.xml")+",html="+filepath.Join(out, "html"))
	if code != 1 || !strings.Contains(stdout, "4 tests: 1 passed, 0 failed, 3 not run") {
		t.Fatalf("--ci: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := logins.count(); n != 2 {
		t.Errorf("the second run signed in %d times in all, want 2", n)
	}
	for want, n := range map[string]int{
		"- needs it (a.e2e.yaml) not run: " + signInReason + "\n":                           1,
		"- needs it too (b.e2e.yaml) not run: " + signInReason + "\n":                       1,
		"2 tests not run: " + signInReason + " (e2e.yaml:5): " + flowFailure:                1,
		`1 test not run: session "visitor" could not sign in (e2e.yaml:9): ` + checkFailure: 1,
		flowFailure: 1, // once, in the summary
	} {
		if got := strings.Count(stdout, want); got != n {
			t.Errorf("--ci: the output has %q %d times, want %d:\n%s", want, got, n, stdout)
		}
	}

	var j report.JSON
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if j.Run.Status != "failed" || j.Summary.NotRun != 3 || j.Summary.Failed != 0 || j.Summary.Passed != 1 || len(j.SessionFailures) != 2 {
		t.Errorf("JSON: run %s, summary %+v, session failures %+v", j.Run.Status, j.Summary, j.SessionFailures)
	} else if f := j.SessionFailures[0]; f.Session != "signed in" || f.File != "e2e.yaml" || f.Line != 5 || f.Flow != "sign in" || f.NotRun != 2 ||
		!strings.HasPrefix(f.Error, flowFailure) {
		t.Errorf("JSON: the session failure: %+v", f)
	}
	for _, jt := range j.Tests {
		want := string(session.TestNotRun)
		if jt.Name == "add to cart" {
			want = string(session.TestPassed)
		}
		if jt.Status != want || jt.Attempts != 1 {
			t.Errorf("JSON: %s is %s after %d attempts, want %s after 1", jt.Name, jt.Status, jt.Attempts, want)
		}
	}

	var ju report.JUnitSuites
	b, err = os.ReadFile(filepath.Join(out, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, &ju); err != nil {
		t.Fatal(err)
	}
	if ju.Tests != 6 || ju.Failures != 2 || ju.Skipped != 3 {
		t.Errorf("JUnit: %d tests, %d failures, %d skipped; want 6 (four and two sessions), 2 (the sessions) and 3:\n%s", ju.Tests, ju.Failures, ju.Skipped, b)
	}
	cases := map[string]report.JUnitCase{}
	for _, s := range ju.Suites {
		for _, c := range s.Cases {
			cases[c.Name] = c
		}
	}
	if c := cases["needs it"]; c.Failure != nil || c.Skipped == nil || c.Skipped.Message != "not run: "+signInReason+" (its failure is the testcase session: signed in)" {
		t.Errorf("JUnit: needs it: %+v", c)
	}
	if c := cases["session: signed in"]; c.Failure == nil || c.Failure.Type != "SessionFailed" || !strings.HasPrefix(c.Failure.Message, flowFailure) ||
		c.File != "e2e.yaml" || c.Line != 5 {
		t.Errorf("JUnit: the session's testcase: %+v", c)
	}
	if n := strings.Count(html.UnescapeString(string(b)), flowFailure); n != 2 { // the failure's message and its text
		t.Errorf("JUnit: the flow's failure is there %d times, want in its testcase only:\n%s", n, b)
	}

	b, err = os.ReadFile(filepath.Join(out, "html", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(string(b))
	for want, n := range map[string]int{
		`id="n-notrun">3<`:             1,
		`<details class="test notrun"`: 3,
		`session “signed in” (e2e.yaml:5) could not sign in, so 2 tests did not run: ` + flowFailure: 1,
		flowFailure: 1,
		`not run: ` + signInReason + ` (see above)`: 2,
	} {
		if got := strings.Count(page, want); got != n {
			t.Errorf("HTML: %q is there %d times, want %d", want, got, n)
		}
	}
}

// TestSessionProblemsBeforeABrowser: a test naming a session e2e.yaml
// lacks (did you mean), a session naming a flow no file names (did you
// mean), a parameter the flow lacks and one it needs that is not given
// are reported at their file:line:col, exit 2, before a browser starts.
func TestSessionProblemsBeforeABrowser(t *testing.T) {
	t.Parallel()
	dir := sessionProject(t, "http://127.0.0.1:9", `sessions:
  signed in: { flow: sign inn, check: { url: /account } }
  admin: { flow: sign in, with: { user: a, pasword: b }, check: { url: /admin } }
browser:
  chrome: /nope/chromium
`, map[string]string{
		"t.e2e.yaml": "name: t\nsession: signed on\nsteps:\n  - click: the Users link\n",
	})
	code, stdout, stderr := e2e(t, "run", "--config", dir)
	if code != 2 || strings.Contains(stderr, "not an executable") {
		t.Fatalf("want exit 2 before the browser is looked for: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		`t.e2e.yaml:2:10: no session is named "signed on"; did you mean "signed in"?`,
		"  2 | session: signed on\n    |          ^^^^^^^^^",
		`e2e.yaml:5:22: no flow is named "sign inn"; did you mean "sign in"?`,
		"  5 |   signed in: { flow: sign inn, check: { url: /account } }\n    |                      ^^^^^^^^",
		`e2e.yaml:6:44: flow "sign in" has no parameter "pasword"; did you mean password?`,
		`e2e.yaml:6:18: flow "sign in" needs password: give password under with:`,
	} {
		if !strings.Contains(stderr, filepath.FromSlash(want)) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.HasSuffix(stderr, "1 test file and e2e.yaml have problems\n") {
		t.Errorf("the count of files with problems:\n%s", stderr)
	}
}

// TestSessionUnsetSecretBeforeABrowser: a session that a test needs
// gives its flow a secret that is not set: an error at its place in
// e2e.yaml, exit 2, before a browser is looked for.
func TestSessionUnsetSecretBeforeABrowser(t *testing.T) {
	t.Parallel()
	dir := sessionProject(t, "http://127.0.0.1:9", sessionsConfig+"browser:\n  chrome: /nope/chromium\n",
		map[string]string{"a.e2e.yaml": signedInTest("needs it")})
	code, stdout, stderr := e2eEnv(t, []string{"E2E_SESSION_USER=alice@example.com"}, "run", "--config", dir)
	if code != 2 || strings.Contains(stderr, "not an executable") {
		t.Fatalf("want exit 2 before the browser is looked for: exit %d\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"e2e.yaml:7:59: {{ secret.E2E_SESSION_PW }} is not set: set the environment variable (a secret) E2E_SESSION_PW before the run",
		`  7 |     with: { user: "{{ env.E2E_SESSION_USER }}", password: "{{ secret.E2E_SESSION_PW }}" }`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// TestSessionsExample: examples/sessions, as its e2e.yaml says to run it:
// both tests pass, signed in once.
func TestSessionsExample(t *testing.T) {
	t.Parallel()
	base, logins := countSignIns(t)
	dir, err := filepath.Abs(filepath.Join(repoRoot, "examples", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"E2E_USER=alice@example.com", "E2E_PASSWORD=correct-horse"}
	code, stdout, stderr := e2eEnv(t, env, "run", "--config", dir, "--base-url", base, "--db", filepath.Join(t.TempDir(), "e2e.db"))
	if code != 0 || !strings.Contains(stdout, "2 passed, 0 failed") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if n := logins.count(); n != 1 {
		t.Errorf("signed in %d times, want once:\n%s", n, stdout)
	}
}

// TestSessionInTheStudio: e2e studio opens a test that says session:
// signed in; it runs with the session loaded (its cookie, its local and
// its session storage: the test's checks of the theme and the dismissed
// notice pass) after one sign-in. With a wrong password the studio shows
// the test as not run, and the flow's failure.
func TestSessionInTheStudio(t *testing.T) {
	t.Parallel()
	base, logins := countSignIns(t)
	// The studio runs in this process: the credentials are in e2e.yaml,
	// not in its environment.
	config := func(password string) string {
		return "sessions:\n  signed in:\n    flow: sign in\n    with: { user: alice@example.com, password: " + password + " }\n    check: { url: /account }\n"
	}
	dir := sessionProject(t, base, config("correct-horse"), map[string]string{"a.e2e.yaml": signedInTest("in the studio")})
	s := startStudio(t, filepath.Join(dir, "a.e2e.yaml"))
	s.waitFor("in the studio", "step 2/2", "│ passed")
	s.typeKeys("q")
	if err := s.wait(); err != nil {
		t.Fatalf("studio: %v", err)
	}
	if n := logins.count(); n != 1 {
		t.Errorf("the studio signed in %d times, want once", n)
	}

	dir = sessionProject(t, base, config("wrong-horse"), map[string]string{"a.e2e.yaml": signedInTest("in the studio")})
	s = startStudio(t, filepath.Join(dir, "a.e2e.yaml"))
	s.waitFor("│ not run", `session "signed in" could not sign in: flow "sign in", step 5`)
	s.typeKeys("q")
	if err := s.wait(); err != nil {
		t.Fatalf("studio: %v", err)
	}
}
