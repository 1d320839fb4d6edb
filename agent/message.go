package agent

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// Role is who speaks a message.
type Role string

// Message roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one chat message. Callers outside this package build requests
// with it, so that only agent/ knows the wire types of openai-go.
type Message struct {
	Role       Role
	Content    string
	ToolCalls  []ToolCall // an assistant's calls
	ToolCallID string     // for RoleTool: the call this message answers
}

// ToolCall is a function call the model made. Arguments is the raw JSON text
// the model wrote; it may be malformed.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Tool is a function the model may call. Parameters is a JSON schema.
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// Usage is the tokens one call consumed.
type Usage struct {
	In  int
	Out int
}

// Price is what a model costs in USD per million tokens.
type Price struct {
	Input  float64 `json:"input" yaml:"input"`
	Output float64 `json:"output" yaml:"output"`
}

// Cost is the price of a usage.
func (p Price) Cost(u Usage) float64 {
	return float64(u.In)*p.Input/1e6 + float64(u.Out)*p.Output/1e6
}

// params builds the wire request.
func (c *Client) params(req Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(c.cfg.Model)}
	for i, m := range req.Messages {
		var u openai.ChatCompletionMessageParamUnion
		switch m.Role {
		case RoleSystem:
			u = openai.SystemMessage(m.Content)
		case RoleUser:
			u = openai.UserMessage(m.Content)
		case RoleAssistant:
			a := openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" {
				a.Content.OfString = openai.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name:      tc.Name,
							Arguments: tc.Arguments,
						},
					},
				})
			}
			u = openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
		case RoleTool:
			u = openai.ToolMessage(m.Content, m.ToolCallID)
		default:
			return p, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
		p.Messages = append(p.Messages, u)
	}
	for _, t := range req.Tools {
		fd := shared.FunctionDefinitionParam{
			Name:       t.Name,
			Parameters: shared.FunctionParameters(t.Parameters),
		}
		if t.Description != "" {
			fd.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fd))
	}
	switch req.ToolChoice {
	case "":
	case "auto", "none", "required":
		p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String(req.ToolChoice)}
	default:
		p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: req.ToolChoice})
	}
	if req.MaxTokens > 0 {
		p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
	}
	return p, nil
}

// response reads the wire answer. It fails when there is no choice.
func response(cc *openai.ChatCompletion) (*Response, error) {
	if cc == nil || len(cc.Choices) == 0 {
		return nil, fmt.Errorf("no choices in the answer")
	}
	ch := cc.Choices[0]
	r := &Response{
		Content:      ch.Message.Content,
		FinishReason: ch.FinishReason,
		Model:        cc.Model,
		Usage:        Usage{In: int(cc.Usage.PromptTokens), Out: int(cc.Usage.CompletionTokens)},
	}
	for _, tc := range ch.Message.ToolCalls {
		call := ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments}
		if tc.Type == "custom" {
			call.Name, call.Arguments = tc.Custom.Name, tc.Custom.Input
		}
		r.ToolCalls = append(r.ToolCalls, call)
	}
	return r, nil
}

// DecodeArguments unmarshals a tool call's arguments into v, with an error
// that names the tool and what is wrong, fit to show the model.
func DecodeArguments(tc ToolCall, v any) error {
	if err := json.Unmarshal([]byte(tc.Arguments), v); err != nil {
		return fmt.Errorf("the arguments of %s are not valid JSON for its schema: %v", tc.Name, err)
	}
	return nil
}
