package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session/report"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
	buildOut  []byte
)

// e2eBinary builds cmd/e2e once for the package's tests.
func e2eBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "e2e-mcp-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "e2e")
		cmd := exec.Command("go", "build", "-o", binPath, "github.com/e2e-dev/e2e/cmd/e2e")
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedBrowser.b != nil {
		sharedBrowser.b.Close()
	}
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// browsersOf lists the Chromium processes the process pid launched (their
// profile directory names it).
func browsersOf(pid int) []string {
	marker := "e2e-chrome-" + strconv.Itoa(pid) + "-"
	var found []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), marker) {
			found = append(found, p)
		}
	}
	return found
}

// stdioClient starts `e2e mcp ARGS…` and connects to it over stdio. When
// the client closes, the server exits and leaves no browser behind.
func stdioClient(t *testing.T, args ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(e2eBinary(t), append([]string{"mcp"}, args...)...)
	cmd.Stderr = &lockedBuffer{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "stdio-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, cmd.Stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		pid := cmd.Process.Pid
		deadline := time.Now().Add(10 * time.Second)
		for left := browsersOf(pid); len(left) > 0; left = browsersOf(pid) {
			if time.Now().After(deadline) {
				t.Errorf("the server's browser outlived it: %v", left)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if s := cmd.Stderr.(*lockedBuffer).String(); strings.Contains(s, "panic") {
			t.Errorf("the server panicked:\n%s", s)
		}
	})
	return cs
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestMCPStdio drives the built binary over stdio as a coding agent's
// client does: the same author, replay and heal review flow.
func TestMCPStdio(t *testing.T) {
	base := fixtureURL(t)
	model := scriptedHeal(t)
	dir := projectDir(t, base, map[string]string{"act.e2e.yaml": actTest})
	flags := []string{"--config", dir, "--model", "scripted", "--model-url", model.URL()}
	cs := stdioClient(t, flags...)
	alive(t, cs)
	file := authorFlow(t, cs, dir, model.Count)
	// `e2e run` itself replays the written test from the rows the preview
	// kept: every step a hit, no model call.
	calls := model.Count()
	jsonPath := filepath.Join(t.TempDir(), "run.json")
	run := exec.Command(e2eBinary(t), append([]string{"run", "--json", jsonPath, file}, flags...)...)
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("e2e run: %v\n%s", err, out)
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.JSON
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Run.Status != "passed" || rep.Summary.Hits != 2 || rep.Summary.Steps != 2 || model.Count() != calls {
		t.Errorf("e2e run after write_test: %s, %d of %d steps hit, %d model calls", rep.Run.Status, rep.Summary.Hits, rep.Summary.Steps, model.Count()-calls)
	}
	id := healFlow(t, cs)
	fails(t, cs, "heals_accept", map[string]any{"id": id, "reviewer": "ada"}, "started without --allow-review")
	var open sessionOpenOut
	ok(t, cs, "session_open", map[string]any{"url": "/product"}, &open) // left open: the exit reaps it
	if text, isErr := callRaw(t, cs, "no_such_tool_for_sure", map[string]any{}); !isErr || !strings.Contains(text, `unknown tool "no_such_tool_for_sure"`) {
		t.Errorf("unknown tool: %s", text)
	}
	alive(t, cs)
	cs.Close()

	rv := stdioClient(t, append(flags, "--allow-review")...)
	var d healDecideOut
	ok(t, rv, "heals_accept", map[string]any{"id": id, "reviewer": "ada"}, &d)
	if d.Status != "accepted" || d.DecidedBy != "mcp:ada" {
		t.Errorf("heals_accept: %+v", d)
	}
}

func execCommand(name string, args ...string) *exec.Cmd { return exec.Command(name, args...) }
