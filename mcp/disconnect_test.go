package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	runner "github.com/e2e-dev/e2e/session/run"
)

// pages counts the browser's open pages (its targets of type page).
func pages(t *testing.T, s *Server) int {
	t.Helper()
	s.mu.Lock()
	b := s.b
	s.mu.Unlock()
	if b == nil {
		return 0
	}
	u, err := url.Parse(b.ControlURL())
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + u.Host + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var targets []struct{ Type string }
	if err := json.NewDecoder(resp.Body).Decode(&targets); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tg := range targets {
		if tg.Type == "page" {
			n++
		}
	}
	return n
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMCPClientDisconnectMidCall: a client that goes away while a preview
// and a run are under way leaves no session, no page and no running run
// behind, and the server goes on serving the other client.
func TestMCPClientDisconnectMidCall(t *testing.T) {
	h := newHarness(t, harnessOptions{files: map[string]string{
		"slow.e2e.yaml": "name: slow\nurl: /product\nsteps:\n  - click: the Checkout button\n",
	}})
	var other sessionOpenOut
	ok(t, h.cs, "session_open", map[string]any{"url": "/product", "test": "other"}, &other)
	base := pages(t, h.s)

	for _, tc := range []struct {
		name string
		call func(cs *sdk.ClientSession, session string) error
	}{
		{"preview", func(cs *sdk.ClientSession, session string) error {
			_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "preview_steps",
				Arguments: map[string]any{"session": session, "steps": []string{"click: the Checkout button"}}})
			return err
		}},
		{"run", func(cs *sdk.ClientSession, _ string) error {
			_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_tests", Arguments: map[string]any{"paths": []string{"slow.e2e.yaml"}}})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := h.connect(context.Background(), nil)
			var open sessionOpenOut
			ok(t, cs, "session_open", map[string]any{"url": "/product", "test": "gone"}, &open)
			done := make(chan error, 1)
			go func() { done <- tc.call(cs, open.Session) }()
			time.Sleep(700 * time.Millisecond) // the step is looking for a button that is not there
			cs.Close()
			<-done
			waitFor(t, "the session to be reaped", func() bool {
				h.s.mu.Lock()
				defer h.s.mu.Unlock()
				_, open := h.s.sessions[open.Session]
				return !open && len(h.s.sessions) == 1
			})
			waitFor(t, "the pages to close", func() bool { return pages(t, h.s) == base })
			waitFor(t, "no run left running", func() bool {
				runs, err := h.db.Runs(context.Background(), 20)
				if err != nil {
					t.Fatal(err)
				}
				running := 0
				for _, r := range runs {
					if r.Status == "running" {
						running++
					}
				}
				return running == 0 // sessions record no run
			})
		})
	}
	if _, err := os.Stat(filepath.Join(h.dir, "gone.e2e.yaml")); !os.IsNotExist(err) {
		t.Errorf("a file was written: %v", err)
	}
	var snap snapshotOut
	ok(t, h.cs, "snapshot", map[string]any{"session": other.Session}, &snap)
	alive(t, h.cs)
}

// TestMCPDisconnectMidRunRecordsNothing: a client that goes away while its
// run_tests is running leaves no run, test or step in the store (the run
// is rolled back), and a run whose client stays is recorded as always.
func TestMCPDisconnectMidRunRecordsNothing(t *testing.T) {
	started := make(chan struct{}, 1)
	h := newHarness(t, harnessOptions{
		files: map[string]string{
			"slow.e2e.yaml": "name: slow\nurl: /product\nsteps:\n  - click: the Checkout button\n",
			"cart.e2e.yaml": "name: cart\nurl: /product\nsteps:\n  - click: the Add to cart button\n",
		},
		wire: func(o *runner.Options) {
			o.Suite.OnTestStart = func(runner.Started) {
				select {
				case started <- struct{}{}:
				default:
				}
			}
		},
	})
	cs, ss, cut := h.connectCuttable(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "run_tests", Arguments: map[string]any{"paths": []string{"slow.e2e.yaml"}}})
		done <- err
	}()
	select {
	case <-started:
	case err := <-done:
		t.Fatalf("run_tests ended before its test started: %v", err)
	}
	cut() // the client is gone
	<-done
	if err := ss.Wait(); err != nil {
		t.Logf("the server's session ended with %v", err)
	}
	runs, err := h.db.Runs(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		tests, _ := h.db.Tests(context.Background(), r.ID)
		t.Errorf("the run its client left was recorded: %+v with tests %+v", r, tests)
	}

	var rep struct{ Run struct{ ID int64 } }
	ok(t, h.cs, "run_tests", map[string]any{"paths": []string{"cart.e2e.yaml"}}, &rep)
	runs, err = h.db.Runs(context.Background(), 0)
	if err != nil || len(runs) != 1 || runs[0].Status != "passed" {
		t.Fatalf("a run whose client stayed: %+v (%v)", runs, err)
	}
	if tests, err := h.db.Tests(context.Background(), runs[0].ID); err != nil || len(tests) != 1 || tests[0].Name != "cart" {
		t.Errorf("its tests: %+v (%v)", tests, err)
	}
}
