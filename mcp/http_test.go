package mcp

import (
	"context"
	"io"
	"net"
	"net/http"
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

// TestMCPHTTPRefusesForeignOrigins: over real HTTP, a request from a
// browser page of another origin (another site, another port of this
// machine, an https or opaque origin) is refused with 403 before the
// server reads it; no Origin (a client that is not a browser page), the
// server's own loopback origin and an --allow-origin one are served.
func TestMCPHTTPRefusesForeignOrigins(t *testing.T) {
	h := newHarness(t, harnessOptions{origins: []string{"http://localhost:6274"}})
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
	_, port, _ := net.SplitHostPort(addr)
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"origin-test","version":"1"}}}`
	for _, tc := range []struct {
		origin string // "-": no Origin header
		want   int
	}{
		{"-", http.StatusOK},
		{"http://127.0.0.1:" + port, http.StatusOK},
		{"http://localhost:" + port, http.StatusOK},
		{"http://[::1]:" + port, http.StatusOK},
		{"http://localhost:6274", http.StatusOK}, // --allow-origin
		{"http://evil.example", http.StatusForbidden},
		{"http://evil.example:" + port, http.StatusForbidden},
		{"http://127.0.0.1:1" + port, http.StatusForbidden},
		{"http://localhost:3000", http.StatusForbidden},
		{"https://127.0.0.1:" + port, http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"", http.StatusForbidden},
	} {
		for _, method := range []string{http.MethodPost, http.MethodGet} {
			var payload io.Reader
			if method == http.MethodPost {
				payload = strings.NewReader(initialize)
			}
			req, err := http.NewRequestWithContext(ctx, method, "http://"+addr+"/", payload)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.origin != "-" {
				req.Header.Set("Origin", tc.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			switch {
			case tc.want == http.StatusForbidden && resp.StatusCode != http.StatusForbidden:
				t.Errorf("%s with Origin %q: %d, want 403\n%s", method, tc.origin, resp.StatusCode, body)
			case tc.want == http.StatusForbidden && !strings.Contains(string(body), "--allow-origin"):
				t.Errorf("%s with Origin %q: the refusal does not say what to do: %s", method, tc.origin, body)
			case tc.want == http.StatusOK && method == http.MethodPost && resp.StatusCode != http.StatusOK:
				t.Errorf("%s with Origin %q: %d, want 200\n%s", method, tc.origin, resp.StatusCode, body)
			case tc.want == http.StatusOK && resp.StatusCode == http.StatusForbidden:
				t.Errorf("%s with Origin %q: refused\n%s", method, tc.origin, body)
			}
		}
	}
	cancel()
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
}
