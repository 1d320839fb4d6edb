package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// alive checks that the server still answers.
func alive(t *testing.T, cs *sdk.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil || len(res.Tools) != len(tools) {
		t.Fatalf("the server does not answer: %v", err)
	}
}

// TestMCPBadInput: each bad call is a clear error, and the server answers
// the next call.
func TestMCPBadInput(t *testing.T) {
	h := newHarness(t, harnessOptions{maxSessions: 1, files: map[string]string{"cart.e2e.yaml": "name: cart\nurl: /product\nsteps:\n  - click: the Add to cart button\n"}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// An unknown tool.
	if _, err := h.cs.CallTool(ctx, &sdk.CallToolParams{Name: "delete_everything", Arguments: map[string]any{}}); err == nil || !strings.Contains(err.Error(), "delete_everything") {
		t.Errorf("unknown tool: %v", err)
	}
	alive(t, h.cs)
	// Malformed arguments: a number for the URL, a missing session.
	text, isErr := callRaw(t, h.cs, "session_open", map[string]any{"url": 5})
	if !isErr || !strings.Contains(text, "url") {
		t.Errorf("malformed arguments: %v %s", isErr, text)
	}
	text, isErr = callRaw(t, h.cs, "snapshot", map[string]any{})
	if !isErr || !strings.Contains(text, "session") {
		t.Errorf("missing argument: %v %s", isErr, text)
	}
	fails(t, h.cs, "preview_steps", map[string]any{"session": "s99", "steps": []string{"click: x"}}, `no open session "s99"`)
	alive(t, h.cs)

	// Navigation stays on the project's origins.
	fails(t, h.cs, "session_open", map[string]any{"url": "https://example.org/"}, "not an allowed origin")
	fails(t, h.cs, "session_open", map[string]any{"url": "file:///etc/passwd"}, "want a path")

	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/product", "test": "cart"}, &open)
	// A second session past --max-sessions 1.
	fails(t, h.cs, "session_open", map[string]any{"url": "/product"}, "session limit reached: 1 open, at most 1")
	// A ref that is not on the page.
	fails(t, h.cs, "snapshot", map[string]any{"session": open.Session, "scope": "e9999"}, `ref "e9999" is not on the page`)
	var scoped snapshotOut
	ok(t, h.cs, "snapshot", map[string]any{"session": open.Session, "scope": "e27"}, &scoped)
	if !strings.Contains(scoped.Outline, "Add to cart") || strings.Contains(scoped.Outline, "Buy now") {
		t.Errorf("scope e27:\n%s", scoped.Outline)
	}
	// A step that does not parse: reported in its place, not run.
	var pv previewOut
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{"clik: the Add to cart button"}}, &pv)
	if len(pv.Steps) != 1 || pv.Steps[0].Status != "invalid" || !strings.Contains(pv.Steps[0].Error, "did you mean click?") {
		t.Fatalf("a step that does not parse: %+v", pv)
	}
	// A step command is taken too, and answered (and written) in the test-file form.
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{`--step-type CLICK --description "the Buy now button"`}}, &pv)
	if len(pv.Steps) != 1 || pv.Steps[0].ID != "p1" || pv.Steps[0].Step != `click: "the Buy now button"` {
		t.Fatalf("preview: %+v", pv)
	}
	// Paths outside the project are refused, and nothing is written.
	outside := filepath.Join(t.TempDir(), "evil.e2e.yaml")
	for _, p := range []string{"../evil.e2e.yaml", outside, "tests/../../evil.e2e.yaml"} {
		fails(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": p, "steps": []string{"p1"}}, "outside the project")
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(h.dir, "link")); err != nil {
		t.Fatal(err)
	}
	fails(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": "link/evil.e2e.yaml", "steps": []string{"p1"}}, "outside the project")
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Errorf("a file was written outside the project: %v", err)
	}
	fails(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": "notes.txt", "steps": []string{"p1"}}, "ends in .e2e.yaml")
	fails(t, h.cs, "run_tests", map[string]any{"paths": []string{"../"}}, "outside the project")
	// An index past the end.
	fails(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": "cart.e2e.yaml", "steps": []string{"p1"}, "index": 9}, "the test has 1 step")
	// Heals need review rights; unknown heals are errors.
	fails(t, h.cs, "heals_show", map[string]any{"id": 42}, "42")
	fails(t, h.cs, "heals_accept", map[string]any{"id": 42, "reviewer": "ada"}, "--allow-review")
	fails(t, h.cs, "cache_show", map[string]any{}, "give test or key")
	alive(t, h.cs)
}

// callRaw is call, but a protocol error counts as an error too.
func callRaw(t *testing.T, cs *sdk.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err.Error(), true
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// TestMCPSplice: steps previewed in a session of an existing test are
// spliced in at an index, replacing steps, the rest of the file kept.
func TestMCPSplice(t *testing.T) {
	src := "# the cart\nname: cart\nurl: /product\nsteps:\n  - click: the Save for later button # keep\n  - click: the Compare button\n  - expect:\n      text: { in: the cart status, is: \"Cart: 0 items\" }\n# end\n"
	h := newHarness(t, harnessOptions{files: map[string]string{"cart.e2e.yaml": src}})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/product"}, &open)
	var pv previewOut
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{"click: the Add to cart button"}}, &pv)
	fails(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": "cart.e2e.yaml", "steps": []string{"p1"}}, `open a session with test: "cart"`)
	ok(t, h.cs, "session_close", map[string]any{"session": open.Session}, nil)

	ok(t, h.cs, "session_open", map[string]any{"url": "/product", "test": "cart"}, &open)
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		"click: the Add to cart button", "expect:\n  text: { in: the cart status, is: \"Cart: 1 item\" }"}}, &pv)
	if len(pv.Steps) != 2 || pv.Steps[1].ID != "p2" {
		t.Fatalf("preview: %+v", pv)
	}
	var w writeTestOut
	ok(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": "cart.e2e.yaml", "steps": []string{"p1"}, "index": 1, "delete": 1}, &w)
	ok(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": "cart.e2e.yaml", "steps": []string{"p2"}, "index": 2, "delete": 1}, &w)
	if w.Created || w.Steps != 3 || w.Deleted != 1 {
		t.Errorf("write_test: %+v", w)
	}
	got, err := os.ReadFile(filepath.Join(h.dir, "cart.e2e.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# the cart\nname: cart\nurl: /product\nsteps:\n  - click: the Save for later button # keep\n  - click: the Add to cart button\n  - expect:\n      text: { in: the cart status, is: \"Cart: 1 item\" }\n# end\n"
	if string(got) != want {
		t.Errorf("spliced:\n%s\nwant:\n%s", got, want)
	}
}

// TestMCPRunTestsRefusesSymlinksOut: a glob, a directory or the
// configured patterns that find a symbolic link to a test file outside
// the project are refused, as the link's path given directly is; nothing
// runs. A link inside the project to a file inside it is followed.
func TestMCPRunTestsRefusesSymlinksOut(t *testing.T) {
	h := newHarness(t, harnessOptions{files: map[string]string{"tests/cart.e2e.yaml": "name: cart\nurl: /product\nsteps:\n  - click: the Add to cart button\n"}})
	outside := filepath.Join(t.TempDir(), "outside.e2e.yaml")
	if err := os.WriteFile(outside, []byte("name: outside\nurl: /product\nsteps:\n  - click: the Add to cart button\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(h.dir, "tests", "evil.e2e.yaml")); err != nil {
		t.Fatal(err)
	}
	for _, args := range []map[string]any{
		{"paths": []string{"tests/evil.e2e.yaml"}},
		{"paths": []string{"tests/*.e2e.yaml"}},
		{"paths": []string{"tests"}},
		{"paths": []string{"**/*.e2e.yaml"}},
		{}, // e2e.yaml's tests: patterns
		{"grep": "outside"},
	} {
		text, isErr := call(t, h.cs, "run_tests", args)
		if !isErr || !(strings.Contains(text, "outside the project") || strings.Contains(text, "symbolic link")) {
			t.Errorf("run_tests %v: %v %.300s", args, isErr, text)
		}
	}
	runs, err := h.db.Runs(context.Background(), 0)
	if err != nil || len(runs) != 0 {
		t.Errorf("a run happened: %+v (%v)", runs, err)
	}

	// A link that stays inside the project is a test file like any other.
	if err := os.Remove(filepath.Join(h.dir, "tests", "evil.e2e.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(h.dir, "tests", "cart.e2e.yaml"), filepath.Join(h.dir, "tests", "again.e2e.yaml")); err != nil {
		t.Fatal(err)
	}
	var rep struct{ Run struct{ Status string } }
	ok(t, h.cs, "run_tests", map[string]any{"paths": []string{"tests/*.e2e.yaml"}}, &rep)
	if rep.Run.Status != "passed" {
		t.Errorf("a link inside the project: %+v", rep)
	}
}
