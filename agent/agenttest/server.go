// Package agenttest is a scripted OpenAI-compatible model server for tests:
// an httptest server answering POST /v1/chat/completions with the steps of a
// script, in order, and keeping every request it got so that a test can
// check what was sent (the tools offered, the snapshot in the user message,
// that no secret value left the process).
//
// It speaks the Chat Completions wire format, so the code under test runs
// the real openai-go client end to end. A step is an answer (a tool call or
// text, with token usage) or a fault (an HTTP status with Retry-After, a
// delay past the client's timeout, a malformed body, malformed tool-call
// arguments, an unknown tool, a huge or trickling body, garbage, zero token
// usage). A request past the end of the script fails the test and gets a
// 400 answer, which clients do not retry.
//
// The package does not import agent, so agent's own tests can use it.
package agenttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Call is a tool call a step answers with. Arguments is the raw JSON text
// sent to the client, malformed if the test wants it so.
type Call struct {
	Name      string
	Arguments string
}

// Step is one scripted answer. The zero Step answers with empty text.
type Step struct {
	// An answer: tool calls and/or text, with usage.
	Calls     []Call
	Content   string
	TokensIn  int
	TokensOut int
	// Faults. Status, when not 0 or 200, answers with that status, the
	// Retry-After header if set and Body (a JSON error when Body is empty).
	Status     int
	RetryAfter string
	Body       string
	// Delay holds the answer back; the handler gives up when the client
	// does (its timeout closes the request).
	Delay time.Duration
	// Raw, when set, is sent as the 200 answer's body verbatim.
	Raw string
	// Fill, when positive, replaces every FillMarker in Content, in the
	// calls' Arguments and in Raw by Fill bytes of 'x'. The body is
	// streamed in Chunk-byte writes (32 KiB when 0), Trickle apart, so the
	// server never holds the filler whole and stops writing when the
	// client hangs up; see Server.Written.
	Fill  int
	Chunk int
	// Trickle is the pause between writes of a 200 answer: with Fill,
	// between its Chunk-byte writes; without, the answer is sent one byte
	// every Trickle (trickle.go).
	Trickle time.Duration
	// NoLength sends a filled body without Content-Length (chunked), as a
	// streaming proxy would; otherwise its exact length is announced.
	NoLength bool
	// Do, when set, runs when the server plays the step, before it
	// answers: the test learns that the client got this far (the model
	// was asked), and may change the world then (see OnPlay).
	Do func()

	noIDs bool // Quirks.NoToolCallIDs
}

// inText is s with its tool calls written into its text as JSON, one
// object a line, and no tool call: what a model that does not call tools
// answers when the server ignores tool_choice.
func inText(s Step) Step {
	var lines []string
	if s.Content != "" {
		lines = append(lines, s.Content)
	}
	for _, c := range s.Calls {
		args := json.RawMessage(c.Arguments)
		if !json.Valid(args) {
			b, _ := json.Marshal(c.Arguments)
			args = b
		}
		b, err := json.Marshal(map[string]any{"name": c.Name, "arguments": args})
		if err != nil {
			b = []byte(c.Name)
		}
		lines = append(lines, string(b))
	}
	s.Calls, s.Content = nil, strings.Join(lines, "\n")
	return s
}

// OnPlay returns s running f when the server plays it; see Step.Do.
func (s Step) OnPlay(f func()) Step { s.Do = f; return s }

// FillMarker is the text a Step's Fill bytes stand in for.
const FillMarker = "@@FILL@@"

// Filled returns s with every FillMarker standing for n bytes; see Step.Fill.
func (s Step) Filled(n int) Step { s.Fill = n; return s }

// NoContentLength returns s sending its filled body without
// Content-Length; see Step.NoLength.
func (s Step) NoContentLength() Step { s.NoLength = true; return s }

// Garbage answers 200 with n bytes that are not JSON.
func Garbage(n int) Step { return Step{Raw: FillMarker, Fill: n} }

// Huge answers with text of n bytes and zero token usage: a server that
// talks without end and reports nothing.
func Huge(n int) Step { return Step{Content: FillMarker, Fill: n} }

// ToolCall answers with one call of the named tool; args is marshalled to
// JSON unless it is a string, which is sent as is. Usage is 100 in, 20 out.
func ToolCall(name string, args any) Step {
	var a string
	switch v := args.(type) {
	case string:
		a = v
	case json.RawMessage:
		a = string(v)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			b = []byte("agenttest: cannot marshal the arguments: " + err.Error()) // reaches the client as malformed JSON
		}
		a = string(b)
	}
	return Step{Calls: []Call{{Name: name, Arguments: a}}, TokensIn: 100, TokensOut: 20}
}

// Text answers with plain content and no tool call.
func Text(content string) Step { return Step{Content: content, TokensIn: 100, TokensOut: 20} }

// Status answers with an HTTP error status; retryAfter may be "".
func Status(code int, retryAfter string) Step { return Step{Status: code, RetryAfter: retryAfter} }

// Malformed answers 200 with a body that is not JSON.
func Malformed() Step { return Step{Raw: `{"id":"chatcmpl-x","choices":[{"message":`} }

// Hang answers after d, by which time the client has given up.
func Hang(d time.Duration) Step { return Step{Delay: d, Content: "too late"} }

// Usage sets the step's token usage.
func (s Step) Usage(in, out int) Step { s.TokensIn, s.TokensOut = in, out; return s }

// Quirks make the server behave, on every request, as popular local
// servers do; the zero Quirks is a server that does what the API says.
type Quirks struct {
	// IgnoreToolChoice answers whatever tool_choice asks for as if it were
	// "auto", with a model that does not call tools, as Ollama does: a
	// scripted tool call is written into the answer's text as JSON
	// ({"name": …, "arguments": {…}}), with no tool call; scripted text
	// is sent as it is.
	IgnoreToolChoice bool
	// RefuseNamedToolChoice answers 400 to a request whose tool_choice
	// names a function, as llama.cpp does ("Invalid tool_choice"), without
	// playing a step; "required" and "auto" are served.
	RefuseNamedToolChoice bool
	// NoToolCallIDs sends tool calls without an id, as some local
	// servers do.
	NoToolCallIDs bool
}

// SetQuirks makes the server behave as q says from now on.
func (s *Server) SetQuirks(q Quirks) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quirks = q
}

// Request is one request as the server decoded it.
type Request struct {
	Model      string
	Stream     bool // the client asked for a stream (stream: true)
	Messages   []Message
	Tools      []Tool
	ToolChoice json.RawMessage // as sent: "auto", or {"type":"function","function":{"name":…}}
	Header     http.Header
	Body       []byte // the raw JSON body
}

// ForcedTool is the tool name tool_choice forces, or "".
func (r Request) ForcedTool() string {
	var tc struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if json.Unmarshal(r.ToolChoice, &tc) != nil {
		return ""
	}
	return tc.Function.Name
}

// Text is every message's content, joined by newlines.
func (r Request) Text() string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Content + "\n")
	}
	return b.String()
}

// Message is a request message; Content joins text parts.
type Message struct {
	Role       string
	Content    string
	ToolCallID string
	ToolCalls  []Call
}

// Tool is a function offered to the model.
type Tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
}

// Server is a scripted model. Its methods are safe for concurrent use.
type Server struct {
	t   testing.TB
	srv *httptest.Server

	mu      sync.Mutex
	script  []Step
	next    int
	reqs    []Request
	count   int   // requests received
	discard bool  // keep no requests (see DiscardRequests)
	written int64 // body bytes of filled answers the client took
	quirks  Quirks
}

// DiscardRequests makes the server keep no request from now on: Requests
// returns none of them, Count still counts them. Benchmarks use it, so
// that the server's copies do not count in the memory they measure.
func (s *Server) DiscardRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.discard = true
}

// Written is how many body bytes of filled answers (Step.Fill) were
// written to clients so far: less than the body's length when the client
// stopped reading early.
func (s *Server) Written() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written
}

// New starts a server playing steps and closes it when the test ends. The
// test fails if steps are left unplayed then, unless it was skipped.
func New(t testing.TB, steps ...Step) *Server {
	t.Helper()
	s := &Server{t: t, script: steps}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		if left := len(s.script) - s.next; left > 0 && !t.Skipped() {
			t.Errorf("agenttest: %d of %d scripted steps never requested", left, len(s.script))
		}
	})
	return s
}

// URL is the base URL to configure a client with; it ends in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Add appends steps to the script.
func (s *Server) Add(steps ...Step) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, steps...)
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Count is the number of requests received so far.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count
}

// wire is the request body as Chat Completions sends it.
type wire struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
	ToolChoice json.RawMessage `json:"tool_choice"`
	Stream     bool            `json:"stream"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		s.t.Errorf("agenttest: unexpected %s %s", r.Method, r.URL.Path)
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("agenttest: read request: %v", err)
		return
	}
	var in wire
	if err := json.Unmarshal(body, &in); err != nil {
		s.t.Errorf("agenttest: request is not JSON: %v", err)
		writeError(w, http.StatusBadRequest, "request is not JSON")
		return
	}
	req := Request{Model: in.Model, Stream: in.Stream, ToolChoice: in.ToolChoice, Header: r.Header.Clone(), Body: body}
	for _, m := range in.Messages {
		msg := Message{Role: m.Role, Content: content(m.Content), ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, Call{Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		req.Messages = append(req.Messages, msg)
	}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}

	s.mu.Lock()
	if !s.discard {
		s.reqs = append(s.reqs, req)
	}
	s.count++
	n := s.count
	q := s.quirks
	if q.RefuseNamedToolChoice && req.ForcedTool() != "" {
		s.mu.Unlock()
		writeError(w, http.StatusBadRequest, "Invalid tool_choice: "+string(req.ToolChoice))
		return
	}
	var step Step
	ok := s.next < len(s.script)
	if ok {
		step = s.script[s.next]
		s.next++
	}
	total := len(s.script)
	s.mu.Unlock()
	if !ok {
		s.t.Errorf("agenttest: request %d arrived but the script has only %d steps", n, total)
		writeError(w, http.StatusBadRequest, "agenttest: script exhausted")
		return
	}
	if step.Do != nil {
		step.Do()
	}
	if q.IgnoreToolChoice && len(step.Calls) > 0 {
		step = inText(step)
	}
	if q.NoToolCallIDs {
		step.noIDs = true
	}

	if step.Delay > 0 {
		t := time.NewTimer(step.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		}
	}
	if step.Status != 0 && step.Status != http.StatusOK {
		if step.RetryAfter != "" {
			w.Header().Set("Retry-After", step.RetryAfter)
		}
		if step.Body != "" {
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(step.Status)
			io.WriteString(w, step.Body)
			return
		}
		writeError(w, step.Status, fmt.Sprintf("scripted %d", step.Status))
		return
	}
	if step.Trickle > 0 && step.Fill <= 0 {
		trickle(w, r, answer(n, in.Model, step), step.Trickle)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	answer := []byte(step.Raw)
	if step.Raw == "" {
		if answer, err = json.Marshal(completion(n, in.Model, step)); err != nil {
			s.t.Errorf("agenttest: encode the answer: %v", err)
			return
		}
	}
	if step.Fill > 0 {
		s.stream(w, r, answer, step)
		return
	}
	w.Write(answer)
}

// stream writes body with every FillMarker replaced by step.Fill bytes of
// 'x', in chunks, counting what the client took.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, body []byte, step Step) {
	parts := bytes.Split(body, []byte(FillMarker))
	if !step.NoLength {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)+(len(parts)-1)*(step.Fill-len(FillMarker))))
	}
	chunk := step.Chunk
	if chunk <= 0 {
		chunk = 32 << 10
	}
	filler := bytes.Repeat([]byte{'x'}, chunk)
	flusher, _ := w.(http.Flusher)
	write := func(b []byte) bool {
		if step.Trickle > 0 {
			t := time.NewTimer(step.Trickle)
			defer t.Stop()
			select {
			case <-t.C:
			case <-r.Context().Done():
				return false
			}
		}
		n, err := w.Write(b)
		s.mu.Lock()
		s.written += int64(n)
		s.mu.Unlock()
		if err == nil && flusher != nil {
			flusher.Flush()
		}
		return err == nil && r.Context().Err() == nil
	}
	for i, p := range parts {
		for len(p) > 0 {
			k := min(chunk, len(p))
			if !write(p[:k]) {
				return
			}
			p = p[k:]
		}
		if i == len(parts)-1 {
			break
		}
		for left := step.Fill; left > 0; left -= chunk {
			if !write(filler[:min(chunk, left)]) {
				return
			}
		}
	}
}

// completion is a Chat Completions answer, as openai-go decodes it.
func completion(n int, model string, st Step) map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	if st.Content != "" {
		msg["content"] = st.Content
	}
	finish := "stop"
	if len(st.Calls) > 0 {
		var calls []map[string]any
		for i, c := range st.Calls {
			call := map[string]any{
				"id":   "call_" + strconv.Itoa(n) + "_" + strconv.Itoa(i),
				"type": "function",
				"function": map[string]any{
					"name":      c.Name,
					"arguments": c.Arguments,
				},
			}
			if st.noIDs {
				delete(call, "id")
			}
			calls = append(calls, call)
		}
		msg["tool_calls"] = calls
		finish = "tool_calls"
	}
	return map[string]any{
		"id":      "chatcmpl-agenttest-" + strconv.Itoa(n),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   model,
		"choices": []map[string]any{{
			"index":         0,
			"message":       msg,
			"finish_reason": finish,
			"logprobs":      nil,
		}},
		"usage": map[string]any{
			"prompt_tokens":     st.TokensIn,
			"completion_tokens": st.TokensOut,
			"total_tokens":      st.TokensIn + st.TokensOut,
		},
	}
}

// content reads a message's content: a string, or text parts.
func content(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": msg, "type": "agenttest", "param": nil, "code": nil,
	}})
}
