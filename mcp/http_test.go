package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPHTTP: streamable HTTP on loopback serves the tools; any other
// address is refused.
func TestMCPHTTP(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	for _, addr := range []string{"0.0.0.0:0", ":8931", "192.0.2.1:80", "nonsense"} {
		if err := h.s.ServeHTTP(context.Background(), addr, nil); err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("%s: %v", addr, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ready := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- h.s.ServeHTTP(ctx, "127.0.0.1:0", func(a string) { ready <- a }) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-served:
		t.Fatal(err)
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	alive(t, cs)
	var list struct{ Heals []healSummary }
	ok(t, cs, "heals_list", map[string]any{}, &list)
	if len(list.Heals) != 0 {
		t.Errorf("heals: %+v", list)
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}
