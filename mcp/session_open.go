package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	runner "github.com/e2e-dev/e2e/session/run"
)

type sessionOpenIn struct {
	URL  string `json:"url" jsonschema:"the page to open: a path relative to the base URL (/login) or an absolute URL of the base URL's origin or an allowed origin"`
	Test string `json:"test,omitempty" jsonschema:"the name of the test the steps will be written to (default: from the URL's path); cache rows are keyed by it"`
}

type sessionOpenOut struct {
	Session string `json:"session"`
	Test    string `json:"test"`
	URL     string `json:"url"`
	Title   string `json:"title"`
}

// liveSession is a page the server keeps for a client: its own browser
// context, a test being recorded in it, and the steps previewed in it.
type liveSession struct {
	id    string
	owner *sdk.ServerSession
	name  string
	start string // the start URL as the test file will hold it

	mu        sync.Mutex // one tool at a time on the page
	live      *runner.Live
	r         *runner.Runner
	target    []runner.TargetEvent // the lookups of the step running
	previewed []previewed          // steps that worked, by id p1, p2, …
	closed    bool
}

// previewed is a step that passed on the live page.
type previewed struct {
	ID   string
	Line string // as it will be written in the test file
}

func sessionOpen(s *Server, ctx context.Context, req *sdk.CallToolRequest, in sessionOpenIn) (any, error) {
	start, err := s.startURL(in.URL)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(in.Test)
	if name == "" {
		name = nameFromURL(start)
	}
	s.mu.Lock()
	if len(s.sessions) >= s.o.MaxSessions {
		n := len(s.sessions)
		s.mu.Unlock()
		return nil, fmt.Errorf("session limit reached: %d open, at most %d (--max-sessions); close one with session_close", n, s.o.MaxSessions)
	}
	s.next++
	id := fmt.Sprintf("s%d", s.next)
	l := &liveSession{id: id, name: name, start: start}
	if req != nil {
		l.owner = req.Session
	}
	s.sessions[id] = l // holds the place while the page opens
	s.mu.Unlock()
	drop := func() {
		s.mu.Lock()
		delete(s.sessions, id)
		s.mu.Unlock()
	}
	b, err := s.browser(ctx)
	if err != nil {
		drop()
		return nil, err
	}
	o := s.runnerOptions(b)
	// The coding agent is the model: a preview is located by the local
	// locator alone, and an ambiguous description comes back with its
	// candidates instead of going to a model. (The agent configuration
	// stays: it enters the cache keys a run reads.)
	o.Model = nil
	o.OnTarget = func(_ context.Context, e runner.TargetEvent) { l.target = append(l.target, e) }
	r, err := runner.New(o)
	if err != nil {
		drop()
		return nil, err
	}
	if why := r.OutsideOrigins(start); why != "" {
		drop()
		return nil, errors.New(why)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	live, err := r.Record(context.WithoutCancel(ctx), name, "", start)
	if err != nil {
		drop()
		return nil, err
	}
	l.live, l.r = live, r
	if l.owner != nil {
		go func() { // a client that goes away leaves no page behind
			_ = l.owner.Wait()
			s.closeSession(l.id)
		}()
	}
	out := sessionOpenOut{Session: id, Test: name, URL: start}
	out.URL, _ = live.Page().URL(ctx)
	out.Title, _ = live.Page().Title(ctx)
	return out, nil
}

// startURL checks a session's URL: relative to the base URL, or absolute
// (the origin is checked against the configuration by the runner).
func (s *Server) startURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("url: give a path (/login) or an absolute URL")
	}
	if strings.HasPrefix(raw, "/") {
		if s.o.Config.BaseURL == "" {
			return "", fmt.Errorf("url %q is relative and e2e.yaml has no baseURL", raw)
		}
		return raw, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("url %q: want a path (/login) or an absolute http(s) URL", raw)
	}
	if base := strings.TrimRight(s.o.Config.BaseURL, "/"); base != "" && (raw == base || strings.HasPrefix(raw, base+"/")) {
		if rel := strings.TrimPrefix(raw, base); rel != "" {
			return rel, nil
		}
		return "/", nil
	}
	return raw, nil
}

// nameFromURL names a test after its URL's path: /product → "product".
func nameFromURL(u string) string {
	if p, err := url.Parse(u); err == nil {
		u = p.Path
	}
	u = strings.Trim(u, "/")
	if u == "" {
		return "home"
	}
	return strings.ReplaceAll(u, "/", " ")
}

// session returns the open session id.
func (s *Server) session(id string) (*liveSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.sessions[id]
	if !ok || l.live == nil {
		return nil, fmt.Errorf("no open session %q; open one with session_open", id)
	}
	return l, nil
}

// closeSession closes and forgets the session id, if it is open.
func (s *Server) closeSession(id string) bool {
	s.mu.Lock()
	l, ok := s.sessions[id]
	if ok && l.live != nil {
		delete(s.sessions, id)
	}
	s.mu.Unlock()
	if !ok || l.live == nil {
		return false
	}
	l.close(context.Background())
	return true
}

// close closes the session's page and context; a session records no run
// (runner.Record).
func (l *liveSession) close(ctx context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.live == nil {
		return
	}
	l.closed = true
	_ = l.live.Close(ctx)
}

// step looks a previewed step up by id.
func (l *liveSession) step(id string) (previewed, bool) {
	for _, p := range l.previewed {
		if p.ID == id {
			return p, true
		}
	}
	return previewed{}, false
}
