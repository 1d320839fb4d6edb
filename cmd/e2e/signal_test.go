package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/store"
)

// TestHelperMain is the child process of TestSIGHUPShutsDownLikeSIGTERM:
// the command as main runs it, signals included.
func TestHelperMain(t *testing.T) {
	args := os.Getenv("E2E_HELPER_MAIN_ARGS")
	if args == "" {
		t.Skip("child process for TestSIGHUPShutsDownLikeSIGTERM")
	}
	os.Exit(runUntilSignalled(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

// TestSIGHUPShutsDownLikeSIGTERM: a run whose terminal goes away (SIGHUP)
// stops as it does on SIGTERM or Ctrl-C: it exits by itself, not killed by
// the signal, its browser is gone and the run is recorded as finished, not
// left "running".
func TestSIGHUPShutsDownLikeSIGTERM(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			base := fixtureServer(t)
			dir := project(t, base, map[string]string{"hang.e2e.yaml": `name: hang
url: /product
steps:
  - wait: 60s
`})
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMain$")
			cmd.Env = append(os.Environ(), "E2E_HELPER_MAIN_ARGS=run\x1f--config\x1f"+dir)
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var errOut strings.Builder
			cmd.Stderr = &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			defer func() { cmd.Process.Kill(); <-done }()
			// The test's first line is printed once its run is recorded and
			// its page opens.
			lines := make(chan string)
			var out strings.Builder
			go func() {
				defer close(done)
				sc := bufio.NewScanner(stdout)
				for sc.Scan() {
					out.WriteString(sc.Text() + "\n")
					select {
					case lines <- sc.Text():
					default:
					}
				}
			}()
			timeout := time.After(time.Minute)
		wait:
			for {
				select {
				case l := <-lines:
					if strings.HasPrefix(l, "hang (") {
						break wait
					}
				case <-timeout:
					t.Fatalf("the run did not start\n%s", errOut.String())
				}
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			<-done
			err = cmd.Wait()
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if ws.Signaled() {
				t.Fatalf("killed by %s (%v)\n%s\n%s", ws.Signal(), err, out.String(), errOut.String())
			}
			marker := "e2e-chrome-" + strconv.Itoa(cmd.Process.Pid) + "-"
			procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
			for _, p := range procs {
				if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), marker) {
					t.Errorf("browser process left behind: %s", p)
				}
			}
			db, err := store.Open(context.Background(), filepath.Join(dir, ".e2e", "e2e.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			runs, err := db.Runs(context.Background(), 0)
			if err != nil || len(runs) != 1 || runs[0].Status == "running" || runs[0].FinishedAt.IsZero() {
				t.Errorf("runs %+v (%v)\n%s\n%s", runs, err, out.String(), errOut.String())
			}
			t.Logf("exit %d\n%s%s", cmd.ProcessState.ExitCode(), out.String(), errOut.String())
		})
	}
}
