package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent/agenttest"
)

// TestStepTimeoutBoundsSlowModelCalls: a model server that answers one byte
// every 500 ms (never timing out a read, never finishing in time) holds an
// assert step and a step the model must locate for no longer than their
// 2 s timeout, although model.timeout is 30 s with two retries: each fails
// saying the step timed out while waiting for the model, after one request.
func TestStepTimeoutBoundsSlowModelCalls(t *testing.T) {
	t.Parallel()
	base := fixtureServer(t)
	dir := t.TempDir()
	cfg := "baseURL: " + base + "\ntests: [\"*.e2e.yaml\"]\ntimeouts: { step: 2s }\nmodel: { timeout: 30s, retries: 2 }\n"
	files := map[string]string{
		"e2e.yaml": cfg,
		"assert.e2e.yaml": `name: slow assert
url: /product
steps:
  - assert: the page shows a running shoe
`,
		"locate.e2e.yaml": `name: slow locate
url: /product
steps:
  - click: the thing that lets me pay right away
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	slow := agenttest.Trickle(agenttest.Text("too slow to matter"), 500*time.Millisecond)
	srv := agenttest.New(t, slow, slow)
	jsonPath := filepath.Join(dir, "results.json")
	code, out, errOut := e2e(t, "run", "--config", dir, "--model", "scripted", "--model-url", srv.URL(), "--json", jsonPath)
	if code != 1 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if n := strings.Count(out, "step timed out after 2s (while waiting for the model)"); n < 2 {
		t.Errorf("%d steps say they timed out waiting for the model:\n%s", n, out)
	}
	if srv.Count() != 2 {
		t.Errorf("%d model requests, want one a step (no retry past the step's time)", srv.Count())
	}
	var rep struct {
		Tests []struct {
			Name  string
			Steps []struct {
				Status string
				MS     int64 `json:"ms"`
			}
		}
	}
	b, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	for _, tr := range rep.Tests {
		for _, s := range tr.Steps {
			if s.Status != "failed" || s.MS > 3*2000 {
				t.Errorf("%s: step %s after %d ms, with a 2 s timeout", tr.Name, s.Status, s.MS)
			}
		}
	}
}

// TestSnapshotOfBusyAndPollingPages: a page whose DOM never stops changing
// is printed as it is once --settle-max is up, with a warning saying why; a
// page that only polls the network settles and prints with no warning.
func TestSnapshotOfBusyAndPollingPages(t *testing.T) {
	ownBrowser(t) // it checks what a launch leaves behind
	base := fixtureServer(t)
	code, out, errOut := e2e(t, "snapshot", "--settle-max", "1s", base+"/settle/never")
	if code != 0 || !strings.Contains(out, `heading "Never settles"`) {
		t.Errorf("busy page: exit %d\n%s\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != 1 || !strings.Contains(lines[0], "warning: page did not settle within 1s: the DOM kept changing") {
		t.Errorf("busy page: want one warning line, got:\n%s", errOut)
	}
	code, out, errOut = e2e(t, "snapshot", "--settle-max", "5s", base+"/settle/poll")
	if code != 0 || !strings.Contains(out, `heading "Polls the server"`) || errOut != "" {
		t.Errorf("polling page: exit %d\n%s\n%s", code, out, errOut)
	}
	noChromiumLeft(t)
}
