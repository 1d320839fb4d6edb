package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// completeForced sends req, which forces one tool, and lets req.Check judge
// the answer. A bad answer is asked again once with a message naming the
// problem (hint says what a good call looks like); a second bad answer is a
// *CallError matching ErrBadResponse. A server that refuses a named
// tool_choice (llama.cpp) is asked again with "required", which forces the
// same call when one tool is offered. Failures of the call itself are the
// client's errors. calls counts the requests answered or failed.
func (c *Client) completeForced(ctx context.Context, req Request, hint string) (calls int, err error) {
	tool := req.ToolChoice
	var problems []string
	for try := 1; ; try++ {
		_, err := c.Complete(ctx, req)
		calls++
		if err == nil {
			return calls, nil
		}
		var ce *CallError
		if errors.As(err, &ce) && ce.Kind == ErrRejected && strings.Contains(ce.Detail, "tool_choice") {
			if req.ToolChoice == tool {
				req.ToolChoice = "required"
				try--
				continue
			}
			return calls, &CallError{Kind: ErrRejected, Status: ce.Status, Attempts: ce.Attempts, Elapsed: ce.Elapsed, Detail: ce.Detail + "; " + refusesToolChoice, Err: err}
		}
		// A bad answer has Status 0: the client got it fine, Check refused it.
		if !errors.As(err, &ce) || ce.Kind != ErrBadResponse || ce.Status != 0 {
			return calls, err
		}
		problems = append(problems, ce.Detail)
		if try == 2 {
			detail := strings.Join(problems, "; then ")
			if inText(problems) {
				detail += "; " + ignoresToolChoice
			}
			return calls, &CallError{Kind: ErrBadResponse, Attempts: try, Detail: detail, Err: err}
		}
		req.Messages = append(req.Messages, Message{Role: RoleUser, Content: "Your last answer could not be used: " + ce.Detail + ". " + hint})
	}
}

// inText says whether every problem was an answer in text.
func inText(problems []string) bool {
	for _, p := range problems {
		if !strings.HasPrefix(p, "answered in text") {
			return false
		}
	}
	return len(problems) > 0
}

// onlyCall returns the one call to the forced tool name in r, or a sentence
// fit to show the model saying what is wrong with the answer.
func onlyCall(r *Response, name string) (ToolCall, error) {
	if len(r.ToolCalls) == 0 {
		if strings.TrimSpace(r.Content) != "" {
			return ToolCall{}, fmt.Errorf("answered in text instead of calling %s", name)
		}
		return ToolCall{}, fmt.Errorf("no tool call; call %s", name)
	}
	tc := r.ToolCalls[0]
	if tc.Name != name {
		return ToolCall{}, fmt.Errorf("called unknown tool %q; the only tool is %s", clip(tc.Name, 100), name)
	}
	return tc, nil
}
