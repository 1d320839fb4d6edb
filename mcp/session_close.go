package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

type sessionIn struct {
	Session string `json:"session" jsonschema:"the session id session_open returned"`
}

type sessionCloseOut struct {
	Session string `json:"session"`
	Closed  bool   `json:"closed"`
}

func sessionClose(s *Server, _ context.Context, _ *sdk.CallToolRequest, in sessionIn) (any, error) {
	if !s.closeSession(in.Session) {
		return nil, fmt.Errorf("no open session %q", in.Session)
	}
	return sessionCloseOut{Session: in.Session, Closed: true}, nil
}
