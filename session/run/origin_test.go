package run

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/fixture"
)

// foreignRecorder serves the fixture and keeps every request that reached
// it under its other loopback name (localhost: another origin than the
// base URL's 127.0.0.1), and tells when the foreign sign-in page loaded.
type foreignRecorder struct {
	h      http.Handler
	mu     sync.Mutex
	seen   []string
	loaded chan struct{}
	once   sync.Once
}

func (f *foreignRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.Host, "localhost:") {
		f.mu.Lock()
		f.seen = append(f.seen, r.URL.String())
		f.mu.Unlock()
		if r.URL.Path == "/away/loaded" {
			f.once.Do(func() { close(f.loaded) })
		}
	}
	f.h.ServeHTTP(w, r)
}

// holds says whether a request to the foreign origin held v (as typed or
// URL-encoded).
func (f *foreignRecorder) holds(v string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.seen {
		if u, err := url.QueryUnescape(s); (err == nil && strings.Contains(u, v)) || strings.Contains(s, v) {
			return true
		}
	}
	return false
}

// foreignEnv is an env whose fixture records what reached its other origin.
func foreignEnv(t *testing.T) (*env, *foreignRecorder) {
	e := newEnv(t)
	rec := &foreignRecorder{h: fixture.Handler(fixture.Options{}), loaded: make(chan struct{})}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	e.cfg.BaseURL = srv.URL
	return e, rec
}

const awaySecret = "hunter2-Away-Value"

// TestRunNeverTypesASecretOffOrigin: a page that sends itself to another
// origin (a timed redirect from 127.0.0.1 to localhost) fails the step
// that would type a secret there, saying where the page went, and the
// foreign page never receives the secret (it got it, and the test passed).
func TestRunNeverTypesASecretOffOrigin(t *testing.T) {
	e, rec := foreignEnv(t)
	e.vars["E2E_AWAY_PASSWORD"] = awaySecret
	rep := e.run("", `name: moved
url: /away?after=100
steps:
  - type: { into: the Password field, text: "{{ secret.E2E_AWAY_PASSWORD }}" }
  - click: the Sign in button
`)
	if rep.Passed() {
		t.Fatalf("the test passed on a page off the allowed origins:\n%s", e.out.String())
	}
	st := rep.Tests[0].Steps[0]
	if st.Status != session.StatusFailed || !strings.Contains(st.Error, "the page left the allowed origins: it is at http://localhost:") {
		t.Errorf("step 1: %s %q", st.Status, st.Error)
	}
	if rec.holds(awaySecret) {
		t.Errorf("the foreign page received the secret: %v", rec.seen)
	}
}

// TestRunAllowsAnOriginItOpensItself: a test may be on an origin its own
// url: names (here the other loopback name) and on allowedOrigins: the
// check refuses only where a page went by itself.
func TestRunAllowsAnOriginItOpensItself(t *testing.T) {
	e, _ := foreignEnv(t)
	other := strings.Replace(e.cfg.BaseURL, "127.0.0.1", "localhost", 1)
	rep := e.run("", `name: elsewhere
url: `+other+`/product
steps:
  - click: the Add to cart button
`)
	if !rep.Passed() {
		t.Fatalf("a test on the origin it opened failed:\n%s", e.out.String())
	}
	e.cfg.AllowedOrigins = []string{"http://localhost:*"}
	rep = e.run("", `name: moved
url: /away?after=0
steps:
  - wait: { for: the Password field }
`)
	if !rep.Passed() {
		t.Fatalf("a page on an allowed origin failed:\n%s", e.out.String())
	}
}

// TestActNeverShowsTheModelAPageOffOrigin: an act that starts on a page
// which has sent itself to another origin fails saying where the page
// went, and the model (the real client against a scripted server with no
// answer to give) is never sent the foreign page.
func TestActNeverShowsTheModelAPageOffOrigin(t *testing.T) {
	e, rec := foreignEnv(t)
	srv := agenttest.New(t) // any request fails the test
	client, err := agent.New(agent.Config{BaseURL: srv.URL(), Model: "scripted", APIKey: "none", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	e.actor = &agent.Actor{Client: client}
	// The page goes once the act is about to start, and the act waits
	// until the foreign page has loaded.
	e.events = func(ev session.Event) {
		if s, ok := ev.(session.StepStarted); ok && s.Index == 0 && s.Sub == -1 {
			resp, err := http.Get(e.cfg.BaseURL + "/away/release?key=act")
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			select {
			case <-rec.loaded:
			case <-ctx.Done():
				t.Error("the foreign page never loaded")
			}
		}
	}
	rep := e.run("", `name: moved act
url: /away?wait=act
steps:
  - act: sign in
`)
	if rep.Passed() {
		t.Fatalf("the act passed on a page off the allowed origins:\n%s", e.out.String())
	}
	if st := rep.Tests[0].Steps[0]; !strings.Contains(st.Error, "the page left the allowed origins: it is at http://localhost:") {
		t.Errorf("act: %s %q", st.Status, st.Error)
	}
	if srv.Count() != 0 {
		t.Errorf("the model was sent %d requests from a page off the allowed origins", srv.Count())
	}
}
