package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
