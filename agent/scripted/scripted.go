// Package scripted is a stand-in model for `e2e demo` on machines with no
// model configured: an OpenAI-compatible Chat Completions server that plays
// act goals from a playbook instead of thinking. It answers the act agent's
// requests with the tool calls the playbook lists for the goal (and, when a
// heal's context matches, the playbook's heal for it), so the demo shows
// recording, replay without the model and healing end to end through the
// real client, tools and tool results.
//
// It is not a model: a goal it has no script for, or a step that fails,
// ends the act with finish(success: false) and says why. Token counts are
// estimates (a token per 4 bytes of request and of answer), since there is
// no tokenizer behind them.
package scripted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
)

// Playbook is what the scripted model knows: a script per act goal.
type Playbook struct {
	Acts []Act `json:"acts"`
}

// Act scripts one goal.
type Act struct {
	Goal string `json:"goal"` // as written in the test, variables unresolved
	// Plays are tried in order; the first whose When occurs in the act's
	// first message (the goal, the test context with a heal's reason, the
	// page) is played. An empty When always matches: list it last.
	Plays []Play `json:"plays"`
}

// Play is one way through the goal.
type Play struct {
	When string `json:"when"`
	// Steps are the execute_step calls, in order: each a list of step
	// commands run in one call.
	Steps         [][]string `json:"steps"`
	Message       string     `json:"message"`
	Postcondition string     `json:"postcondition"`
}

// Parse reads a playbook from JSON.
func Parse(b []byte) (*Playbook, error) {
	var p Playbook
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("scripted model playbook: %w", err)
	}
	for i, a := range p.Acts {
		if a.Goal == "" || len(a.Plays) == 0 {
			return nil, fmt.Errorf("scripted model playbook: act %d needs a goal and plays", i+1)
		}
		for j, pl := range a.Plays {
			if len(pl.Steps) == 0 || pl.Postcondition == "" {
				return nil, fmt.Errorf("scripted model playbook: %q play %d needs steps and a postcondition", a.Goal, j+1)
			}
		}
	}
	return &p, nil
}

// Server serves the playbook at /v1/chat/completions.
type Server struct {
	book  *Playbook
	calls atomic.Int64
}

// New returns a server for book.
func New(book *Playbook) *Server { return &Server{book: book} }

// Calls is how many requests the server answered.
func (s *Server) Calls() int { return int(s.calls.Load()) }

// wire types: the parts of the Chat Completions format the agent uses.
type message struct {
	Role       string     `json:"role"`
	Content    any        `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type toolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type request struct {
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
	Tools    []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// text is a message's content as text (a string or a list of text parts).
func (m message) text() string {
	switch c := m.Content.(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, p := range c {
			if part, ok := p.(map[string]any); ok {
				if t, ok := part["text"].(string); ok {
					b.WriteString(t)
				}
			}
		}
		return b.String()
	}
	return ""
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		httpError(w, http.StatusNotFound, "the scripted model serves POST /v1/chat/completions only")
		return
	}
	var body bytes.Buffer
	var req request
	if err := json.NewDecoder(io.TeeReader(r.Body, &body)).Decode(&req); err != nil {
		httpError(w, http.StatusBadRequest, "malformed request: "+err.Error())
		return
	}
	s.calls.Add(1)
	offered := false
	for _, t := range req.Tools {
		offered = offered || t.Function.Name == "execute_step"
	}
	if !offered {
		httpError(w, http.StatusBadRequest, "the scripted model only plays act goals; configure a real model to locate elements or judge assertions")
		return
	}
	name, args := s.next(req.Messages)
	a, _ := json.Marshal(args) // maps of strings, lists and bools always marshal
	tc := toolCall{ID: fmt.Sprintf("call_%d", s.calls.Load()), Type: "function"}
	tc.Function.Name, tc.Function.Arguments = name, string(a)
	resp := map[string]any{
		"id": fmt.Sprintf("chatcmpl-scripted-%d", s.calls.Load()), "object": "chat.completion", "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls",
			"message": map[string]any{"role": "assistant", "content": "", "tool_calls": []toolCall{tc}}}},
		"usage": map[string]int{"prompt_tokens": estimate(body.Len()), "completion_tokens": estimate(len(a)),
			"total_tokens": estimate(body.Len()) + estimate(len(a))},
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// next is the tool call that continues the conversation.
func (s *Server) next(msgs []message) (string, map[string]any) {
	var first string
	for _, m := range msgs {
		if m.Role == "user" {
			first = m.text()
			break
		}
	}
	goal := first
	if i := strings.Index(goal, "Goal: "); i >= 0 {
		goal = goal[i+len("Goal: "):]
	}
	if i := strings.IndexByte(goal, '\n'); i >= 0 {
		goal = goal[:i]
	}
	goal = strings.TrimSpace(goal)
	play := s.book.play(goal, first)
	if play == nil {
		return "finish", map[string]any{"success": false,
			"message": fmt.Sprintf("the bundled scripted model has no script for the goal %q; configure a model (see the README) to reach new goals", goal)}
	}
	done := 0
	for _, m := range msgs {
		if m.Role == "assistant" {
			done++
		}
	}
	if n := len(msgs); n > 0 && msgs[n-1].Role == "tool" && strings.Contains(msgs[n-1].text(), "FAILED") {
		return "finish", map[string]any{"success": false,
			"message": "a scripted step failed, and the scripted model cannot improvise: " + firstFailure(msgs[n-1].text())}
	}
	if done < len(play.Steps) {
		return "execute_step", map[string]any{"steps": play.Steps[done]}
	}
	return "finish", map[string]any{"success": true, "message": play.Message, "autoGeneratedPostcondition": play.Postcondition}
}

// play finds the play for goal given the act's first message.
func (b *Playbook) play(goal, first string) *Play {
	for i := range b.Acts {
		if b.Acts[i].Goal != goal {
			continue
		}
		for j := range b.Acts[i].Plays {
			p := &b.Acts[i].Plays[j]
			if p.When == "" || strings.Contains(first, p.When) {
				return p
			}
		}
	}
	return nil
}

func firstFailure(result string) string {
	for _, l := range strings.Split(result, "\n") {
		if strings.Contains(l, "result:") || strings.Contains(l, "error:") {
			return strings.TrimSpace(l)
		}
	}
	return "see the step results"
}

// estimate is a token count for n bytes: about 4 bytes a token.
func estimate(n int) int { return (n + 3) / 4 }

func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": msg, "type": "invalid_request_error"}})
}
