package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A browser.chrome in e2e.yaml that is not an executable is a
// configuration error at its line, exit 2 before anything starts; it is
// not blamed on --chrome, which was not given.
func TestChromeFromConfigIsBlamedOnTheConfig(t *testing.T) {
	dir := project(t, "http://127.0.0.1:1", map[string]string{"a.e2e.yaml": "name: a\nsteps:\n  - click: the button\n"})
	cfg := filepath.Join(dir, "e2e.yaml")
	src, _ := os.ReadFile(cfg)
	if err := os.WriteFile(cfg, append(src, "browser:\n  chrome: /nope/chromium\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e2e(t, "run", "--config", dir)
	if code != 2 || strings.Contains(errOut, "--chrome=") ||
		!strings.Contains(errOut, "e2e.yaml:5:11: browser.chrome: /nope/chromium is not an executable") ||
		!strings.Contains(errOut, "  chrome: /nope/chromium\n") || !strings.Contains(errOut, "^") {
		t.Errorf("exit %d, want 2\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e")); err == nil {
		t.Error("the run created .e2e/ before it found the configuration wrong")
	}
	// --chrome names the binary: then the flag is what is wrong.
	code, _, errOut = e2e(t, "run", "--config", dir, "--chrome", "/nope/other")
	if code == 0 || !strings.Contains(errOut, "--chrome=/nope/other is not an executable") {
		t.Errorf("--chrome: exit %d, stderr %s", code, errOut)
	}
}

// --headed with no display says so in one line, exit 2, and starts no
// Chromium (which would print pages of log); browser.headless: false in
// e2e.yaml is blamed at its line.
func TestHeadedWithNoDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	base := fixtureServer(t)
	code, out, errOut := e2e(t, "snapshot", "--headed", base+"/login")
	if code != 2 || errOut != "e2e: no display: run headless (drop --headed) or under xvfb-run\n" || out != "" {
		t.Errorf("snapshot --headed: exit %d, want 2\nstdout: %s\nstderr: %q", code, out, errOut)
	}
	noChromiumLeft(t)

	dir := project(t, base, map[string]string{"cart.e2e.yaml": cartTest})
	code, _, errOut = e2e(t, "run", "--config", dir, "--headed")
	if code != 2 || !strings.HasSuffix(errOut, "e2e: no display: run headless (drop --headed) or under xvfb-run\n") || strings.Contains(errOut, "[launcher]") {
		t.Errorf("run --headed: exit %d, want 2\nstderr: %q", code, errOut)
	}
	cfg := filepath.Join(dir, "e2e.yaml")
	src, _ := os.ReadFile(cfg)
	if err := os.WriteFile(cfg, append(src, "browser: { headless: false }\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = e2e(t, "run", "--config", dir)
	if code != 2 || !strings.Contains(errOut, "e2e.yaml:4:22: browser.headless: false needs a display, and there is none") {
		t.Errorf("headless: false: exit %d, want 2\nstderr: %s", code, errOut)
	}
	noChromiumLeft(t)
}

// A --ci run in a log says which test is still running once it has run
// 5 s, before the test's own line.
func TestCIProgressSaysATestIsStillRunning(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := project(t, base, map[string]string{"slow.e2e.yaml": "name: slow\nurl: /product\nsteps:\n  - wait: 6s\n  - click: the Add to cart button\n"})
	code, out, errOut := e2e(t, "run", "--config", dir, "--ci")
	still := strings.Index(out, "  … still running: slow (slow.e2e.yaml), 5s\n")
	done := strings.Index(out, "✓ slow (slow.e2e.yaml)")
	if code != 0 || still < 0 || done < still {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}
