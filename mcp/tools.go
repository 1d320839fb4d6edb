package mcp

import (
	"context"
	"embed"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools' descriptions, one file each beside the tool.
//
//go:embed tools/*.md
var descriptions embed.FS

func description(name string) string {
	b, err := descriptions.ReadFile("tools/" + name + ".md")
	if err != nil {
		panic("mcp: no description for tool " + name)
	}
	return strings.TrimSpace(string(b))
}

// tool is one row of the tool table.
type tool struct {
	name string
	add  func(s *Server, t *sdk.Tool)
}

// tools is every tool the server offers, one file each.
var tools = []tool{
	{"session_open", handle(sessionOpen)},
	{"session_close", handle(sessionClose)},
	{"snapshot", handle(snapshot)},
	{"preview_steps", handle(previewSteps)},
	{"write_test", handle(writeTest)},
	{"run_tests", handle(runTests)},
	{"heals_list", handle(healsList)},
	{"heals_show", handle(healsShow)},
	{"heals_accept", handle(healsAccept)},
	{"heals_reject", handle(healsReject)},
	{"cache_stats", handle(cacheStats)},
	{"cache_show", handle(cacheShow)},
}

// handler is a tool's implementation: typed input, any JSON output.
type handler[In any] func(s *Server, ctx context.Context, req *sdk.CallToolRequest, in In) (any, error)

// handle adds a typed tool whose errors are tool errors (redacted) and
// whose panics are tool errors too, never a crash of the server.
func handle[In any](h handler[In]) func(*Server, *sdk.Tool) {
	return func(s *Server, t *sdk.Tool) {
		schema, err := jsonschema.For[In](nil)
		if err != nil {
			panic("mcp: the input of tool " + t.Name + ": " + err.Error())
		}
		portable(schema)
		t.InputSchema = schema
		sdk.AddTool(s.srv, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, _ any, err error) {
			done, err := s.begin()
			if err != nil {
				return s.toolError(err), nil, nil
			}
			defer done()
			defer func() {
				if p := recover(); p != nil {
					res, err = s.toolError(fmt.Errorf("%s: internal error: %v\n%s", t.Name, p, firstLines(string(debug.Stack()), 12))), nil
				}
			}()
			out, err := h(s, ctx, req, in)
			if err != nil {
				return s.toolError(err), nil, nil
			}
			res, err = s.result(out)
			if err != nil {
				return s.toolError(err), nil, nil
			}
			return res, nil, nil
		})
	}
}

// portable gives every property one type: an optional slice or pointer is
// ["null", "array"] by default, which some clients (those that map tool
// schemas onto a single-type dialect) reject; absent is how it is left out.
func portable(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		for _, ty := range s.Types {
			if ty != "null" {
				s.Type, s.Types = ty, nil
			}
		}
	}
	for _, p := range s.Properties {
		portable(p)
	}
	portable(s.Items)
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
