package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMCPCommandFlags(t *testing.T) {
	dir := project(t, "http://127.0.0.1:1", nil)
	code, _, errOut := e2e(t, "mcp", "--config", dir, "--http", "0.0.0.0:8931")
	if code != 2 || !strings.Contains(errOut, "only a loopback address") {
		t.Errorf("--http 0.0.0.0: exit %d %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, ".e2e")); !os.IsNotExist(err) {
		t.Errorf("a refused --http made .e2e/: %v", err)
	}
	code, _, errOut = e2e(t, "mcp", "--config", dir, "--max-sessions", "0")
	if code != 2 || !strings.Contains(errOut, "--max-sessions 0: want 1 or more") {
		t.Errorf("--max-sessions 0: exit %d %s", code, errOut)
	}
	code, _, errOut = e2e(t, "mcp", "--config", dir, "--http", "127.0.0.1:0", "--allow-origin", "http://localhost:6274/app")
	if code != 2 || !strings.Contains(errOut, `--allow-origin "http://localhost:6274/app": want an origin`) {
		t.Errorf("--allow-origin with a path: exit %d %s", code, errOut)
	}
	code, out, _ := e2e(t, "mcp", "--help")
	if code != 0 || !strings.Contains(out, "--allow-review") || !strings.Contains(out, "claude mcp add e2e -- e2e mcp") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}
