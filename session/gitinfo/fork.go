package gitinfo

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// maxEventSize bounds how much of GitHub's event payload is read: payloads
// are kilobytes; a file past this is not decoded.
const maxEventSize = 16 << 20

// ForkPullRequest reports whether this is a GitHub Actions run for a pull
// request whose head is in another repository (a fork), and says so in
// words: such a run must not write what main's runs read. The head
// repository comes from GITHUB_HEAD_REPO when set, else from the event
// payload at GITHUB_EVENT_PATH (pull_request.head.repo.full_name); it is
// compared with GITHUB_REPOSITORY. Outside a pull_request or
// pull_request_target event it is false.
func ForkPullRequest(env func(string) (string, bool)) (bool, string, error) {
	get := func(k string) string { v, _ := env(k); return v }
	switch get("GITHUB_EVENT_NAME") {
	case "pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment":
	default:
		return false, "", nil
	}
	base := get("GITHUB_REPOSITORY")
	head := get("GITHUB_HEAD_REPO")
	if head == "" {
		path := get("GITHUB_EVENT_PATH")
		if path == "" {
			return false, "", nil
		}
		var err error
		if head, err = eventHeadRepo(path); err != nil {
			return false, "", err
		}
	}
	if head == "" || base == "" || head == base {
		return false, "", nil
	}
	return true, fmt.Sprintf("a pull request from the fork %s", head), nil
}

func eventHeadRepo(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("GITHUB_EVENT_PATH: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxEventSize {
		return "", fmt.Errorf("GITHUB_EVENT_PATH %s: %d bytes, more than the %d read", path, fi.Size(), maxEventSize)
	}
	var ev struct {
		PullRequest struct {
			Head struct {
				Repo struct {
					FullName string `json:"full_name"`
				} `json:"repo"`
			} `json:"head"`
		} `json:"pull_request"`
	}
	if err := json.NewDecoder(io.LimitReader(f, maxEventSize)).Decode(&ev); err != nil {
		return "", fmt.Errorf("GITHUB_EVENT_PATH %s: %w", path, err)
	}
	return ev.PullRequest.Head.Repo.FullName, nil
}
