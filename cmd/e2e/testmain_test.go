package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// modelAndUserVars are cleared for the whole package: no test reaches a
// live model or signs in as whoever runs the tests; a test that needs one
// of them sets it with t.Setenv.
var modelAndUserVars = []string{"E2E_USER", "E2E_PASSWORD", "E2E_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"}

// The package's long commands start in child processes when the tests
// start, and run beside the other tests; the test that checks one waits for
// it (background.wait). Each runs as a command line of this test binary
// (TestHelperMain runs it as main would), so its browser is the child's and
// never one that noChromiumLeft counts as this process's.
var (
	// plainDemo is `e2e demo` (TestReadmeQuickStartIsTheDemosOutput).
	plainDemo *background
	// keptDemo is `e2e demo --keep DIR --addr ADDR` in a git checkout
	// (TestDemoKeepLeavesAProjectToExplore); keptRepo, keptDir and keptAddr
	// are its checkout, DIR and ADDR.
	keptDemo                    *background
	keptRepo, keptDir, keptAddr string
)

func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv("E2E_HELPER_MAIN_ARGS") != "" { // the child TestHelperMain runs
		if u := os.Getenv(sharedBrowserEnv); u != "" {
			useSharedBrowser(u)
		}
		os.Exit(m.Run())
	}
	useSharedBrowser("")
	for _, k := range modelAndUserVars {
		os.Unsetenv(k)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var tmp []string
	if !testing.Short() && (willRun("TestReadmeQuickStartIsTheDemosOutput") || willRun("TestDemoActExamples")) {
		plainDemo = startBackground(ctx, 30*time.Minute, nil, "demo") // generous: a loaded machine makes the demo slower, never wrong
	}
	if !testing.Short() && (willRun("TestDemoKeepLeavesAProjectToExplore") || willRun("TestDemoActExamples")) {
		keptDemo = startKeptDemo(ctx)
		tmp = append(tmp, keptRepo)
	}
	code := m.Run()
	cancel()
	closeSharedBrowser()
	for _, b := range []*background{plainDemo, keptDemo} {
		if b != nil {
			<-b.done
		}
	}
	for _, d := range tmp {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

// startKeptDemo makes a git checkout (a newcomer tries the demo in a
// clone: e2e run there follows the branch) and starts `e2e demo --keep` in
// it, on a free address.
func startKeptDemo(ctx context.Context) *background {
	fail := func(err error) *background {
		b := &background{done: make(chan struct{}), err: err}
		close(b.done)
		return b
	}
	var err error
	if keptRepo, err = os.MkdirTemp("", "e2e-demo-keep-"); err != nil {
		return fail(err)
	}
	if err := initRepo(keptRepo); err != nil {
		return fail(err)
	}
	keptDir = filepath.Join(keptRepo, "my demo") // a space, for the printed cd
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	keptAddr = ln.Addr().String()
	ln.Close()
	return startBackground(ctx, 30*time.Minute, nil, "demo", "--keep", keptDir, "--addr", keptAddr)
}

// initRepo is gitRepo for TestMain: dir becomes a repository on main with
// everything in it committed; the store under .e2e/ stays untracked.
func initRepo(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".e2e/\n"), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"config", "user.name", "Test"}, {"config", "user.email", "test@example.com"},
		{"config", "commit.gpgsign", "false"}, {"add", "-A"}, {"commit", "-q", "-m", "start"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// background is an e2e command line running in a child process.
type background struct {
	args           []string
	done           chan struct{}
	code           int
	stdout, stderr bytes.Buffer
	err            error // the child could not run
}

// startBackground runs `e2e ARGS…` (this test binary as TestHelperMain, with
// this process's environment and env added), for at most timeout.
func startBackground(ctx context.Context, timeout time.Duration, env []string, args ...string) *background {
	b := &background{args: args, done: make(chan struct{})}
	self, err := os.Executable()
	if err != nil {
		b.err = err
		close(b.done)
		return b
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	cmd := exec.CommandContext(ctx, self, "-test.run=^TestHelperMain$")
	cmd.Env = append(append(os.Environ(), env...), "E2E_HELPER_MAIN_ARGS="+strings.Join(args, "\x1f"))
	cmd.Stdout, cmd.Stderr = &b.stdout, &b.stderr
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		cancel()
		b.err = err
		close(b.done)
		return b
	}
	go func() {
		defer close(b.done)
		defer cancel()
		err := cmd.Wait()
		b.code = cmd.ProcessState.ExitCode()
		if b.code < 0 {
			b.err = fmt.Errorf("e2e %s: %v", strings.Join(args, " "), err)
		}
	}()
	return b
}

// wait waits for the command and returns its exit code and output; it
// fails the test when the command could not run (or was killed).
func (b *background) wait(t *testing.T) (code int, stdout, stderr string) {
	t.Helper()
	if b == nil {
		skipShort(t, "a browser")
		t.Fatal("the background command was not started (TestMain starts it only for a test that -run selects)")
	}
	<-b.done
	if b.err != nil {
		t.Fatalf("%v\n%s%s", b.err, b.stdout.String(), b.stderr.String())
	}
	return b.code, b.stdout.String(), b.stderr.String()
}

// e2eEnv is e2e for a command that needs environment variables: it runs
// the command line in a child process (this test binary, as TestHelperMain
// runs it) with env (NAME=value) added to this process's environment. A
// test that sets variables so, rather than with t.Setenv, leaves the
// process alone and can run in parallel.
func e2eEnv(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if len(args) > 0 && browserCommands[args[0]] {
		skipShort(t, "a browser")
	}
	if u := sharedURL(); u != "" && !ownsBrowser(withTest(context.Background(), t)) {
		env = append(env, sharedBrowserEnv+"="+u)
	}
	return startBackground(context.Background(), 2*time.Minute, env, args...).wait(t)
}

// browserCommands are the commands that may launch a browser (or, for
// export, Playwright's): e2e skips a test that runs one under -short.
var browserCommands = map[string]bool{"run": true, "snapshot": true, "demo": true, "studio": true, "export": true, "mcp": true}

// skipShort skips t under -short, which leaves out the tests that need
// what (a browser, PostgreSQL, Playwright).
func skipShort(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs " + what + " (-short)")
	}
}

// willRun says whether the top-level test name is selected by -run and not
// excluded by -skip (as the testing package matches a pattern's first
// slash-separated element), and -list is not set.
func willRun(name string) bool {
	if f := flag.Lookup("test.list"); f != nil && f.Value.String() != "" {
		return false
	}
	first := func(flagName string) string {
		f := flag.Lookup(flagName)
		if f == nil {
			return ""
		}
		return topLevel(f.Value.String())
	}
	if run := first("test.run"); run != "" {
		if re, err := regexp.Compile(run); err != nil || !re.MatchString(name) {
			return false
		}
	}
	if f := flag.Lookup("test.skip"); f != nil && f.Value.String() != "" && topLevel(f.Value.String()) == f.Value.String() {
		if re, err := regexp.Compile(f.Value.String()); err == nil && re.MatchString(name) {
			return false
		}
	}
	return true
}

// topLevel is a -run pattern's first element: the text before the first
// slash that is outside brackets and parentheses.
func topLevel(pattern string) string {
	depth := 0
	for i, r := range pattern {
		switch r {
		case '[', '(':
			depth++
		case ']', ')':
			if depth > 0 {
				depth--
			}
		case '\\':
			// an escaped character is never a separator; skipped below
		case '/':
			if depth == 0 && (i == 0 || pattern[i-1] != '\\') {
				return pattern[:i]
			}
		}
	}
	return pattern
}
