package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/e2e-dev/e2e/store"
)

// pty is a pseudo-terminal pair from /dev/ptmx: the test holds the master
// (it reads what the studio draws and closes it as a closed terminal
// does), the child gets the slave as its controlling terminal.
type pty struct {
	master, slave *os.File

	mu   sync.Mutex
	seen bytes.Buffer
	more chan struct{} // a token when something new was read
	done chan struct{} // closed when the master's reads end
}

func ioctl(f *os.File, req uintptr, arg unsafe.Pointer) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, req, uintptr(arg))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}

// openPTY opens a pseudo-terminal of cols×rows. The master is read
// through the runtime's poller, so closing it ends a pending read and
// hangs the terminal up at once.
func openPTY(t *testing.T, cols, rows uint16) *pty {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var n uint32
	if err := ioctl(m, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatalf("ptsname: %v", err)
	}
	var unlock int32
	if err := ioctl(m, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatalf("unlockpt: %v", err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	ws := struct{ Row, Col, X, Y uint16 }{Row: rows, Col: cols}
	if err := ioctl(s, syscall.TIOCSWINSZ, unsafe.Pointer(&ws)); err != nil {
		t.Fatalf("window size: %v", err)
	}
	p := &pty{master: m, slave: s, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 32<<10)
		for {
			n, err := m.Read(buf)
			if n > 0 {
				p.mu.Lock()
				p.seen.Write(buf[:n])
				p.mu.Unlock()
				select {
				case p.more <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { m.Close(); s.Close(); <-p.done })
	return p
}

// waitFor waits until the terminal has shown every one of texts (ANSI
// sequences and all), or the child exited first.
func (p *pty) waitFor(t *testing.T, exited <-chan struct{}, texts ...string) {
	t.Helper()
	timeout := time.After(2 * time.Minute) // a failure detector, not a margin
	for {
		p.mu.Lock()
		all := true
		for _, x := range texts {
			all = all && bytes.Contains(p.seen.Bytes(), []byte(x))
		}
		p.mu.Unlock()
		if all {
			return
		}
		select {
		case <-p.more:
		case <-exited:
			t.Fatalf("the studio exited before showing %q:\n%s", texts, p.screen())
		case <-timeout:
			t.Fatalf("the studio never showed %q:\n%s", texts, p.screen())
		}
	}
}

// screen is the end of what the terminal showed, ANSI sequences left out.
func (p *pty) screen() string {
	p.mu.Lock()
	s := ansiSeq.ReplaceAllString(p.seen.String(), "")
	p.mu.Unlock()
	if len(s) > 3000 {
		s = "…" + s[len(s)-3000:]
	}
	return s
}

var ansiSeq = regexp.MustCompile(`\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[()][0-9A-Za-z]|[=>78])`)

// TestStudioShutsDownWhenItsTerminalGoesAway: `e2e studio` in a real
// pseudo-terminal, a step held at the gate (--step), and then its terminal
// goes away: a SIGHUP alone (a closed tab, tmux kill-session), the
// terminal's master closed (the kernel hangs it up: SIGHUP, and reads
// end), or the master of a terminal that is not its controlling one closed
// (no signal: reads fail with EIO). The
// studio ends by itself as on q, not killed by the signal; its Chromium is
// gone with it, the run is recorded as finished, and the step that waited
// for a decision was not run.
func TestStudioShutsDownWhenItsTerminalGoesAway(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"SIGHUP", "master closed", "master closed, not the controlling terminal"} {
		t.Run(how, func(t *testing.T) {
			base := fixtureServer(t)
			dir := project(t, base, map[string]string{"held.e2e.yaml": cartTest})
			p := openPTY(t, 120, 40)
			cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMain$")
			cmd.Env = append(os.Environ(), "TERM=xterm-256color", "E2E_REVIEWER=ann",
				"E2E_HELPER_MAIN_ARGS="+strings.Join([]string{"studio", "--step", "--config", dir, filepath.Join(dir, "held.e2e.yaml")}, "\x1f"))
			cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
			// In a session of its own; the pty its controlling terminal (the
			// kernel hangs it up with SIGHUP when the master closes) unless
			// only its reads are to fail (EIO).
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: !strings.Contains(how, "not the controlling"), Ctty: 0}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			p.slave.Close() // the child holds the terminal now
			exited := make(chan struct{})
			var waitErr error
			go func() { waitErr = cmd.Wait(); close(exited) }()
			defer func() {
				select {
				case <-exited:
				default:
					cmd.Process.Kill()
					<-exited
				}
			}()
			p.waitFor(t, exited, "waiting:", "the Add to cart button")
			marker := "e2e-chrome-" + strconv.Itoa(cmd.Process.Pid) + "-"
			if len(processesWith(marker)) == 0 {
				t.Fatalf("no browser of the studio's found while a step waits")
			}

			switch how {
			case "SIGHUP":
				if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
					t.Fatal(err)
				}
			default:
				if err := p.master.Close(); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case <-exited:
			case <-time.After(2 * time.Minute): // a failure detector, not a margin
				t.Fatalf("the studio outlived its terminal (%s):\n%s", how, p.screen())
			}
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if ws.Signaled() {
				t.Fatalf("killed by %s (%v), not shut down\n%s", ws.Signal(), waitErr, p.screen())
			}
			if left := processesWith(marker); len(left) > 0 {
				t.Errorf("the studio's browser outlived it: %v", left)
			}
			db, err := store.Open(context.Background(), filepath.Join(dir, ".e2e", "e2e.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			runs, err := db.Runs(context.Background(), 0)
			if err != nil || len(runs) != 1 || runs[0].Status == "running" || runs[0].FinishedAt.IsZero() {
				t.Fatalf("runs %+v (%v)", runs, err)
			}
			tests, err := db.Tests(context.Background(), runs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, tr := range tests {
				for _, st := range tr.Steps {
					if st.Index == 0 && st.Status != "failed" && st.Status != "skipped" {
						t.Errorf("the step no one approved ran: %+v", st)
					}
				}
			}
		})
	}
}

// processesWith lists the processes whose command line holds s.
func processesWith(s string) []string {
	var found []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), s) {
			found = append(found, p)
		}
	}
	return found
}
