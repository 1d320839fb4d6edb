package mcp

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestMCPNavigationStaysOnOrigins: a previewed navigate to another origin
// is refused before it runs, and a click on a link to another origin is not
// kept and brings the page back.
func TestMCPNavigationStaysOnOrigins(t *testing.T) {
	h := newHarness(t, harnessOptions{})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/inject", "test": "inject"}, &open)
	var pv previewOut
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		"navigate: https://example.org/steal",
		"click: the Claim your prize link",
	}}, &pv)
	if len(pv.Steps) != 2 {
		t.Fatalf("preview: %+v", pv)
	}
	if s := pv.Steps[0]; s.Status != "failed" || s.ID != "" || !strings.Contains(s.Error, "not an allowed origin") {
		t.Errorf("navigate: %+v", s)
	}
	if s := pv.Steps[1]; s.Status != "failed" || s.ID != "" || !strings.Contains(s.Error, "left the allowed origins") {
		t.Errorf("click: %+v", s)
	}
	var snap snapshotOut
	ok(t, h.cs, "snapshot", map[string]any{"session": open.Session}, &snap)
	if !strings.HasPrefix(snap.URL, h.base+"/inject") {
		t.Errorf("the page is at %s", snap.URL)
	}
}

// TestMCPPageThatLeftTheOriginsIsNeitherShownNorTyped: a page that sends
// itself to another origin (127.0.0.1 → localhost) after session_open is
// not shown by snapshot, and preview_steps types no secret into it: both
// say where the page went, and the foreign page never receives the secret.
func TestMCPPageThatLeftTheOriginsIsNeitherShownNorTyped(t *testing.T) {
	const secret = "hunter2-mcp-Away"
	t.Setenv("MCP_AWAY_SECRET", secret)
	var mu sync.Mutex
	var foreign []string
	loaded := make(chan struct{})
	var once sync.Once
	h := newHarness(t, harnessOptions{fixture: func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.Host, "localhost:") {
				mu.Lock()
				foreign = append(foreign, r.URL.String())
				mu.Unlock()
				if r.URL.Path == "/away/loaded" {
					once.Do(func() { close(loaded) })
				}
			}
			next.ServeHTTP(w, r)
		})
	}})
	var open sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/away?wait=mcp", "test": "moved"}, &open)
	resp, err := http.Get(h.base + "/away/release?key=mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case <-loaded:
	case <-ctx.Done():
		t.Fatal("the foreign page never loaded")
	}
	text := fails(t, h.cs, "snapshot", map[string]any{"session": open.Session}, "the page left the allowed origins: it is at http://localhost:")
	if strings.Contains(text, "Password") {
		t.Errorf("the snapshot error shows the foreign page: %s", text)
	}
	var pv previewOut
	ok(t, h.cs, "preview_steps", map[string]any{"session": open.Session, "steps": []string{
		`type: { into: the Password field, text: "{{ secret.MCP_AWAY_SECRET }}" }`,
	}}, &pv)
	if len(pv.Steps) != 1 || pv.Steps[0].Status != "failed" || !strings.Contains(pv.Steps[0].Error, "the page left the allowed origins: it is at http://localhost:") {
		t.Fatalf("preview: %+v", pv)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, u := range foreign {
		if q, _ := url.QueryUnescape(u); strings.Contains(q, secret) || strings.Contains(u, secret) {
			t.Errorf("the foreign page received the secret: %s", u)
		}
	}
}
