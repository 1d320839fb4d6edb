package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/testfile"
)

// TestFixtureServeOnABusyPort: a port in use is a usage error (exit 2)
// naming the flag that changes it, not "the database failed" (exit 5).
func TestFixtureServeOnABusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	code, out, errOut := e2e(t, "fixture", "serve", "--addr", addr)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "--addr "+addr+": the port is in use") ||
		!strings.Contains(errOut, "pick a free port with --addr") {
		t.Errorf("exit %d, want %d\nstdout: %q\nstderr: %q", code, exitUsage, out, errOut)
	}
}

// TestStudioWritesTestFilesByTheUmask: the test studio --new writes is
// created with the mode the umask gives (0644 under 022), not 0600.
func TestStudioWritesTestFilesByTheUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	path := filepath.Join(t.TempDir(), "product.e2e.yaml")
	err := writeNewTest(path, "product", "/product", []string{"click: the Add to cart button"})
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("the new test file is %v, want -rw-r--r--", fi.Mode().Perm())
	}
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestRunWhenTheAppIsNotRunning: with nothing at the base URL the run stops
// before a browser with one message naming where the URL came from
// (baseURL at its line in e2e.yaml, or --base-url) and what to do, exit 2,
// and records nothing.
func TestRunWhenTheAppIsNotRunning(t *testing.T) {
	base := "http://" + closedAddr(t)
	dir := project(t, base, map[string]string{"cart.e2e.yaml": cartTest, "b.e2e.yaml": "name: b\nurl: /users\nsteps:\n  - click: the Menu button\n"})
	code, out, errOut := e2e(t, "run", "--config", dir)
	if code != exitUsage || out != "" || strings.Count(errOut, "nothing answers") != 1 ||
		!strings.Contains(errOut, "e2e.yaml:1:10: baseURL: nothing answers at "+base+" (connection refused)") ||
		!strings.Contains(errOut, "  1 | baseURL: "+base+"\n") ||
		!strings.Contains(errOut, "`e2e fixture serve`") || !strings.Contains(errOut, "--base-url") {
		t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitUsage, out, errOut)
	}
	other := "http://" + closedAddr(t)
	code, out, errOut = e2e(t, "run", "--config", dir, "--base-url", other)
	if code != exitUsage || out != "" || strings.Count(errOut, "\n") != 1 ||
		!strings.HasPrefix(errOut, "e2e: --base-url "+other+": nothing answers there (connection refused): ") ||
		!strings.Contains(errOut, "`e2e fixture serve`") {
		t.Errorf("--base-url: exit %d, want %d\nstdout: %s\nstderr: %s", code, exitUsage, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e")); !os.IsNotExist(err) {
		t.Errorf("a run with the app down made .e2e/ (%v): it recorded a run", err)
	}
}

// TestRunReportsEveryProblemOfEveryFileAtOnce: an unknown step kind does
// not hide the unknown key in its own value, nor the file's unset variable
// or its assert step with no model; a second file's problems come in the
// same pass; all before a browser, exit 2, nothing written.
func TestRunReportsEveryProblemOfEveryFileAtOnce(t *testing.T) {
	for _, k := range []string{"E2E_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "E2E_NEWUSER_UNSET"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	dir := project(t, "http://"+closedAddr(t), map[string]string{
		"a.e2e.yaml": `name: a
url: /
steps:
  - clik: the Sign in button
  - tpye: { into: the Email field, txt: hello }
  - type: { into: the Name field, text: "{{ env.E2E_NEWUSER_UNSET }}" }
  - assert: the page greets the user
`,
		"b.e2e.yaml": "name: b\nsteps:\n  - expect: { visibel: the Users heading }\n  - assert: the list is sorted\n",
	})
	code, out, errOut := e2e(t, "run", "--config", dir)
	if code != exitUsage || out != "" {
		t.Errorf("exit %d, want %d; stdout %q", code, exitUsage, out)
	}
	a, b := filepath.Join(dir, "a.e2e.yaml"), filepath.Join(dir, "b.e2e.yaml")
	want := []string{
		a + `:4:5: unknown key "clik" in a step; did you mean click?`,
		a + `:5:5: unknown key "tpye" in a step; did you mean type?`,
		a + `:5:36: unknown key "txt" in type; did you mean text?`,
		a + `:6:5: {{ env.E2E_NEWUSER_UNSET }} is not set`,
		a + `:7:5: assert needs a model to judge it, and none is configured`,
		b + `:3:`, "did you mean visible?",
		b + `:4:5: assert needs a model`,
		"e2e: 2 test files have problems",
	}
	at := 0
	for _, w := range want {
		i := strings.Index(errOut[at:], w)
		if i < 0 {
			t.Errorf("stderr lacks %q after byte %d (in file order):\n%s", w, at, errOut)
			continue
		}
		at += i + len(w)
	}
	if strings.Contains(errOut, "nothing answers") {
		t.Errorf("the app was checked before the files were fine:\n%s", errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e")); !os.IsNotExist(err) {
		t.Errorf(".e2e left behind (%v)", err)
	}
}

// initCmd runs e2e init with stdin.
func initCmd(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRoot(&out, &errb, redact.New())
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(append([]string{"init"}, args...))
	err := root.Execute()
	if err != nil {
		errb.WriteString("e2e: " + oneLine(err) + "\n")
		return exitUsage, out.String(), errb.String()
	}
	return 0, out.String(), errb.String()
}

// TestInitThenFirstRun is a new user's first minutes: e2e init asks for the
// base URL and writes e2e.yaml, a first test and the .gitignore line; the
// test parses and passes against the fixture app; a second init refuses
// and writes nothing; --base-url answers without the prompt and an
// existing .gitignore keeps its lines.
func TestInitThenFirstRun(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := t.TempDir()
	code, out, errOut := initCmd(t, base+"\n", dir)
	if code != 0 || !strings.Contains(out, "The app's base URL [http://127.0.0.1:8080]: ") || !strings.Contains(out, "e2e run --config "+dir) {
		t.Fatalf("init: exit %d\n%s%s", code, out, errOut)
	}
	cfg, err := testfile.LoadConfig(dir)
	if err != nil || cfg.BaseURL != base {
		t.Fatalf("e2e.yaml: %v, baseURL %q", err, cfg.BaseURL)
	}
	first := filepath.Join(dir, "tests", "first.e2e.yaml")
	if _, err := testfile.ParseFile(first); err != nil {
		t.Fatalf("the first test does not parse: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); !strings.Contains(string(b), "\n.e2e/\n") {
		t.Errorf(".gitignore: %q", b)
	}
	code, out, errOut = e2e(t, "run", "--config", dir)
	if code != 0 || !strings.Contains(out, "1 passed, 0 failed") {
		t.Fatalf("the first test against the fixture: exit %d\n%s%s", code, out, errOut)
	}

	// Again: refused, nothing overwritten.
	before, _ := os.ReadFile(filepath.Join(dir, "e2e.yaml"))
	code, _, errOut = initCmd(t, "http://elsewhere.test\n", dir)
	after, _ := os.ReadFile(filepath.Join(dir, "e2e.yaml"))
	if code != exitUsage || !strings.Contains(errOut, "e2e.yaml already exists; init never overwrites a file") || string(after) != string(before) {
		t.Errorf("a second init: exit %d, %s", code, errOut)
	}

	// Non-interactive, into a directory with a .gitignore and a test in
	// the way: refused, and nothing written.
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, ".gitignore"), []byte("node_modules/"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(other, "tests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "tests", "first.e2e.yaml"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = initCmd(t, "", other, "--base-url", base)
	if _, err := os.Stat(filepath.Join(other, "e2e.yaml")); code != exitUsage || err == nil || !strings.Contains(errOut, "first.e2e.yaml already exists") {
		t.Errorf("init over a test: exit %d (e2e.yaml written: %v), %s", code, err == nil, errOut)
	}
	os.Remove(filepath.Join(other, "tests", "first.e2e.yaml"))
	code, out, errOut = initCmd(t, "", other, "--base-url", base)
	b, _ := os.ReadFile(filepath.Join(other, ".gitignore"))
	if code != 0 || strings.Contains(out, "base URL [") || !strings.HasPrefix(string(b), "node_modules/\n") || !strings.HasSuffix(string(b), "\n.e2e/\n") {
		t.Errorf("init --base-url: exit %d, .gitignore %q\n%s%s", code, b, out, errOut)
	}
	// A base URL that is not one.
	code, _, errOut = initCmd(t, "localhost:3000\n", t.TempDir())
	if code != exitUsage || !strings.Contains(errOut, "want an http:// or https:// URL") {
		t.Errorf("a bad base URL: exit %d, %s", code, errOut)
	}
}

// TestMakeInstallPutsE2EOnPath: the quick start's make install builds e2e
// and installs it as BINDIR/e2e, which then runs; it says when BINDIR is
// not on PATH, with the line that puts it there, and is quiet when it is.
func TestMakeInstallPutsE2EOnPath(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dir := t.TempDir()
	bindir := filepath.Join(dir, "bin")
	install := func(path string) string {
		t.Helper()
		cmd := exec.Command("make", "-s", "install", "BIN="+filepath.Join(dir, "e2e-built"), "BINDIR="+bindir)
		cmd.Dir = repoRoot
		cmd.Env = append(os.Environ(), "PATH="+path)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make install: %v\n%s", err, out)
		}
		return string(out)
	}
	out := install(os.Getenv("PATH"))
	if !strings.Contains(out, "installed "+bindir+"/e2e") || !strings.Contains(out, bindir+" is not on your PATH") ||
		!strings.Contains(out, `export PATH="`+bindir+`:$PATH"`) {
		t.Errorf("make install, BINDIR not on PATH:\n%s", out)
	}
	v, err := exec.Command(filepath.Join(bindir, "e2e"), "version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(v), "e2e ") {
		t.Errorf("the installed e2e: %v %s", err, v)
	}
	if out := install(bindir + ":" + os.Getenv("PATH")); strings.Contains(out, "PATH") {
		t.Errorf("make install, BINDIR first on PATH, still warns:\n%s", out)
	}

	// With stdout not a terminal (make demo > log, in a terminal), e2e
	// sends the terminal no query (ESC]11;? and ESC[6n, the colour
	// detection Bubble Tea's init does): script(1) gives it a terminal on
	// stdin and stderr and records what reaches it.
	if _, err := exec.LookPath("script"); err == nil {
		typescript := filepath.Join(dir, "typescript")
		cmd := exec.Command("script", "-qfc", filepath.Join(bindir, "e2e")+" version > "+filepath.Join(dir, "version.out"), typescript)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
		cmd.Stdin = strings.NewReader("")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("script: %v\n%s", err, out)
		}
		ts, _ := os.ReadFile(typescript)
		if strings.Contains(string(ts), "\x1b]11;?") || strings.Contains(string(ts), "\x1b[6n") {
			t.Errorf("e2e queried the terminal with stdout redirected: %q", ts)
		}
	}
}
