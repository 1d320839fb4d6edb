package gitinfo

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// maxEventSize bounds how much of GitHub's event payload is read: payloads
// are kilobytes; a file past this is not decoded.
const maxEventSize = 16 << 20

// Untrusted says, in words, why this GitHub Actions run must not write
// what main's runs read, or "" when nothing says so. A run is untrusted
// when its event carries code that cannot be proven to come from the base
// repository (GITHUB_REPOSITORY):
//
//   - a pull request event (pull_request, pull_request_target,
//     pull_request_review, pull_request_review_comment) is trusted only
//     when the event payload at GITHUB_EVENT_PATH names the head
//     repository (pull_request.head.repo.full_name) and it is the base
//     one; a head in another repository (a fork), a head repository that
//     is gone (a deleted fork: head.repo is null), a payload that is
//     missing, unreadable or of another shape, and a GITHUB_HEAD_REPO
//     that names another repository all make it untrusted;
//   - a workflow_run event is untrusted when the run that triggered it was
//     for another repository's head (workflow_run.head_repository), or the
//     payload does not say;
//   - a comment on a pull request (issue_comment on an issue that is a pull
//     request) is untrusted: its payload does not say where the head is.
//
// Outside GitHub Actions, and for other events (push, schedule,
// workflow_dispatch, merge_group), it is "".
func Untrusted(env func(string) (string, bool)) string {
	get := func(k string) string { v, _ := env(k); return strings.TrimSpace(v) }
	event := get("GITHUB_EVENT_NAME")
	switch event {
	case "pull_request", "pull_request_target", "pull_request_review", "pull_request_review_comment", "workflow_run", "issue_comment":
	default:
		return ""
	}
	base := get("GITHUB_REPOSITORY")
	if head := get("GITHUB_HEAD_REPO"); head != "" && !strings.EqualFold(head, base) {
		return fmt.Sprintf("a pull request from the fork %s", head)
	}
	ev, err := readEvent(get("GITHUB_EVENT_PATH"))
	if err != nil {
		return fmt.Sprintf("a %s event whose payload cannot be read (%v), so its head cannot be proven to be in %s", event, err, orUnknown(base))
	}
	switch event {
	case "workflow_run":
		wr := ev.WorkflowRun
		if wr == nil {
			return "a workflow_run event whose payload does not say which repository its head is in"
		}
		head := ""
		if wr.HeadRepository != nil {
			head = wr.HeadRepository.FullName
		}
		switch {
		case head == "":
			return fmt.Sprintf("a workflow_run of a %s whose head repository is gone or not named", orUnknown(ev.WorkflowRun.Event))
		case base == "" || !strings.EqualFold(head, base):
			return fmt.Sprintf("a workflow_run of a %s from the fork %s", orUnknown(ev.WorkflowRun.Event), head)
		}
		return ""
	case "issue_comment":
		if ev.Issue.PullRequest != nil {
			return fmt.Sprintf("a comment on a pull request, whose head cannot be proven to be in %s", orUnknown(base))
		}
		return ""
	}
	if ev.PullRequest == nil {
		return fmt.Sprintf("a %s event whose payload holds no pull request, so its head cannot be proven to be in %s", event, orUnknown(base))
	}
	head := ""
	if r := ev.PullRequest.Head.Repo; r != nil {
		head = r.FullName
	}
	switch {
	case head == "":
		return "a pull request whose head repository is gone (a deleted fork) or not named"
	case base == "":
		return fmt.Sprintf("a pull request from %s, with no GITHUB_REPOSITORY to prove it is the base repository", head)
	case !strings.EqualFold(head, base):
		return fmt.Sprintf("a pull request from the fork %s", head)
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

// event is what Untrusted reads of GitHub's event payload; a pointer is
// nil when the payload has no such object (or null).
type event struct {
	PullRequest *struct {
		Head struct {
			Repo *repo `json:"repo"`
		} `json:"head"`
	} `json:"pull_request"`
	WorkflowRun *struct {
		Event          string `json:"event"`
		HeadRepository *repo  `json:"head_repository"`
	} `json:"workflow_run"`
	Issue struct {
		PullRequest *json.RawMessage `json:"pull_request"`
	} `json:"issue"`
}

type repo struct {
	FullName string `json:"full_name"`
}

func readEvent(path string) (*event, error) {
	if path == "" {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH is not set")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxEventSize {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH %s: %d bytes, more than the %d read", path, fi.Size(), maxEventSize)
	}
	var ev event
	if err := json.NewDecoder(io.LimitReader(f, maxEventSize)).Decode(&ev); err != nil {
		return nil, fmt.Errorf("GITHUB_EVENT_PATH %s: %w", path, err)
	}
	return &ev, nil
}
