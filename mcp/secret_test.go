package mcp

import (
	"encoding/json"
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

// TestMCPWhiteSpaceSecretsNeverShown: a secret holding a tab, two spaces
// and a line break, typed into /secretecho's <input> (which keeps the line
// break as a space) and echoed as page text (innerText and the snapshot
// collapse its white space), shows in no form in a preview whose
// expectation fails quoting the page text, nor in a snapshot.
func TestMCPWhiteSpaceSecretsNeverShown(t *testing.T) {
	const value = "Rk7\tmoss  fern\nQz4"
	t.Setenv("MCP_WS_SECRET", value)
	h := newHarness(t, harnessOptions{})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/secretecho", "test": "vault"}, &open)
	var all []string
	var pv previewOut
	all = append(all, ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		`type: { into: the Access code field, text: "{{ secret.MCP_WS_SECRET }}" }`,
		`expect: { text: { in: the Vault, is: "nothing" } }`}}, &pv))
	if len(pv.Steps) != 2 || pv.Steps[0].Status == "failed" || !strings.Contains(pv.Steps[1].Error, "You typed: ***") {
		t.Fatalf("want the typing to pass and the expectation to fail quoting the redacted page text:\n%s", all[0])
	}
	all = append(all, ok(t, h.cs, "snapshot", map[string]any{"session": open.Session}, nil))
	if !strings.Contains(all[1], "You typed: ***") {
		t.Fatalf("snapshot:\n%s", all[1])
	}
	ok(t, h.cs, "session_close", map[string]any{"session": open.Session}, nil)
	collapsed := strings.Join(strings.Fields(value), " ")
	typed := strings.ReplaceAll(value, "\n", " ")
	var forms []string
	for _, f := range []string{value, collapsed, typed, strings.ReplaceAll(value, "\n", "")} {
		j, _ := json.Marshal(f)
		jj, _ := json.Marshal(string(j))
		forms = append(forms, f, string(j[1:len(j)-1]), string(jj[1:len(jj)-1]))
	}
	forms = append(forms, "Rk7", "moss", "fern", "Qz4")
	for i, out := range all {
		for _, f := range forms {
			if strings.Contains(out, f) {
				t.Errorf("output %d shows %q:\n%s", i, f, out)
				break
			}
		}
	}
}
