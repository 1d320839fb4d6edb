package agent

import (
	"encoding/json"
	"strings"
)

// What local servers do that the API does not say, and how the client
// copes (agenttest.Quirks plays each):
//
//   - A server that ignores tool_choice (Ollama) lets a model that does not
//     call tools answer in text. A text that is nothing but the call written
//     as JSON is taken as that call (callInText); other text is asked again
//     and then fails with ignoresToolChoice, which names the setting to
//     change.
//   - A server that refuses a named tool_choice (llama.cpp) is asked again
//     with "required" (completeForced); one that refuses that too fails with
//     refusesToolChoice.
//   - Tool calls without ids get ids of the client's own (Actor.Act).
//   - Usage sent only at the end of a stream does not arise: the client
//     never asks for a stream, so usage comes with the one answer body (and
//     a server that reports none is counted by the client's estimate).

// ignoresToolChoice says what a server that answers in text did and
// which setting to change.
const ignoresToolChoice = "the server answered in text although tool_choice required a tool call: it ignores tool_choice (as Ollama does) and this model does not call tools; set model.name in e2e.yaml (or E2E_MODEL, --model) to a model that supports tool calling"

// refusesToolChoice says what a server that refuses tool_choice did and
// which setting to change.
const refusesToolChoice = "the server refused tool_choice, named and \"required\" alike: set model.baseURL in e2e.yaml (or OPENAI_BASE_URL, --model-url) to a server that supports tool calls (llama.cpp: start llama-server with --jinja)"

// forcesTool says whether a tool choice requires a tool call.
func forcesTool(choice string) bool { return choice != "" && choice != "auto" && choice != "none" }

// textCall is a tool call as models write it in text.
type textCall struct {
	Name       string          `json:"name"`
	Arguments  json.RawMessage `json:"arguments"`
	Parameters json.RawMessage `json:"parameters"`
}

// callsInText reads the tool calls a model wrote as text instead of
// calling them: the whole text (a ```json fence around it allowed) is one
// JSON object {"name": …, "arguments": {…}} ("parameters" for
// "arguments" too, as Llama models write it), or one such object a line,
// each naming one of tools. ok is false for any other text, which is then
// an answer in text.
func callsInText(content string, tools []Tool) ([]ToolCall, bool) {
	s := strings.TrimSpace(content)
	if rest, ok := strings.CutPrefix(s, "```"); ok {
		rest = strings.TrimPrefix(rest, "json")
		if body, ok := strings.CutSuffix(strings.TrimSpace(rest), "```"); ok {
			s = strings.TrimSpace(body)
		}
	}
	if !strings.HasPrefix(s, "{") {
		return nil, false
	}
	known := map[string]bool{}
	for _, t := range tools {
		known[t.Name] = true
	}
	read := func(text string) (ToolCall, bool) {
		var c textCall
		if json.Unmarshal([]byte(text), &c) != nil || !known[c.Name] {
			return ToolCall{}, false
		}
		args := c.Arguments
		if len(args) == 0 {
			args = c.Parameters
		}
		var str string
		if json.Unmarshal(args, &str) == nil {
			return ToolCall{Name: c.Name, Arguments: str}, true // arguments as a JSON string, as the API sends them
		}
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		return ToolCall{Name: c.Name, Arguments: string(args)}, true
	}
	if c, ok := read(s); ok {
		return []ToolCall{c}, true
	}
	var calls []ToolCall
	for line := range strings.SplitSeq(s, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		c, ok := read(line)
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
	}
	return calls, len(calls) > 0
}
