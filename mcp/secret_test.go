package mcp

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/report"
)

// TestMCPSecretsNeverShown: a secret typed into a field by a previewed step
// is not in the preview, the snapshot, the written file or a run's report.
func TestMCPSecretsNeverShown(t *testing.T) {
	const value = `hun"ter\2 e2e-mcp secret` // a quote, a backslash and a space
	t.Setenv("MCP_SECRET", value)
	h := newHarness(t, harnessOptions{})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/login", "test": "login"}, &open)
	var all []string
	var pv previewOut
	all = append(all, ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		`type: { into: the Email field, text: "{{ secret.MCP_SECRET }}" }`,
		`expect: { value: { of: the Email field, is: "{{ secret.MCP_SECRET }}" } }`}}, &pv))
	if len(pv.Steps) != 2 || pv.Steps[0].ID == "" || pv.Steps[1].ID == "" {
		t.Fatalf("preview: %s", all[0])
	}
	all = append(all, ok(t, h.cs, "snapshot", map[string]any{"session": open.Session}, nil))
	if !strings.Contains(all[1], "Email") || !strings.Contains(all[1], "[value=\\\"***\\\"]") {
		t.Fatalf("snapshot:\n%s", all[1])
	}
	all = append(all, ok(t, h.cs, "write_test", map[string]any{"session": open.Session, "path": "login.e2e.yaml", "steps": []string{"p1", "p2"}}, nil))
	ok(t, h.cs, "session_close", map[string]any{"session": open.Session}, nil)
	var rep report.JSON
	all = append(all, ok(t, h.cs, "run_tests", map[string]any{}, &rep))
	if rep.Run.Status != "passed" {
		t.Fatalf("run: %s", all[len(all)-1])
	}
	for i, out := range all {
		if strings.Contains(out, value) {
			t.Errorf("output %d shows the secret:\n%s", i, out)
		}
	}
}
