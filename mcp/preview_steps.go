package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/step"
	"github.com/e2e-dev/e2e/session/testfile"
)

type previewIn struct {
	Session string   `json:"session" jsonschema:"the session id session_open returned"`
	Steps   []string `json:"steps" jsonschema:"steps in the test-file form, one each: 'click: the Sign in button', 'type: { into: the Email field, text: a@b.test }', 'expect: { visible: the Welcome heading }'"`
}

type previewOut struct {
	Steps []previewStep `json:"steps"`
}

// previewStep is how one step went on the live page.
type previewStep struct {
	Index      int      `json:"index"`        // the step's place in the call's steps, from 0
	ID         string   `json:"id,omitempty"` // for write_test; only steps that passed have one
	Step       string   `json:"step"`
	Status     string   `json:"status"` // as a run's, or "invalid": the step does not parse and did not run
	Element    *element `json:"element,omitempty"`
	Via        string   `json:"via,omitempty"` // cache, re-identified, locate or model
	CacheKeys  []string `json:"cacheKeys,omitempty"`
	Cache      string   `json:"cache,omitempty"`
	MissReason string   `json:"missReason,omitempty"`
	Error      string   `json:"error,omitempty"`
	Reason     string   `json:"reason,omitempty"` // no-match or ambiguous
	// Settled says a no-match was answered at once because the page had
	// settled with nothing matching, not after the step timeout.
	Settled    bool        `json:"settled,omitempty"`
	Candidates []candidate `json:"candidates,omitempty"`
	PageChange []string    `json:"pageChange,omitempty"`
	MS         int64       `json:"ms"`
}

type element struct {
	Ref  string `json:"ref,omitempty"`
	Role string `json:"role"`
	Name string `json:"name"`
	Line string `json:"line"`
}

type candidate struct {
	Line  string  `json:"line"`
	Ref   string  `json:"ref,omitempty"`
	Score float64 `json:"score"`
}

// statusInvalid is the status of a previewed step that does not parse.
const statusInvalid = "invalid"

// maxPageChange caps the changed outline lines a step reports.
const maxPageChange = 30

func previewSteps(s *Server, ctx context.Context, _ *sdk.CallToolRequest, in previewIn) (any, error) {
	l, err := s.session(in.Session)
	if err != nil {
		return nil, err
	}
	if len(in.Steps) == 0 {
		return nil, errors.New("steps: give at least one step, such as 'click: the Sign in button'")
	}
	// A step that does not parse is reported in its place, with every
	// problem it has; the others run.
	parsed := make([]testfile.Step, len(in.Steps))
	lines := make([]string, len(in.Steps))
	bad := make([]error, len(in.Steps))
	for i, line := range in.Steps {
		line = strings.TrimSpace(line)
		var st testfile.Step
		var err error
		if strings.HasPrefix(line, "--step-type") {
			line, st, err = fromCommand(line)
		} else {
			st, err = parseStep(line)
		}
		parsed[i], lines[i], bad[i] = st, line, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("session %q is closed", in.Session)
	}
	out := previewOut{Steps: []previewStep{}}
	for i, st := range parsed {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if bad[i] != nil {
			out.Steps = append(out.Steps, previewStep{Index: i, Step: in.Steps[i], Status: statusInvalid, Error: bad[i].Error()})
			continue
		}
		if st.Type == step.Navigate {
			if why := l.r.OutsideOrigins(st.Value); why != "" {
				out.Steps = append(out.Steps, previewStep{Index: i, Step: lines[i], Status: string(session.StatusFailed), Error: why})
				continue
			}
		}
		ps := s.preview(ctx, l, lines[i], st)
		ps.Index = i
		out.Steps = append(out.Steps, ps)
	}
	return out, nil
}

// preview runs one step on the session's page.
func (s *Server) preview(ctx context.Context, l *liveSession, line string, st testfile.Step) previewStep {
	page := l.live.Page()
	if st.Type != step.Navigate {
		if err := l.live.CheckOrigin(ctx); err != nil {
			// The page sent itself off the allowed origins: nothing is
			// typed or clicked there, and none of it is shown.
			return previewStep{Step: line, Status: string(session.StatusFailed), Error: s.o.Redactor.String(err.Error()) + "; navigate back (navigate: /) or open a new session"}
		}
	}
	before := s.pageText(ctx, page)
	beforeURL, _ := page.URL(ctx)
	l.target = nil
	sr := l.live.Step(ctx, st)
	// A step that took the page off the allowed origins (a link to another
	// site) is not kept, and the page goes back where it was.
	if u, err := page.URL(ctx); err == nil && sr.Status != session.StatusFailed {
		if why := l.r.OutsideOrigins(u); why != "" {
			sr.Status, sr.Error = session.StatusFailed, "the step left the allowed origins ("+why+"); it is not kept and the page went back"
			if beforeURL != "" {
				_, _ = page.Navigate(ctx, beforeURL)
			}
		}
	}
	ps := previewStep{Step: line, Status: string(sr.Status), Cache: sr.Cache, MissReason: sr.MissReason, Error: sr.Error, MS: sr.DurationMS}
	for _, e := range l.target {
		if e.Via != "" {
			ps.Via = e.Via
		}
		if e.Node != nil {
			ps.Element = &element{Ref: e.Ref, Role: e.Node.Role, Name: e.Node.Name, Line: e.Node.Line()}
		}
		if e.Err != nil {
			ps.Reason = e.Reason
			if nf, ok := errors.AsType[*runner.NotFoundError](e.Err); ok {
				ps.Settled = nf.Settled
				for _, c := range nf.Candidates {
					ps.Candidates = append(ps.Candidates, candidate{Line: c.Node.Line(), Ref: c.Node.Ref, Score: c.Score})
				}
			}
		}
	}
	if ps.Element == nil && sr.Status != session.StatusFailed && len(l.target) > 0 && l.target[0].Ref != "" {
		if n := s.node(ctx, page, l.target[0].Ref); n != nil { // a cache hit: no candidate was chosen
			ps.Element = &element{Ref: l.target[0].Ref, Role: n.Role, Name: n.Name, Line: n.Line()}
		}
	}
	if sr.Status != session.StatusFailed {
		for _, k := range l.live.LastKeys() {
			ps.CacheKeys = append(ps.CacheKeys, string(k))
		}
		ps.ID = fmt.Sprintf("p%d", len(l.previewed)+1)
		l.previewed = append(l.previewed, previewed{ID: ps.ID, Line: line})
	}
	after := s.pageText(ctx, page)
	for i, d := range session.PageChange(before, after, 1) {
		if i == maxPageChange {
			ps.PageChange = append(ps.PageChange, "… (more changes)")
			break
		}
		switch d.Op {
		case session.DiffGap:
			ps.PageChange = append(ps.PageChange, "⋯")
		case session.DiffDelete:
			ps.PageChange = append(ps.PageChange, "- "+d.Old)
		case session.DiffInsert:
			ps.PageChange = append(ps.PageChange, "+ "+d.New)
		default:
			ps.PageChange = append(ps.PageChange, "  "+d.Old)
		}
	}
	return ps
}

// pageText is the page's outline, secrets redacted; "" when it cannot be read.
func (s *Server) pageText(ctx context.Context, p *browser.Page) string {
	snap, err := p.Snapshot(ctx, browser.SnapshotOptions{MaxNodes: 5000})
	if err != nil {
		return ""
	}
	return s.o.Redactor.String(snap.Text(ax.TextOptions{}))
}

// node is the node with ref on the page now, or nil.
func (s *Server) node(ctx context.Context, p *browser.Page, ref string) *ax.Node {
	snap, err := p.Snapshot(ctx, browser.SnapshotOptions{MaxNodes: 5000})
	if err != nil {
		return nil
	}
	return findRef(snap.Root, ref)
}

// parseStep reads one step in the test-file form; a step of several lines
// (a block mapping) is indented under the list item.
func parseStep(src string) (testfile.Step, error) {
	src = strings.TrimSpace(src)
	if src == "" {
		return testfile.Step{}, errors.New("empty step")
	}
	src = strings.TrimPrefix(src, "- ")
	lines := strings.Split(src, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = "    " + lines[i]
	}
	t, err := testfile.Parse("step", []byte("name: step\nsteps:\n  - "+strings.Join(lines, "\n")+"\n"))
	if err != nil {
		if list, ok := errors.AsType[testfile.List](err); ok && len(list) > 0 {
			msgs := make([]string, len(list))
			for i, e := range list {
				msgs[i] = e.Msg
			}
			return testfile.Step{}, errors.New(strings.Join(msgs, "; "))
		}
		return testfile.Step{}, err
	}
	if len(t.Steps) != 1 {
		return testfile.Step{}, errors.New("want exactly one step")
	}
	return t.Steps[0], nil
}
