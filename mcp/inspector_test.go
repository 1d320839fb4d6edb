package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// inspector installs the MCP Inspector's CLI (scripts/ensure-npm-mcp) and
// returns its binary.
func inspector(t *testing.T) string {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "scripts", "ensure-npm-mcp"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, script)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return strings.TrimSpace(string(out))
}

// TestMCPInspectorCLI: a third-party client, the MCP Inspector's CLI mode,
// lists the built binary's tools and calls snapshot and run_tests.
func TestMCPInspectorCLI(t *testing.T) {
	base := fixtureURL(t)
	bin := inspector(t)
	e2e := e2eBinary(t)
	dir := projectDir(t, base, map[string]string{"cart.e2e.yaml": "name: cart\nurl: /product\nsteps:\n  - click: the Add to cart button\n" +
		"  - expect: { text: { in: the cart status, is: \"Cart: 1 item\" } }\n"})
	catalog := filepath.Join(t.TempDir(), "mcp.json")
	inspect := func(args ...string) map[string]any {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		// The server's command first: --tool-arg takes every argument after it.
		full := append([]string{"--cli", "--cwd", dir, e2e, "mcp"}, args...)
		cmd := exec.CommandContext(ctx, bin, full...)
		cmd.Env = append(os.Environ(), "MCP_CATALOG_PATH="+catalog)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("inspector %v: %v\n%s\n%s", args, err, out, stderr.String())
		}
		// The schemas are portable: one type a property.
		if strings.Contains(stderr.String(), "Warning") || strings.Contains(string(out), "Schema portability") {
			t.Errorf("inspector %v warns:\n%s%s", args, stderr.String(), out)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("inspector %v: %v\n%s", args, err, out)
		}
		return v
	}
	list := inspect("--method", "tools/list")
	var names []string
	for _, tl := range list["tools"].([]any) {
		names = append(names, tl.(map[string]any)["name"].(string))
	}
	if len(names) != len(tools) {
		t.Errorf("tools/list: %v", names)
	}
	for _, want := range []string{"session_open", "snapshot", "preview_steps", "write_test", "run_tests", "heals_accept"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	text := func(v map[string]any) string {
		if v["isError"] == true {
			t.Fatalf("tool error: %v", v)
		}
		var b strings.Builder
		for _, c := range v["content"].([]any) {
			b.WriteString(c.(map[string]any)["text"].(string))
		}
		return b.String()
	}
	snap := text(inspect("--method", "tools/call", "--tool-name", "snapshot", "--tool-arg", "url=/product"))
	if !strings.Contains(snap, `button \"Add to cart\" [ref=`) {
		t.Errorf("snapshot: %s", snap)
	}
	rep := text(inspect("--method", "tools/call", "--tool-name", "run_tests", "--tool-arg", "grep=^cart$"))
	var j struct {
		Run     struct{ Status string }
		Summary struct{ Tests, Passed int }
	}
	if err := json.Unmarshal([]byte(rep), &j); err != nil || j.Run.Status != "passed" || j.Summary.Tests != 1 || j.Summary.Passed != 1 {
		t.Errorf("run_tests: %v %s", err, rep)
	}
}
