package mcp

import (
	"context"
	"errors"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/store"
)

type cacheStatsIn struct {
	Runs int `json:"runs,omitempty" jsonschema:"look at the last this many runs (default 20)"`
}

func cacheStats(s *Server, ctx context.Context, _ *sdk.CallToolRequest, in cacheStatsIn) (any, error) {
	runs := in.Runs
	if runs <= 0 {
		runs = 20
	}
	return s.o.Store.CacheStatistics(ctx, runs)
}

type cacheShowIn struct {
	Test string `json:"test,omitempty" jsonschema:"only the rows of this test (its name)"`
	Key  string `json:"key,omitempty" jsonschema:"only the rows whose key starts with this"`
}

// maxCacheRows caps the rows cache_show answers with.
const maxCacheRows = 100

func cacheShow(s *Server, ctx context.Context, _ *sdk.CallToolRequest, in cacheShowIn) (any, error) {
	if in.Test == "" && in.Key == "" {
		return nil, errors.New("give test or key (a prefix of a cache key, as preview_steps and run_tests show)")
	}
	rows, err := s.o.Store.CacheRows(ctx, store.CacheFilter{Test: in.Test, Key: in.Key})
	if err != nil {
		return nil, err
	}
	out := struct {
		Rows  []store.CacheRow `json:"rows"`
		Total int              `json:"total"`
	}{Rows: []store.CacheRow{}, Total: len(rows)}
	if len(rows) > maxCacheRows {
		rows = rows[:maxCacheRows]
	}
	out.Rows = append(out.Rows, rows...)
	return out, nil
}
