package gitinfo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestForkPullRequest(t *testing.T) {
	dir := t.TempDir()
	event := func(head string) string {
		p := filepath.Join(dir, strings.ReplaceAll(head, "/", "_")+".json")
		body := `{"action":"opened","pull_request":{"number":7,"head":{"ref":"fix","repo":{"full_name":"` + head + `"}},"base":{"repo":{"full_name":"acme/shop"}}}}`
		if head == "" {
			body = `{"action":"opened","pull_request":{"number":7,"head":{"ref":"fix","repo":null}}}`
			p = filepath.Join(dir, "deleted.json")
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		fork bool
		err  string
	}{
		{"not on GitHub", map[string]string{}, false, ""},
		{"a push to main", map[string]string{"GITHUB_EVENT_NAME": "push", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_HEAD_REPO": "mallory/shop"}, false, ""},
		{"a pull request from a branch", map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": event("acme/shop")}, false, ""},
		{"a pull request from a fork (payload)", map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": event("mallory/shop")}, true, ""},
		{"a pull request from a fork (variable)", map[string]string{"GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_HEAD_REPO": "mallory/shop"}, true, ""},
		{"a pull request whose fork was deleted", map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": event("")}, false, ""},
		{"a payload that is not JSON", map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_EVENT_PATH": filepath.Join("testdata", "..", "fork.go")}, false, "GITHUB_EVENT_PATH"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fork, why, err := ForkPullRequest(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok })
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one naming %s", err, c.err)
				}
				return
			}
			if err != nil || fork != c.fork {
				t.Fatalf("fork = %v (%q), %v; want %v", fork, why, err, c.fork)
			}
			if fork && !strings.Contains(why, "mallory/shop") {
				t.Errorf("why = %q, want the fork named", why)
			}
		})
	}
}
