package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/testfile"
)

// sentinel is a server no request may reach: it stands for the public API
// (or any server the user did not choose). It counts what reached it.
func sentinel(t *testing.T) (url string, hits *atomic.Int64) {
	t.Helper()
	hits = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "this server was not configured", http.StatusTeapot)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", hits
}

// testConfig parses an e2e.yaml written to a temporary directory.
func testConfig(t *testing.T, src string) *testfile.Config {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := testfile.LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestModelSettingsEachFromItsHighestSource: for every combination of
// flag, e2e.yaml and environment variable, the model's name and its base
// URL are each taken from the highest source that sets them (flag, then
// file, then variable; docs/model.md), and the public API only when none
// sets a base URL. model.baseURL in the file counts whether or not the file
// names the model (it was ignored when the name came from E2E_MODEL or
// --model, and requests went to the public API).
func TestModelSettingsEachFromItsHighestSource(t *testing.T) {
	flagURL, _ := sentinel(t)
	fileURL, _ := sentinel(t)
	envURL, _ := sentinel(t)
	for mask := 0; mask < 64; mask++ {
		urlFlag, urlFile, urlEnv := mask&1 != 0, mask&2 != 0, mask&4 != 0
		nameFlag, nameFile, nameEnv := mask&8 != 0, mask&16 != 0, mask&32 != 0
		var wantName, wantURL string
		switch {
		case nameFlag:
			wantName = "flag-model"
		case nameFile:
			wantName = "file-model"
		case nameEnv:
			wantName = "env-model"
		}
		switch {
		case urlFlag:
			wantURL = flagURL
		case urlFile:
			wantURL = fileURL
		case urlEnv:
			wantURL = envURL
		default:
			wantURL = "https://api.openai.com/v1"
		}
		var f modelFlags
		yaml := "baseURL: http://localhost:1\nmodel:\n  timeout: 5s\n"
		if urlFlag {
			f.baseURL = flagURL
		}
		if nameFlag {
			f.name = "flag-model"
		}
		if urlFile {
			yaml += "  baseURL: " + fileURL + "\n"
		}
		if nameFile {
			yaml += "  name: file-model\n"
		}
		env := map[string]string{"OPENAI_BASE_URL": "", "E2E_MODEL": "", "OPENAI_API_KEY": ""}
		if urlEnv {
			env["OPENAI_BASE_URL"] = envURL
		}
		if nameEnv {
			env["E2E_MODEL"] = "env-model"
		}
		name := strings.Join(sources("url", urlFlag, urlFile, urlEnv), "+") + "," + strings.Join(sources("name", nameFlag, nameFile, nameEnv), "+")
		t.Run(name, func(t *testing.T) {
			for k, v := range env {
				t.Setenv(k, v)
			}
			cfg := testConfig(t, yaml)
			m, err := configuredModel(cfg, f, &runCalls{rec: nopRecorder{}}, redact.New())
			if err != nil {
				t.Fatal(err)
			}
			if wantName == "" {
				if m != nil {
					t.Fatalf("no model named anywhere, but one is configured: %s", m.about)
				}
				return
			}
			if m == nil {
				t.Fatalf("want %s at %s, got no model", wantName, wantURL)
			}
			if want := wantName + " at " + wantURL; m.about != want {
				t.Errorf("model is %q, want %q", m.about, want)
			}
		})
	}
}

func sources(what string, flag, file, env bool) []string {
	var s []string
	for _, x := range []struct {
		on   bool
		name string
	}{{flag, "flag"}, {file, "file"}, {env, "env"}} {
		if x.on {
			s = append(s, x.name)
		}
	}
	if len(s) == 0 {
		return []string{"no-" + what}
	}
	return []string{what + "-" + strings.Join(s, "-")}
}

type nopRecorder struct{}

func (nopRecorder) RecordModelCall(context.Context, *session.ModelCall) error { return nil }

// TestModelBaseURLFromFileWithNameFromEnvironment: e2e run with the model's
// name in E2E_MODEL and its base URL in e2e.yaml sends the model's request
// to the file's server, not to OPENAI_BASE_URL's (standing in for the
// public API), and the API key goes with it only there.
func TestModelBaseURLFromFileWithNameFromEnvironment(t *testing.T) {
	base := fixtureServer(t)
	public, hits := sentinel(t)
	srv := agenttest.New(t, judge(true, "a running shoe is shown"))
	dir := t.TempDir()
	files := map[string]string{
		"e2e.yaml": "baseURL: " + base + "\ntests: [\"*.e2e.yaml\"]\ntimeouts: { step: 10s }\nmodel: { baseURL: " + srv.URL() + " }\n",
		"assert.e2e.yaml": `name: shoe
url: /product
steps:
  - assert: the page shows a running shoe
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("E2E_MODEL", "local-model")
	t.Setenv("OPENAI_BASE_URL", public)
	t.Setenv("OPENAI_API_KEY", "sk-test-key")
	code, out, errOut := e2e(t, "run", "--config", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if hits.Load() != 0 || srv.Count() != 1 {
		t.Fatalf("%d requests reached OPENAI_BASE_URL's server and %d the file's; want 0 and 1", hits.Load(), srv.Count())
	}
	if r := srv.Requests()[0]; r.Model != "local-model" || r.Header.Get("Authorization") != "Bearer sk-test-key" {
		t.Errorf("request for model %q with authorization %q", r.Model, r.Header.Get("Authorization"))
	}
}

// TestModelRetriesAsConfigured: model.retries: 0 makes exactly one attempt
// at a failing server; with no model.retries, the documented default (2)
// makes three.
func TestModelRetriesAsConfigured(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want int
	}{
		{"model: { name: m, retries: 0 }\n", 1},
		{"model: { name: m }\n", 3},
		{"model: { name: m, retries: 1 }\n", 2},
	} {
		t.Run(strings.TrimSpace(tc.yaml), func(t *testing.T) {
			t.Setenv("OPENAI_BASE_URL", "")
			fail := agenttest.Status(http.StatusInternalServerError, "0.001")
			var steps []agenttest.Step
			for range tc.want {
				steps = append(steps, fail)
			}
			srv := agenttest.New(t, steps...)
			cfg := testConfig(t, tc.yaml)
			m, err := configuredModel(cfg, modelFlags{baseURL: srv.URL()}, &runCalls{rec: nopRecorder{}}, redact.New())
			if err != nil || m == nil {
				t.Fatalf("model %v: %v", m, err)
			}
			snap := &ax.Snapshot{Title: "t", URL: "http://x/", Root: []*ax.Node{{Role: "button", Name: "Go", Ref: "e1"}}}
			_, err = m.locator.Locate(context.Background(), snap, "the Go button")
			if err == nil {
				t.Fatal("the locate succeeded against a failing server")
			}
			if srv.Count() != tc.want {
				t.Errorf("%d attempts, want %d (%v)", srv.Count(), tc.want, err)
			}
			if tc.want == 3 && cfg.Model.Retries != agent.DefaultMaxRetries {
				t.Errorf("e2e.yaml's default retries %d and the client's %d differ", cfg.Model.Retries, agent.DefaultMaxRetries)
			}
		})
	}
}
