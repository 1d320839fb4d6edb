package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// inspectorCall runs one MCP Inspector CLI call and returns the tool's
// result (or the method's answer) as JSON, and the call's error with its
// output when it failed.
func inspectorCall(t *testing.T, bin, cwd string, args ...string) (map[string]any, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "MCP_CATALOG_PATH="+filepath.Join(t.TempDir(), "mcp.json"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("inspector %v: %v\n%s\n%s", args, err, out, stderr.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, fmt.Errorf("inspector %v: %v\n%s", args, err, out)
	}
	if v["isError"] == true {
		return v, fmt.Errorf("inspector %v: tool error: %v", args, v["content"])
	}
	return v, nil
}

// resultText is the text content of a tool result.
func resultText(v map[string]any) string {
	var b strings.Builder
	content, _ := v["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok {
			s, _ := m["text"].(string)
			b.WriteString(s)
		}
	}
	return b.String()
}

// TestMCPInspectorProjectDir: the Inspector takes --config as its own flag,
// so the project directory reaches e2e mcp as its argument or as
// E2E_CONFIG (-e), from a working directory that is not the project's.
func TestMCPInspectorProjectDir(t *testing.T) {
	bin := inspector(t)
	e2e := e2eBinary(t)
	dir := projectDir(t, fixtureURL(t), nil)
	elsewhere := t.TempDir()
	for name, args := range map[string][]string{
		"argument":   {"--cli", e2e, "mcp", dir},
		"E2E_CONFIG": {"--cli", "-e", "E2E_CONFIG=" + dir, e2e, "mcp"},
	} {
		v, err := inspectorCall(t, bin, elsewhere, append(args, "--method", "tools/call", "--tool-name", "snapshot", "--tool-arg", "url=/product")...)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if snap := resultText(v); !strings.Contains(snap, `button \"Add to cart\" [ref=`) {
			t.Errorf("%s: snapshot %s", name, snap)
		}
	}
}

// workedExample is docs/mcp.md's worked example: its tool calls, each
// with the answer the doc shows, and the test file the doc says it wrote.
type exampleCall struct {
	tool   string
	args   map[string]any
	answer []string // the answer's lines, "← " and the indentation under it taken off
}

func workedExample(t *testing.T) ([]exampleCall, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "mcp.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "## A worked example")
	if !ok {
		t.Fatal("docs/mcp.md has no worked example")
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	block, rest, _ := strings.Cut(rest, "```\n")
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	yaml, _, _ := strings.Cut(rest, "```\n")
	var calls []exampleCall
	var call, answer *strings.Builder
	flush := func() {
		if call == nil {
			return
		}
		tool, args, _ := strings.Cut(call.String(), " ")
		c := exampleCall{tool: tool}
		if err := json.Unmarshal([]byte(args), &c.args); err != nil {
			t.Fatalf("docs/mcp.md: the call %s: %v", call, err)
		}
		if answer != nil {
			for _, l := range strings.Split(strings.TrimRight(answer.String(), "\n"), "\n") {
				c.answer = append(c.answer, strings.TrimPrefix(l, "  "))
			}
		}
		calls = append(calls, c)
		call, answer = nil, nil
	}
	for _, line := range strings.Split(block, "\n") {
		switch {
		case strings.HasPrefix(line, "→ "):
			flush()
			call = &strings.Builder{}
			call.WriteString(strings.TrimPrefix(line, "→ "))
		case strings.HasPrefix(line, "← "):
			answer = &strings.Builder{}
			answer.WriteString("  " + strings.TrimPrefix(line, "← ") + "\n")
		case answer != nil && line != "":
			answer.WriteString(line + "\n")
		case call != nil && line != "":
			call.WriteString(" " + strings.TrimSpace(line))
		}
	}
	flush()
	return calls, yaml
}

// TestMCPWorkedExampleThroughInspector runs docs/mcp.md's worked example,
// call by call as the doc writes them, through the MCP Inspector's CLI
// against e2e mcp --http (over stdio each CLI call would start a new
// server, and the session would not outlive its call): the snapshot shows
// the lines the doc shows, the previews and the written file are the
// doc's, and the test it wrote passes from the cache with no model.
func TestMCPWorkedExampleThroughInspector(t *testing.T) {
	calls, yaml := workedExample(t)
	if got := len(calls); got != 5 {
		t.Fatalf("docs/mcp.md's worked example has %d calls, want 5", got)
	}
	bin := inspector(t)
	e2e := e2eBinary(t)
	dir := projectDir(t, fixtureURL(t), nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := exec.CommandContext(ctx, e2e, "mcp", dir, "--http", "127.0.0.1:0")
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = srv.Wait() })
	lines := bufio.NewScanner(stderr)
	var url string
	for lines.Scan() {
		if _, rest, ok := strings.Cut(lines.Text(), "serving "); ok {
			url, _, _ = strings.Cut(rest, " ")
			break
		}
	}
	if url == "" {
		t.Fatalf("e2e mcp --http printed no address: %v", lines.Err())
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()

	for _, c := range calls {
		args := []string{"--cli", url, "--transport", "http", "--method", "tools/call", "--tool-name", c.tool}
		keys := make([]string, 0, len(c.args))
		for k := range c.args {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := c.args[k]
			if s, ok := v.(string); ok {
				args = append(args, "--tool-arg", k+"="+s)
				continue
			}
			j, _ := json.Marshal(v)
			args = append(args, "--tool-arg", k+"="+string(j))
		}
		v, err := inspectorCall(t, bin, t.TempDir(), args...)
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		text := resultText(v)
		sc, _ := v["structuredContent"].(map[string]any)
		switch c.tool {
		case "session_open":
			if sc["session"] != "s1" || sc["test"] != "add to cart" {
				t.Errorf("session_open: %s", text)
			}
		case "snapshot":
			outline, _ := sc["outline"].(string)
			// The doc's lines, in order, with "…" for lines left out.
			real := strings.Split(outline, "\n")
			at := 0
			for _, want := range c.answer {
				if strings.TrimSpace(want) == "…" {
					continue
				}
				k := slices.Index(real[at:], want)
				if k < 0 {
					t.Errorf("snapshot: the doc's line %q is not in the real outline (in order):\n%s", want, outline)
					break
				}
				at += k + 1
			}
			if strings.Contains(strings.Join(c.answer, "\n"), "status:") != strings.Contains(outline, "status:") {
				t.Errorf("snapshot: the doc and the real outline differ on the status line:\n%s", outline)
			}
		case "preview_steps":
			for _, want := range []string{`"reason":"ambiguous"`, `"id":"p1"`, `"id":"p2"`, `"-     - status: Cart: 0 items","+     - status: Cart: 1 item"`} {
				if !strings.Contains(text, want) {
					t.Errorf("preview_steps lacks %s: %s", want, text)
				}
			}
		case "write_test":
			if sc["created"] != true || sc["steps"] != float64(2) {
				t.Errorf("write_test: %s", text)
			}
		case "run_tests":
			var rep struct {
				Run     struct{ Status string }
				Summary struct{ Hits, ModelCalls int }
			}
			if err := json.Unmarshal([]byte(text), &rep); err != nil || rep.Run.Status != "passed" || rep.Summary.Hits != 2 || rep.Summary.ModelCalls != 0 {
				t.Errorf("run_tests: %v %s", err, text)
			}
		default:
			t.Errorf("the worked example calls %s, which this test does not check", c.tool)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "tests", "cart.e2e.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != yaml {
		t.Errorf("the file written:\n%s\nthe doc says:\n%s", b, yaml)
	}
}
