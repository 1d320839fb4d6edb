package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/browser"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// benchTimes runs fn b.N times and reports the median latency.
func benchTimes(b *testing.B, fn func()) {
	b.Helper()
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		fn()
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}

// benchDirect is a Live page on the product page, driven from Go.
func benchDirect(b *testing.B) (*runner.Live, func()) {
	b.Helper()
	base := fixtureURL(b)
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte("baseURL: "+base+"\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg, err := testfile.LoadConfig(dir)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, cfg.DBPath())
	if err != nil {
		b.Fatal(err)
	}
	br, err := browser.Launch(ctx, browser.Options{})
	if err != nil {
		b.Fatal(err)
	}
	r, err := runner.New(runner.Options{Config: cfg, Store: db, Browser: br})
	if err != nil {
		b.Fatal(err)
	}
	live, err := r.Record(ctx, "bench", "", "/product")
	if err != nil {
		b.Fatal(err)
	}
	return live, func() { live.Close(ctx); br.Close(); db.Close() }
}

// benchClients are the server reached in process and over stdio.
func benchClients(b *testing.B) map[string]*sdk.ClientSession {
	b.Helper()
	base := fixtureURL(b)
	dir := projectDir(b, base, nil)
	cfg, err := testfile.LoadConfig(dir)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	db, err := store.Open(ctx, cfg.DBPath())
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(Options{Config: cfg, Store: db, Launch: func(ctx context.Context) (*browser.Browser, error) { return browser.Launch(ctx, browser.Options{}) }})
	if err != nil {
		b.Fatal(err)
	}
	ct, st := sdk.NewInMemoryTransports()
	if _, err := s.SDK().Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	mem, err := sdk.NewClient(&sdk.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	// Its own project (and database): no cache row of the in-process runs.
	cmd := execCommand(e2eBinary(b), "mcp", "--config", projectDir(b, base, nil))
	stdio, err := sdk.NewClient(&sdk.Implementation{Name: "bench"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { mem.Close(); stdio.Close(); s.Close(); db.Close() })
	return map[string]*sdk.ClientSession{"inprocess": mem, "stdio": stdio}
}

func benchOpen(b *testing.B, cs *sdk.ClientSession) string {
	b.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "session_open", Arguments: map[string]any{"url": "/product", "test": "bench"}})
	if err != nil || res.IsError {
		b.Fatalf("session_open: %v %+v", err, res)
	}
	var out sessionOpenOut
	if err := json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &out); err != nil {
		b.Fatal(err)
	}
	return out.Session
}

func benchCall(b *testing.B, cs *sdk.ClientSession, name string, args map[string]any) {
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %+v", name, err, res)
	}
}

// BenchmarkMCPSnapshot: a snapshot of the product page through the server
// (in process and over stdio) and the same snapshot made directly in Go.
func BenchmarkMCPSnapshot(b *testing.B) {
	b.Run("direct", func(b *testing.B) {
		live, done := benchDirect(b)
		defer done()
		benchTimes(b, func() {
			s, err := live.Page().Snapshot(context.Background(), browser.SnapshotOptions{MaxNodes: 5000})
			if err != nil {
				b.Fatal(err)
			}
			_ = s.Text(ax.TextOptions{})
		})
	})
	clients := benchClients(b)
	for _, name := range []string{"inprocess", "stdio"} {
		b.Run(name, func(b *testing.B) {
			cs := clients[name]
			id := benchOpen(b, cs)
			benchTimes(b, func() { benchCall(b, cs, "snapshot", map[string]any{"session": id}) })
			benchCall(b, cs, "session_close", map[string]any{"session": id})
		})
	}
}

// BenchmarkMCPPreview: a one-step preview (click the Add to cart button,
// located by the local locator: each click is a new occurrence, so a new
// cache key, and the page is settled before it is read) through the server
// and directly in Go.
func BenchmarkMCPPreview(b *testing.B) {
	const line = "click: the Add to cart button"
	b.Run("direct", func(b *testing.B) {
		live, done := benchDirect(b)
		defer done()
		st, err := parseStep(line)
		if err != nil {
			b.Fatal(err)
		}
		benchTimes(b, func() {
			if sr := live.Step(context.Background(), st); sr.Status == "failed" {
				b.Fatal(sr.Error)
			}
		})
	})
	clients := benchClients(b)
	for _, name := range []string{"inprocess", "stdio"} {
		b.Run(name, func(b *testing.B) {
			cs := clients[name]
			id := benchOpen(b, cs)
			benchTimes(b, func() { benchCall(b, cs, "preview_steps", map[string]any{"session": id, "steps": []string{line}}) })
			benchCall(b, cs, "session_close", map[string]any{"session": id})
		})
	}
}
