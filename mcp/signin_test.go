package mcp

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session/report"
)

// signInFlow signs in and, on /account, keeps a theme in localStorage and
// a dismissed notice in sessionStorage: the state a session captures.
const signInFlow = `name: sign in
params: [user, password]
url: /login
steps:
  - type: { into: the email field, text: "{{ user }}" }
  - type: { into: the password field, text: "{{ password }}" }
  - click: the Sign in button
  - navigate: /account
  - click: the Use the dark theme button
  - click: the Dismiss the notice button
`

// signedIn is a test that passes only with the session loaded: /account
// (signed out, a redirect to /login), the theme from localStorage, the
// notice dismissed in sessionStorage.
func signedIn(name string) string {
	return "name: " + name + "\nurl: /account\nsession: signed in\nsteps:\n" +
		"  - expect: { text: { in: the Theme status, is: \"Theme: dark\" } }\n" +
		"  - expect: { text: { in: the Notice status, contains: dismissed } }\n"
}

// TestMCPRunsTestsWithASession: run_tests runs two tests that say session:
// signed in; the session is captured once (one sign-in) and loaded into
// both, which pass. The session cookie's value is in neither the tool's
// answer nor the last report; with a password that does not sign in, the
// tests are not run and the answer says why, once.
func TestMCPRunsTestsWithASession(t *testing.T) {
	if testing.Short() {
		t.Skip("needs a browser (-short)")
	}
	parallel(t)
	var mu sync.Mutex
	var cookies []string
	h := newHarness(t, harnessOptions{
		fixture: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				next.ServeHTTP(w, r)
				if r.Method != http.MethodPost || r.URL.Path != "/login" {
					return
				}
				mu.Lock()
				defer mu.Unlock()
				for _, c := range (&http.Response{Header: w.Header()}).Cookies() {
					if c.Name == "e2e_session" && c.Value != "" {
						cookies = append(cookies, c.Value)
					}
				}
			})
		},
		config: `sessions:
  signed in: { flow: sign in, with: { user: alice@example.com, password: correct-horse }, check: { url: /account } }
  wrong: { flow: sign in, with: { user: alice@example.com, password: wrong-horse }, check: { url: /account } }
`,
		files: map[string]string{
			"flows/sign-in.flow.yaml": signInFlow,
			"tests/a.e2e.yaml":        signedIn("first"),
			"tests/b.e2e.yaml":        signedIn("second"),
			"other/c.e2e.yaml":        strings.Replace(signedIn("wrong password"), "session: signed in", "session: wrong", 1),
		},
	})
	var rep report.JSON
	text := ok(t, h.cs, "run_tests", map[string]any{"paths": []string{"tests/*.e2e.yaml"}}, &rep)
	if rep.Summary.Passed != 2 || rep.Summary.Failed != 0 || rep.Run.Status != "passed" {
		t.Fatalf("run_tests: %s", text)
	}
	mu.Lock()
	given := append([]string(nil), cookies...)
	mu.Unlock()
	if len(given) != 1 {
		t.Fatalf("signed in %d times, want once for two tests", len(given))
	}
	res, err := h.cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: "e2e://report/last"})
	if err != nil || len(res.Contents) != 1 {
		t.Fatalf("e2e://report/last: %v %+v", err, res)
	}
	for what, out := range map[string]string{"run_tests": text, "e2e://report/last": res.Contents[0].Text} {
		if strings.Contains(out, given[0]) {
			t.Errorf("%s holds the session cookie's value", what)
		}
	}

	var bad report.JSON
	text = ok(t, h.cs, "run_tests", map[string]any{"paths": []string{"other/c.e2e.yaml"}}, &bad)
	if bad.Summary.NotRun != 1 || bad.Summary.Failed != 0 || bad.Run.Status != "failed" || len(bad.SessionFailures) != 1 ||
		bad.SessionFailures[0].Session != "wrong" || !strings.HasPrefix(bad.SessionFailures[0].Error, `flow "sign in", step 5`) {
		t.Errorf("run_tests with a session that does not sign in: %s", text)
	}
}
