package browser

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	// a zombie is dead for our purposes
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}

func waitGone(t *testing.T, pid int, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("browser process %d still running after %s", pid, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestCloseReapsBrowserAndProfile(t *testing.T) {
	b, err := Launch(ctxT(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	pid, profile := b.PID(), b.ProfileDir()
	if _, err := os.Stat(profile); err != nil {
		t.Fatalf("profile dir: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid, 5*time.Second)
	if _, err := os.Stat(profile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profile dir %s left behind (%v)", profile, err)
	}
}

// TestSIGKILLLeavesNoBrowser kills (SIGKILL) a child process that launched
// a browser and checks the browser goes too.
func TestSIGKILLLeavesNoBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a browser (-short)")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperLaunchAndWait$")
	cmd.Env = append(os.Environ(), "E2E_HELPER_LAUNCH=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	pid := 0
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "BROWSER_PID="); ok {
			pid, _ = strconv.Atoi(s)
			break
		}
	}
	if pid == 0 {
		cmd.Process.Kill()
		t.Fatal("child did not report a browser pid")
	}
	if !alive(pid) {
		t.Fatal("browser not running in the child")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	waitGone(t, pid, 10*time.Second)
}

func TestHelperLaunchAndWait(t *testing.T) {
	if os.Getenv("E2E_HELPER_LAUNCH") == "" {
		t.Skip("helper for TestSIGKILLLeavesNoBrowser")
	}
	b, err := Launch(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("BROWSER_PID=%d\n", b.PID())
	time.Sleep(time.Minute) // killed by the parent long before this ends
}

func TestConnectToRunningBrowser(t *testing.T) {
	b, err := Launch(ctxT(t), Options{BrowserURL: shared.ControlURL()})
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.NewPage(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	open(t, p, fixtureURL(t)+"/login")
	find(t, snap(t, p, SnapshotOptions{}), "button", "Sign in")
	p.Close()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// The shared browser is still there for the other tests.
	p2 := newPage(t)
	open(t, p2, fixtureURL(t)+"/login")
}

func TestMissingBrowser(t *testing.T) {
	_, err := Launch(ctxT(t), Options{Chrome: "/nonexistent/chromium"})
	if !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), "/nonexistent/chromium") {
		t.Fatalf("got %v", err)
	}
	t.Setenv("E2E_CHROME", "")
	t.Setenv("PATH", t.TempDir())
	_, err = FindChrome("")
	if !errors.Is(err, ErrNoBrowser) || !strings.Contains(err.Error(), "apt-get install chromium") {
		t.Fatalf("got %v", err)
	}
}

func TestPageCrashFailsThatPageOnly(t *testing.T) {
	p := newPage(t)
	open(t, p, fixtureURL(t)+"/login")
	// Crash the renderer the way a faulty page would.
	_ = p.Eval(ctxT(t), nil, `() => { setTimeout(() => {}, 0); }`)
	ctx, cancel := context.WithTimeout(ctxT(t), 3*time.Second)
	defer cancel()
	_, _ = p.Navigate(ctx, "chrome://crash")
	if _, err := p.Snapshot(ctx, SnapshotOptions{}); err == nil {
		t.Fatal("snapshot of a crashed page succeeded")
	}
	// Another page of the same browser still works.
	p2 := newPage(t)
	open(t, p2, fixtureURL(t)+"/login")
}
