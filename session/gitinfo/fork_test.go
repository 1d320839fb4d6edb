package gitinfo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUntrusted: a run is trusted only when its event proves the code
// comes from the base repository; a fork, a deleted fork (head.repo
// null), a payload that cannot be read or says nothing all make it
// untrusted.
func TestUntrusted(t *testing.T) {
	dir := t.TempDir()
	n := 0
	payload := func(body string) string {
		n++
		p := filepath.Join(dir, "event"+string(rune('a'+n))+".json")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pr := func(head string) string {
		return payload(`{"action":"opened","pull_request":{"number":7,"head":{"ref":"fix","repo":{"full_name":"` + head + `"}},"base":{"repo":{"full_name":"acme/shop"}}}}`)
	}
	deleted := payload(`{"action":"opened","pull_request":{"number":7,"head":{"ref":"fix","repo":null},"base":{"repo":{"full_name":"acme/shop"}}}}`)
	noRepo := payload(`{"action":"opened","pull_request":{"number":7,"head":{"ref":"fix"}}}`)
	noPR := payload(`{"action":"opened"}`)
	wr := func(head string) string {
		h := `null`
		if head != "" {
			h = `{"full_name":"` + head + `"}`
		}
		return payload(`{"workflow_run":{"event":"pull_request","head_repository":` + h + `}}`)
	}
	comment := payload(`{"issue":{"number":7,"pull_request":{"url":"https://api.github.com/repos/acme/shop/pulls/7"}},"comment":{"body":"/test"}}`)
	issue := payload(`{"issue":{"number":8},"comment":{"body":"hi"}}`)
	base := map[string]string{"GITHUB_REPOSITORY": "acme/shop"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		want string // "" trusted, else a word the reason holds
	}{
		{"not on GitHub", map[string]string{}, ""},
		{"a push to main", with("GITHUB_EVENT_NAME", "push", "GITHUB_HEAD_REPO", "mallory/shop"), ""},
		{"a pull request from a branch", with("GITHUB_EVENT_NAME", "pull_request", "GITHUB_EVENT_PATH", pr("acme/shop")), ""},
		{"a pull request from a branch, names in another case", with("GITHUB_EVENT_NAME", "pull_request", "GITHUB_EVENT_PATH", pr("Acme/Shop")), ""},
		{"a pull request from a fork (payload)", with("GITHUB_EVENT_NAME", "pull_request", "GITHUB_EVENT_PATH", pr("mallory/shop")), "mallory/shop"},
		{"a pull request from a fork (variable)", with("GITHUB_EVENT_NAME", "pull_request_target", "GITHUB_HEAD_REPO", "mallory/shop"), "mallory/shop"},
		{"a variable that names the base, a payload a fork", with("GITHUB_EVENT_NAME", "pull_request", "GITHUB_HEAD_REPO", "acme/shop", "GITHUB_EVENT_PATH", pr("mallory/shop")), "mallory/shop"},
		{"a pull request whose fork was deleted", with("GITHUB_EVENT_NAME", "pull_request", "GITHUB_EVENT_PATH", deleted), "deleted fork"},
		{"a pull request whose head names no repository", with("GITHUB_EVENT_NAME", "pull_request_review", "GITHUB_EVENT_PATH", noRepo), "deleted fork"},
		{"a payload with no pull request", with("GITHUB_EVENT_NAME", "pull_request", "GITHUB_EVENT_PATH", noPR), "holds no pull request"},
		{"a payload that is not JSON", with("GITHUB_EVENT_NAME", "pull_request", "GITHUB_EVENT_PATH", filepath.Join("testdata", "..", "fork.go")), "cannot be read"},
		{"no payload", with("GITHUB_EVENT_NAME", "pull_request_target"), "GITHUB_EVENT_PATH is not set"},
		{"a payload that is gone", with("GITHUB_EVENT_NAME", "pull_request", "GITHUB_EVENT_PATH", filepath.Join(dir, "gone.json")), "cannot be read"},
		{"no base repository", map[string]string{"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": pr("acme/shop")}, "GITHUB_REPOSITORY"},
		{"a workflow_run of a branch", with("GITHUB_EVENT_NAME", "workflow_run", "GITHUB_EVENT_PATH", wr("acme/shop")), ""},
		{"a workflow_run of a fork", with("GITHUB_EVENT_NAME", "workflow_run", "GITHUB_EVENT_PATH", wr("mallory/shop")), "mallory/shop"},
		{"a workflow_run of a deleted fork", with("GITHUB_EVENT_NAME", "workflow_run", "GITHUB_EVENT_PATH", wr("")), "gone"},
		{"a comment on a pull request", with("GITHUB_EVENT_NAME", "issue_comment", "GITHUB_EVENT_PATH", comment), "comment on a pull request"},
		{"a comment on an issue", with("GITHUB_EVENT_NAME", "issue_comment", "GITHUB_EVENT_PATH", issue), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			why := Untrusted(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok })
			switch {
			case c.want == "" && why != "":
				t.Errorf("untrusted (%s), want trusted", why)
			case c.want != "" && !strings.Contains(why, c.want):
				t.Errorf("why = %q, want it untrusted, saying %q", why, c.want)
			}
		})
	}
}
