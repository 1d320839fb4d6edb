package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
)

// DefaultSnapshotChars caps a snapshot's outline unless the call asks for
// another cap.
const DefaultSnapshotChars = 20000

type snapshotIn struct {
	Session         string `json:"session,omitempty" jsonschema:"the session id session_open returned"`
	URL             string `json:"url,omitempty" jsonschema:"instead of a session: open this page (as session_open would), snapshot it and close it"`
	Scope           string `json:"scope,omitempty" jsonschema:"a ref from an earlier snapshot (e12): only its subtree"`
	InteractiveOnly bool   `json:"interactiveOnly,omitempty" jsonschema:"only interactable elements and the containers around them"`
	MaxChars        int    `json:"maxChars,omitempty" jsonschema:"cut the outline at this many characters (default 20000)"`
}

type snapshotOut struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	Outline   string `json:"outline"`
	Truncated bool   `json:"truncated,omitempty"`
}

func snapshot(s *Server, ctx context.Context, req *sdk.CallToolRequest, in snapshotIn) (any, error) {
	switch {
	case in.Session != "" && in.URL != "":
		return nil, errors.New("give session or url, not both")
	case in.Session == "" && in.URL == "":
		return nil, errors.New("give session (from session_open) or url")
	case in.URL != "":
		open, err := sessionOpen(s, ctx, nil, sessionOpenIn{URL: in.URL, Test: "snapshot"})
		if err != nil {
			return nil, err
		}
		id := open.(sessionOpenOut).Session
		defer s.closeSession(id)
		in.Session = id
	}
	l, err := s.session(in.Session)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("session %q is closed", in.Session)
	}
	if err := l.live.CheckOrigin(ctx); err != nil {
		// A page that sent itself off the allowed origins is not shown.
		return nil, errors.New(s.o.Redactor.String(err.Error()) + "; navigate back with preview_steps (navigate: /) or open a new session")
	}
	return s.outline(ctx, l.live.Page(), in.Scope, in.InteractiveOnly, in.MaxChars)
}

// outline is the page's outline as the agent reads it, secrets redacted,
// cut at maxChars.
func (s *Server) outline(ctx context.Context, p *browser.Page, scope string, interactive bool, maxChars int) (snapshotOut, error) {
	if maxChars <= 0 {
		maxChars = DefaultSnapshotChars
	}
	var out snapshotOut
	if scope != "" {
		full, err := p.Snapshot(ctx, browser.SnapshotOptions{})
		if err != nil {
			return out, err
		}
		if findRef(full.Root, scope) == nil {
			return out, fmt.Errorf("ref %q is not on the page; take a snapshot and use one of its refs (e1, e2, …)", scope)
		}
	}
	snap, err := p.Snapshot(ctx, browser.SnapshotOptions{Scope: scope, MaxNodes: 5000})
	if err != nil {
		return out, err
	}
	text := s.o.Redactor.String(snap.Text(ax.TextOptions{InteractiveOnly: interactive}))
	if r := []rune(text); len(r) > maxChars {
		text, out.Truncated = string(r[:maxChars])+"\n… (cut at "+fmt.Sprint(maxChars)+" characters; use scope or interactiveOnly)", true
	}
	out.Outline = text
	out.URL = s.o.Redactor.String(snap.URL)
	out.Title = s.o.Redactor.String(snap.Title)
	return out, nil
}

// findRef finds the node with ref in the tree.
func findRef(ns []*ax.Node, ref string) *ax.Node {
	ref = strings.TrimSpace(ref)
	for _, n := range ns {
		if n.Ref == ref {
			return n
		}
		if f := findRef(n.Children, ref); f != nil {
			return f
		}
	}
	return nil
}
