package main

import (
	"bytes"
	"context"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/fixture"
)

// e2e runs the command line in-process and returns its exit code and output.
// Under -short, a command that may launch a browser skips the test.
func e2e(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if len(args) > 0 && browserCommands[args[0]] {
		skipShort(t, "a browser")
	}
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(withTest(context.Background(), t), 2*time.Minute)
	defer cancel()
	code = run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// fixtureServer serves the fixture app for t (skipped under -short: the
// fixture is there for a browser).
func fixtureServer(t *testing.T) string {
	t.Helper()
	skipShort(t, "a browser")
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// ourChromium lists browser processes started by this test process (their
// profile directory names our pid).
func ourChromium(t *testing.T) []string {
	t.Helper()
	marker := "e2e-chrome-" + strconv.Itoa(os.Getpid()) + "-"
	mine := sharedBrowserProfile()
	var found []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if strings.Contains(string(b), marker) && (mine == "" || !strings.Contains(string(b), mine)) {
			found = append(found, p)
		}
	}
	return found
}

func noChromiumLeft(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // generous: ends when they are gone
	for {
		left := ourChromium(t)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Chromium processes left behind: %v", left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestSnapshotCommand(t *testing.T) {
	base := fixtureServer(t)
	t.Run("in a browser of its own, gone after", func(t *testing.T) {
		ownBrowser(t)
		code, out, errOut := e2e(t, "snapshot", base+"/login")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.Contains(out, `- button "Sign in" [ref=`) || !strings.Contains(out, `- heading "Sign in" [level=1]`) {
			t.Errorf("unexpected outline:\n%s", out)
		}
		noChromiumLeft(t)
	})
	code, out, _ := e2e(t, "snapshot", "--interactive-only", base+"/login")
	if code != 0 || strings.Contains(out, "heading") || !strings.Contains(out, "textbox \"Email\"") {
		t.Errorf("--interactive-only (exit %d):\n%s", code, out)
	}
	code, out, _ = e2e(t, "snapshot", "--json", base+"/login")
	if code != 0 || !strings.Contains(out, `"role": "button"`) || !strings.Contains(out, `"box"`) {
		t.Errorf("--json (exit %d):\n%s", code, out)
	}
	// Refs are deterministic for a page, so a ref from one run scopes the next.
	ref := between(t, out, `"name": "Sign in"`, `"ref": "`, `"`)
	code, out, errOut := e2e(t, "snapshot", "--scope", ref, base+"/login")
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(out, `"Sign in" [url=/login] [ref=`+ref+`]`) {
		t.Errorf("--scope %s (exit %d, %s):\n%s", ref, code, errOut, out)
	}
	code, out, _ = e2e(t, "snapshot", "--max-nodes", "20", base+"/rows?n=100")
	if code != 0 || !strings.Contains(out, "more (snapshot capped at 20 nodes") {
		t.Errorf("--max-nodes (exit %d):\n%s", code, out)
	}
	code, out, _ = e2e(t, "snapshot", "--max-text", "5", "--max-total-text", "40", base+"/login")
	if code != 0 || !strings.Contains(out, `link "Trail… 4 more characters"`) ||
		!strings.Contains(out, "more characters (snapshot text capped at 40 characters; scope to a ref to see them)") {
		t.Errorf("--max-text, --max-total-text (exit %d):\n%s", code, out)
	}
}

// between finds after, then the text between open and close that follows it.
func between(t *testing.T, s, after, open, close string) string {
	t.Helper()
	i := strings.Index(s, after)
	if i < 0 {
		t.Fatalf("%q not in output", after)
	}
	rest := s[i:]
	j := strings.Index(rest, open)
	if j < 0 {
		t.Fatalf("%q not after %q", open, after)
	}
	rest = rest[j+len(open):]
	return rest[:strings.Index(rest, close)]
}

func TestSnapshotCommandErrors(t *testing.T) {
	ownBrowser(t) // it checks what a launch leaves behind
	base := fixtureServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/"
	ln.Close()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unreachable", []string{"snapshot", closed}, "connection refused"},
		{"not html", []string{"snapshot", base + "/json"}, "is not an HTML page (it answered application/json)"},
		{"missing browser", []string{"snapshot", "--chrome", "/nonexistent/chromium", base + "/login"}, "no browser found: --chrome=/nonexistent/chromium is not an executable"},
		{"bad url", []string{"snapshot", "ftp://example.test/"}, `scheme "ftp" is not http, https or file`},
		{"unknown scope", []string{"snapshot", "--scope", "e9999", base + "/login"}, "no element e9999 in this page's outline (refs go up to e"},
		{"no args", []string{"snapshot"}, "accepts 1 argument, received 0"},
		{"path, no baseURL", []string{"snapshot", "--config", t.TempDir(), "/login"}, "/login is a path and no e2e.yaml here has a baseURL: give a whole URL (http://localhost:8080/login), pass --base-url, or run it in the project (--config DIR)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := e2e(t, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "e2e: ") || !strings.Contains(lines[0], c.want) {
				t.Errorf("want one line with %q, got:\n%s", c.want, errOut)
			}
			noChromiumLeft(t)
		})
	}
}

// TestSnapshotOfAPath: a path opens under the baseURL of the project's
// e2e.yaml, or under --base-url, as a test's url: does.
func TestSnapshotOfAPath(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte("baseURL: "+base+"/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"snapshot", "--config", dir, "/login"}, {"snapshot", "--base-url", base, "/login"}} {
		code, out, errOut := e2e(t, args...)
		if code != 0 || !strings.Contains(out, `button "Sign in"`) {
			t.Errorf("%v: exit %d %s\n%s", args, code, errOut, out)
		}
	}
}

func TestVersionAndFixtureCommands(t *testing.T) {
	code, out, _ := e2e(t, "version")
	if code != 0 || !strings.HasPrefix(out, "e2e v") {
		t.Errorf("version: exit %d %q", code, out)
	}
	code, _, errOut := e2e(t, "fixture", "serve", "--variant", "bogus")
	if code != 2 || !strings.Contains(errOut, `unknown variant "bogus"`) {
		t.Errorf("fixture serve --variant bogus: exit %d %q", code, errOut)
	}
}
