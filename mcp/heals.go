package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session"
)

type healsListIn struct {
	All bool `json:"all,omitempty" jsonschema:"include accepted, rejected and superseded heals"`
}

type healSummary struct {
	ID     int64  `json:"id"`
	Status string `json:"status"`
	Test   string `json:"test"`
	Goal   string `json:"goal"`
	Old    int    `json:"oldSteps"`
	New    int    `json:"newSteps"`
	Reason string `json:"reason"`
}

func healsList(s *Server, ctx context.Context, _ *sdk.CallToolRequest, in healsListIn) (any, error) {
	status := "staged"
	if in.All {
		status = ""
	}
	hs, err := s.o.Store.Heals(ctx, status)
	if err != nil {
		return nil, err
	}
	out := struct {
		Heals []healSummary `json:"heals"`
	}{Heals: []healSummary{}}
	for _, h := range hs {
		out.Heals = append(out.Heals, healSummary{ID: h.ID, Status: h.Status, Test: h.Test, Goal: h.Goal, Old: len(h.OldSteps), New: len(h.NewSteps), Reason: h.Reason})
	}
	return out, nil
}

type healIn struct {
	ID int64 `json:"id" jsonschema:"the heal's id, from heals_list"`
}

type healShowOut struct {
	healSummary
	Diff          []string `json:"diff"` // "= step", "- old", "+ new", "~ old → new"
	Postcondition string   `json:"postcondition,omitempty"`
	PageChange    []string `json:"pageChange,omitempty"` // the page when the replay failed → when the heal ended
	DecidedBy     string   `json:"decidedBy,omitempty"`
}

func healsShow(s *Server, ctx context.Context, _ *sdk.CallToolRequest, in healIn) (any, error) {
	h, err := s.heal(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	out := healShowOut{healSummary: healSummary{ID: h.ID, Status: h.Status, Test: h.Test, Goal: h.Goal, Old: len(h.OldSteps), New: len(h.NewSteps), Reason: h.Reason},
		Postcondition: h.Postcondition, DecidedBy: h.DecidedBy, Diff: []string{}}
	for _, d := range session.DiffSteps(h.OldSteps, h.NewSteps) {
		switch d.Op {
		case session.DiffSame:
			out.Diff = append(out.Diff, "= "+session.StepText(d.Old))
		case session.DiffChanged:
			out.Diff = append(out.Diff, "~ "+session.StepText(d.Old)+" → "+session.StepText(d.New))
		case session.DiffDelete:
			out.Diff = append(out.Diff, "- "+session.StepText(d.Old))
		default:
			out.Diff = append(out.Diff, "+ "+session.StepText(d.New))
		}
	}
	for i, d := range session.PageChange(h.PageBefore, h.PageAfter, 2) {
		if i == 60 {
			out.PageChange = append(out.PageChange, "… (more changes)")
			break
		}
		switch d.Op {
		case session.DiffGap:
			out.PageChange = append(out.PageChange, "⋯")
		case session.DiffDelete:
			out.PageChange = append(out.PageChange, "- "+d.Old)
		case session.DiffInsert:
			out.PageChange = append(out.PageChange, "+ "+d.New)
		default:
			out.PageChange = append(out.PageChange, "  "+d.Old)
		}
	}
	return out, nil
}

func (s *Server) heal(ctx context.Context, id int64) (*session.Heal, error) {
	if id <= 0 {
		return nil, fmt.Errorf("heal id %d: want a number from heals_list", id)
	}
	return s.o.Store.Heal(ctx, id)
}

type healDecideIn struct {
	ID       int64  `json:"id" jsonschema:"the heal's id, from heals_list"`
	Reviewer string `json:"reviewer" jsonschema:"the name of the person who reviewed the heal"`
}

type healDecideOut struct {
	ID        int64  `json:"id"`
	Status    string `json:"status"`
	DecidedBy string `json:"decidedBy"`
}

func healsAccept(s *Server, ctx context.Context, _ *sdk.CallToolRequest, in healDecideIn) (any, error) {
	return s.decide(ctx, in, true)
}

func healsReject(s *Server, ctx context.Context, _ *sdk.CallToolRequest, in healDecideIn) (any, error) {
	return s.decide(ctx, in, false)
}

func (s *Server) decide(ctx context.Context, in healDecideIn, accept bool) (any, error) {
	verb := map[bool]string{true: "accept", false: "reject"}[accept]
	if !s.o.AllowReview {
		return nil, fmt.Errorf("refused: this server was started without --allow-review, so heals are decided by a person (e2e heals %s %d, or e2e studio --heals)", verb, in.ID)
	}
	if strings.TrimSpace(in.Reviewer) == "" {
		return nil, errors.New("reviewer: give the name of the person who reviewed the heal")
	}
	if _, err := s.heal(ctx, in.ID); err != nil {
		return nil, err
	}
	h, err := s.o.Store.DecideHeal(ctx, in.ID, accept, "mcp:"+strings.TrimSpace(in.Reviewer))
	if err != nil {
		return nil, err
	}
	return healDecideOut{ID: h.ID, Status: h.Status, DecidedBy: h.DecidedBy}, nil
}
