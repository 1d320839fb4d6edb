package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/agenttest"
	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/browser"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/redact"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/session/testfile"
	"github.com/e2e-dev/e2e/store"
)

// harness is a server over a project in a temporary directory, pointed at
// the fixture app, and a client connected to it in memory.
type harness struct {
	t      *testing.T
	dir    string
	base   string
	db     *store.DB
	s      *Server
	cs     *sdk.ClientSession
	model  *agenttest.Server // nil: no model
	red    *redact.Redactor
	cancel context.CancelFunc
}

type harnessOptions struct {
	allowReview bool
	maxSessions int
	model       *agenttest.Server
	files       map[string]string
	// fixture, when set, wraps the fixture app the harness serves.
	fixture func(http.Handler) http.Handler
	// wire, when set, changes every runner's options after the model's.
	wire    func(*runner.Options)
	origins []string // Options.AllowedOrigins
	// config, when set, is added to the end of e2e.yaml.
	config string
}

// fixtureURL serves the fixture app for t and returns its URL. Every test
// that serves it drives a browser (in this process or an e2e child): under
// -short it skips; otherwise it runs in parallel with the package's other
// parallel tests (each has its own server, project and browsers, and mostly
// waits on pages; how many at once is go test's -parallel), unless it
// changed the process first (t.Setenv), which keeps it sequential.
func fixtureURL(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("needs a browser (-short)")
	}
	if t, ok := t.(*testing.T); ok {
		parallel(t)
	}
	srv := httptest.NewServer(fixture.Handler(fixture.Options{}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// projectDir writes e2e.yaml for base and the given files.
func projectDir(t testing.TB, base string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := fmt.Sprintf("baseURL: %s\ntests: [\"**/*.e2e.yaml\"]\ntimeouts: { step: 3s }\n", base)
	if err := os.WriteFile(filepath.Join(dir, "e2e.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// parallel marks t parallel, unless it is already or it changed the
// process (t.Setenv, t.Chdir): t.Parallel refuses both with a panic, before
// it changes anything, which is recovered here.
func parallel(t *testing.T) {
	defer func() { _ = recover() }()
	t.Parallel()
}

// scriptedWire wires the scripted model as `e2e run --model scripted` does.
func scriptedWire(t *testing.T, srv *agenttest.Server, rec session.CallRecorder, red *redact.Redactor) func(*runner.Options) {
	t.Helper()
	if srv == nil {
		return nil
	}
	client, err := agent.New(agent.Config{BaseURL: srv.URL(), Model: "scripted", APIKey: "test", Recorder: rec, Redactor: red})
	if err != nil {
		t.Fatal(err)
	}
	return func(o *runner.Options) {
		o.Model, o.Judge, o.Actor = &agent.Locator{Client: client}, &agent.Asserter{Client: client}, &agent.Actor{Client: client}
		o.Agent = session.AgentConfig{Model: "scripted", Prompt: agent.PromptVersion()}
	}
}

func newHarness(t *testing.T, o harnessOptions) *harness {
	t.Helper()
	h := &harness{t: t, model: o.model, red: redact.New()}
	if o.fixture != nil {
		srv := httptest.NewServer(o.fixture(fixture.Handler(fixture.Options{})))
		t.Cleanup(srv.Close)
		h.base = srv.URL
	} else {
		h.base = fixtureURL(t)
	}
	h.dir = projectDir(t, h.base, o.files)
	if o.config != "" {
		f, err := os.OpenFile(filepath.Join(h.dir, "e2e.yaml"), os.O_APPEND|os.O_WRONLY, 0)
		if err == nil {
			_, err = f.WriteString(o.config)
			err = errors.Join(err, f.Close())
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := testfile.LoadConfig(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	h.cancel = cancel
	h.db, err = store.Open(ctx, cfg.DBPath(), store.WithRedactor(h.red))
	if err != nil {
		t.Fatal(err)
	}
	wire := scriptedWire(t, o.model, h.db, h.red)
	if o.wire != nil {
		model := wire
		wire = func(ro *runner.Options) {
			if model != nil {
				model(ro)
			}
			o.wire(ro)
		}
	}
	h.s, err = New(Options{Config: cfg, Store: h.db, Redactor: h.red, Version: "test", AllowReview: o.allowReview, MaxSessions: o.maxSessions, AllowedOrigins: o.origins,
		Launch: sharedLaunch(t),
		Wire:   wire})
	if err != nil {
		t.Fatal(err)
	}
	h.cs = h.connect(ctx, nil)
	t.Cleanup(func() {
		h.cs.Close()
		h.s.Close()
		h.db.Close()
		cancel()
	})
	return h
}

// connect connects a new in-memory client.
func (h *harness) connect(ctx context.Context, opts *sdk.ClientOptions) *sdk.ClientSession {
	h.t.Helper()
	cs, _ := h.connectBoth(ctx, opts)
	return cs
}

// connectBoth connects a new in-memory client and returns both ends: the
// server's session ends (its Wait returns) once its tool calls have.
func (h *harness) connectBoth(ctx context.Context, opts *sdk.ClientOptions) (*sdk.ClientSession, *sdk.ServerSession) {
	h.t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := h.s.SDK().Connect(ctx, st, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return cs, ss
}

// connectCuttable connects a client over a pipe that cut breaks at once,
// as a client process that dies does (ClientSession.Close instead waits
// for the calls under way to be answered).
func (h *harness) connectCuttable(ctx context.Context) (cs *sdk.ClientSession, ss *sdk.ServerSession, cut func()) {
	h.t.Helper()
	client, server := net.Pipe()
	ss, err := h.s.SDK().Connect(ctx, &sdk.IOTransport{Reader: server, Writer: server}, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err = c.Connect(ctx, &sdk.IOTransport{Reader: client, Writer: client}, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return cs, ss, func() { client.Close() }
}

// call calls a tool and returns its text and whether it is a tool error.
func call(t *testing.T, cs *sdk.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// ok calls a tool that must succeed and decodes its JSON into out.
func ok(t *testing.T, cs *sdk.ClientSession, name string, args, out any) string {
	t.Helper()
	text, isErr := call(t, cs, name, args)
	if isErr {
		t.Fatalf("%s: tool error: %s", name, text)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
	}
	return text
}

// fails calls a tool that must fail and returns the error text.
func fails(t *testing.T, cs *sdk.ClientSession, name string, args any, want string) string {
	t.Helper()
	text, isErr := call(t, cs, name, args)
	if !isErr {
		t.Fatalf("%s: want a tool error, got %s", name, text)
	}
	if !strings.Contains(text, want) {
		t.Fatalf("%s: error %q lacks %q", name, text, want)
	}
	return text
}

// sharedBrowser is the browser the harnesses' servers share: each server
// connects to it (as `e2e mcp --browser-url` would) and opens its sessions'
// pages in browser contexts of their own. Starting Chromium costs a couple
// of CPU seconds, and most tests here start a server.
var sharedBrowser struct {
	once sync.Once
	b    *browser.Browser
	err  error
}

// sharedLaunch is a server's Launch connected to sharedBrowser.
func sharedLaunch(t *testing.T) func(context.Context) (*browser.Browser, error) {
	t.Helper()
	return func(ctx context.Context) (*browser.Browser, error) {
		sharedBrowser.once.Do(func() { sharedBrowser.b, sharedBrowser.err = browser.Launch(context.Background(), browser.Options{}) })
		if sharedBrowser.err != nil {
			return nil, sharedBrowser.err
		}
		return browser.Launch(ctx, browser.Options{BrowserURL: sharedBrowser.b.ControlURL()})
	}
}
