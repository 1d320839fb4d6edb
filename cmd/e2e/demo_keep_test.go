package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDemoKeepRefusesWhatIsThere: --keep names a directory with something
// in it, or a file: exit 2 with a clear message, before any browser starts,
// and nothing is written there.
func TestDemoKeepRefusesWhatIsThere(t *testing.T) {
	full := t.TempDir()
	mine := filepath.Join(full, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e2e(t, "demo", "--keep", full)
	if code != exitUsage || !strings.Contains(errOut, "demo --keep "+full+": the directory is not empty (it holds 1 entry); name a new or empty directory") ||
		strings.Contains(out, "fixture app on") {
		t.Errorf("a non-empty directory: exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	ents, _ := os.ReadDir(full)
	if b, _ := os.ReadFile(mine); len(ents) != 1 || string(b) != "mine" {
		t.Errorf("the demo wrote in the directory it refused: %v", ents)
	}
	code, _, errOut = e2e(t, "demo", "--keep", mine)
	if code != exitUsage || !strings.Contains(errOut, "demo --keep "+mine+": it is a file; name a new or empty directory") {
		t.Errorf("a file: exit %d %q", code, errOut)
	}
	code, _, errOut = e2e(t, "demo", "--keep", filepath.Join(full, "new"), "--addr", "7357")
	if code != exitUsage || !strings.Contains(errOut, "demo --addr 7357: want host:port") {
		t.Errorf("--addr without a host: exit %d %q", code, errOut)
	}
	if code, _, errOut = e2e(t, "demo", "--addr", "127.0.0.1:8000"); code != exitUsage || !strings.Contains(errOut, "it needs --keep DIR") {
		t.Errorf("--addr without --keep: exit %d %q", code, errOut)
	}
	// e2e demo serve outside a kept project says where to run it.
	if code, _, errOut = e2e(t, "demo", "serve", "--dir", t.TempDir()); code != exitUsage || !strings.Contains(errOut, "holds no e2e.yaml with a baseURL; run it in a directory e2e demo --keep made") {
		t.Errorf("demo serve outside a kept project: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(full, "new")); err == nil {
		t.Error("the demo made the directory of a refused --keep")
	}
}

// TestDemoKeepLeavesAProjectToExplore runs `e2e demo --keep DIR` and then,
// through a shell and as printed, the commands it says to try next: e2e
// demo serve serves the fixture app and the scripted model, heals list
// shows the staged heal, heals show N prints its diff, the studio lists
// it, and e2e run against the redesign passes through it. Rejected, the
// next run heals anew with the served scripted model.
func TestDemoKeepLeavesAProjectToExplore(t *testing.T) {
	// demo.env, not the test's environment, signs in: TestMain cleared
	// modelAndUserVars for the package.
	t.Parallel()
	// `e2e demo --keep "$keptDir" --addr $keptAddr` has run since the tests
	// started (TestMain's keptDemo), in a git checkout, as a newcomer trying
	// it in a clone would: e2e run there follows the branch.
	kept, addr := keptDir, keptAddr
	code, got, errOut := keptDemo.wait(t)
	if code != 0 {
		t.Fatalf("demo --keep: exit %d\n%s\n%s", code, got, errOut)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	if strings.Contains(got, "correct-horse") {
		t.Errorf("the demo printed the password:\n%s", got)
	}
	if !strings.Contains(got, "with 1 staged heal, the scripted\nmodel's playbook") || !strings.Contains(got, "leaves the redesign ones staged, for you to review") {
		t.Errorf("demo output:\n%s", got)
	}
	for _, f := range []string{"e2e.yaml", "login.e2e.yaml", "agent/signin.e2e.yaml", "agent/model.json", "demo.env", ".e2e/e2e.db"} {
		if _, err := os.Stat(filepath.Join(kept, f)); err != nil {
			t.Errorf("not kept: %v", err)
		}
	}

	// The commands to try next, as printed, comments aside.
	_, next, ok := strings.Cut(got, "Try next, from there:\n\n")
	if !ok {
		t.Fatalf("no commands to try next:\n%s", got)
	}
	var cmds []string
	for _, l := range strings.Split(next, "\n") {
		if !strings.HasPrefix(l, "  ") {
			break
		}
		c, _, _ := strings.Cut(l, "#")
		cmds = append(cmds, strings.TrimSpace(c))
	}
	var id string
	for _, c := range cmds {
		if n, ok := strings.CutPrefix(c, "e2e heals show "); ok {
			id = n
		}
	}
	want := []string{"cd " + shellQuote(kept), "e2e demo serve", "e2e heals list", "e2e heals show " + id, "e2e studio --heals",
		"env $(cat demo.env) e2e run --variant redesign agent/"}
	if id == "" || strings.Join(cmds, "\n") != strings.Join(want, "\n") {
		t.Fatalf("commands to try next:\n%s\nwant:\n%s", strings.Join(cmds, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(got, "Reject the heal (e2e heals reject N) and run again") {
		t.Errorf("no word on rejecting the heal:\n%s", got)
	}

	// An e2e on PATH that is this test binary, so that the shell runs the
	// printed lines as they are.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := fmt.Sprintf("#!/bin/sh\nIFS=$(printf '\\037')\nE2E_HELPER_MAIN_ARGS=\"$*\" exec %s -test.run='^TestHelperMain$'\n", shellQuote(self))
	if err := os.WriteFile(filepath.Join(bin, "e2e"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	shEnv := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	// sh runs line after the printed cd.
	sh := func(line string) (int, string) {
		t.Helper()
		c := exec.CommandContext(ctx, "sh", "-c", cmds[0]+" && "+line)
		c.Env = shEnv
		b, err := c.CombinedOutput()
		if err != nil && c.ProcessState == nil {
			t.Fatalf("%s: %v", line, err)
		}
		if strings.Contains(string(b), "correct-horse") {
			t.Errorf("%s printed the password:\n%s", line, b)
		}
		return c.ProcessState.ExitCode(), string(b)
	}

	// e2e demo serve, until the test ends.
	serve := exec.Command("sh", "-c", cmds[0]+" && exec "+cmds[1])
	serve.Env = shEnv
	pipe, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	serve.Stderr = serve.Stdout
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		serve.Process.Signal(syscall.SIGTERM)
		serve.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Ctrl-C stops") {
				ready <- sc.Text()
			}
		}
		close(ready)
	}()
	select {
	case l, ok := <-ready:
		wantLine := fmt.Sprintf("fixture app on http://%s/, the scripted model on http://%s/v1 (playbook agent/model.json); Ctrl-C stops", addr, addr)
		if !ok || l != wantLine {
			t.Fatalf("e2e demo serve: %q, want %q", l, wantLine)
		}
	case <-time.After(time.Minute):
		t.Fatal("e2e demo serve did not start")
	}

	if code, o := sh(cmds[2]); code != 0 || !regexp.MustCompile(`(?m)^`+id+`\s+staged\s+agent signs in\s`).MatchString(o) {
		t.Errorf("%s: exit %d\n%s", cmds[2], code, o)
	}
	if code, o := sh(cmds[3]); code != 0 || !strings.HasPrefix(o, "heal "+id+" · staged · test \"agent signs in\"") ||
		!regexp.MustCompile(`(?m)^~\s+--step-type TYPE --description "the Password field".*--step-type CLICK --description "the Continue button"`).MatchString(o) ||
		!regexp.MustCompile(`(?m)^\+\s+--step-type CLICK --description "the Log in button"`).MatchString(o) {
		t.Errorf("%s: exit %d\n%s", cmds[3], code, o)
	}

	// A plain example replays the demo's cache entries: e2e run's model
	// keys them as the demo did.
	if code, o := sh("env $(cat demo.env) e2e run login.e2e.yaml"); code != 0 || !strings.Contains(o, " 0 located, 0 re-located, 0 failed") ||
		strings.Contains(o, " 0 cache hits") {
		t.Errorf("a plain example in the kept project: exit %d\n%s", code, o)
	}

	// The studio, in this process (it needs a screen), on the kept project
	// (in the kept directory, as its e2e.yaml says).
	args := append(strings.Fields(strings.TrimPrefix(cmds[4], "e2e studio")), "--config", kept)
	s := startStudio(t, args...)
	s.waitFor("Staged heals (1)", "#"+id+" ", "agent signs in")
	s.typeKeys("q")
	if err := s.wait(); err != nil {
		t.Errorf("%s: %v", cmds[4], err)
	}

	// The run against the redesign: the sign-in passes through the staged
	// heal, the other acts replay, no model is asked.
	code, o := sh(cmds[5])
	if code != 0 || !strings.Contains(o, "✓ agent signs in (healed: review with `e2e heals list`)") ||
		!strings.Contains(o, "3 passed (1 healed, staged for review), 0 failed") ||
		!regexp.MustCompile(`✓ act sign in as .*\s+hit\s`).MatchString(o) ||
		!regexp.MustCompile(`✓ act archive Alice\s+hit`).MatchString(o) || !regexp.MustCompile(`✓ act put the Trail Runner 2 in the cart\s+hit`).MatchString(o) {
		t.Fatalf("%s: exit %d\n%s", cmds[5], code, o)
	}

	// Rejected, the heal is made again by the scripted model e2e demo serve
	// serves, and staged as a new heal.
	if code, o := sh("e2e heals reject " + id); code != 0 || !strings.Contains(o, "heal "+id+" rejected") {
		t.Fatalf("reject: exit %d\n%s", code, o)
	}
	code, o = sh(cmds[5])
	// The served model says nothing fits when asked to locate an element
	// (it plays act goals only), so the reason is the local locator's.
	if code != 0 || !strings.Contains(o, "re-located (healed (staged if the test passes))") || !strings.Contains(o, "3 passed (1 healed, staged for review), 0 failed") ||
		!strings.Contains(o, `failed: no element matches "the Password field"`) || strings.Contains(o, "rejected the request") {
		t.Fatalf("%s after the reject: exit %d\n%s", cmds[5], code, o)
	}
	if code, o := sh(cmds[2]); code != 0 || strings.Contains(o, "\n"+id+" ") || !strings.Contains(o, "staged  agent signs in") {
		t.Errorf("%s after the new heal: exit %d\n%s", cmds[2], code, o)
	}
}
