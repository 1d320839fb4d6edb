package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/agent"
	"github.com/e2e-dev/e2e/agent/scripted"
	"github.com/e2e-dev/e2e/examples"
	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/plural"
	"github.com/e2e-dev/e2e/store"
)

// demoAddr is where a kept demo project expects the fixture app and the
// scripted model: `e2e demo serve` listens there.
const demoAddr = "127.0.0.1:7357"

// demoApp is the app identity of the demo's cache keys when it keeps its
// project: the demo's own fixture listens on a random port, the kept
// project's on its address, and both must find the same entries.
const demoApp = "e2e-fixture"

// demoEnvFile holds what the kept examples read from the environment.
const demoEnvFile = "demo.env"

// keptProject is the directory `e2e demo --keep DIR` leaves behind: the
// examples, an e2e.yaml that points at `e2e demo serve`, the scripted
// model's playbook and the demo's database, heals included.
type keptProject struct {
	dir      string // absolute
	addr     string // host:port of the kept e2e.yaml's baseURL
	scripted bool   // the kept e2e.yaml names the scripted model
}

// newKeptProject checks that dir is new or empty and creates it. A
// directory with anything in it, or a file, is refused: the demo never
// writes over what is there.
func newKeptProject(dir, addr string) (*keptProject, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("demo --addr %s: want host:port, such as %s", addr, demoAddr)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("demo --keep %s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("demo --keep %s: %w", dir, unwrapPath(err))
	case !fi.IsDir():
		return nil, fmt.Errorf("demo --keep %s: it is a file; name a new or empty directory", dir)
	default:
		ents, err := os.ReadDir(abs)
		if err != nil {
			return nil, fmt.Errorf("demo --keep %s: %w", dir, unwrapPath(err))
		}
		if len(ents) > 0 {
			return nil, fmt.Errorf("demo --keep %s: the directory is not empty (it holds %s); name a new or empty directory, the demo writes over nothing",
				dir, plural.Count(len(ents), "entry", "entries"))
		}
	}
	if err := os.MkdirAll(filepath.Join(abs, ".e2e"), 0o755); err != nil {
		return nil, fmt.Errorf("demo --keep %s: %w", dir, err)
	}
	return &keptProject{dir: abs, addr: addr}, nil
}

func (k *keptProject) dbPath() string      { return filepath.Join(k.dir, ".e2e", "e2e.db") }
func (k *keptProject) screenshots() string { return filepath.Join(k.dir, ".e2e", "screenshots") }

// write puts the examples, the playbook, e2e.yaml and demo.env in the
// directory. With scripted set, e2e.yaml names the scripted model that
// `e2e demo serve` serves; otherwise the model stays the one the
// environment configures.
func (k *keptProject) write(scripted bool) error {
	k.scripted = scripted
	files, err := fs.Glob(examples.FS, "*.e2e.yaml")
	if err != nil {
		return err
	}
	agents, err := fs.Glob(examples.FS, "agent/*")
	if err != nil {
		return err
	}
	for _, n := range append(files, agents...) {
		b, err := fs.ReadFile(examples.FS, n)
		if err != nil {
			return err
		}
		p := filepath.Join(k.dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	var cfg strings.Builder
	fmt.Fprintf(&cfg, `# Kept by e2e demo --keep: the demo's examples, its database (.e2e/e2e.db)
# with the heal it left staged, and the scripted model's playbook
# (agent/model.json). Run e2e demo serve in this directory to serve the
# fixture app (and the scripted model) where this file expects them.
baseURL: http://%s
tests: ["*.e2e.yaml", "agent/*.e2e.yaml"]
timeouts: { step: 5s }
# The demo's fixture ran on another port: the cache keys name the app so.
cache: { app: %s }
`, k.addr, demoApp)
	if scripted {
		fmt.Fprintf(&cfg, `# The scripted model plays agent/model.json; replace this with your model.
model: { name: scripted, baseURL: http://%s/v1 }
`, k.addr)
	}
	if err := os.WriteFile(filepath.Join(k.dir, "e2e.yaml"), []byte(cfg.String()), 0o644); err != nil {
		return err
	}
	// The fixture's demo user; a file, since the password is a secret and
	// e2e never prints it.
	env := "E2E_USER=alice@example.com\nE2E_PASSWORD=correct-horse\n"
	return os.WriteFile(filepath.Join(k.dir, demoEnvFile), []byte(env), 0o600)
}

// demoNext is the variant under which the kept project's sign-in test
// passes only through the heal the demo left staged.
const demoNext = "redesign"

// printNext says what was kept and the commands to try in it, each as it
// runs (from the kept directory).
func (k *keptProject) printNext(ctx context.Context, out io.Writer, db *store.DB) error {
	staged, err := db.Heals(ctx, "staged")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nkept in %s:\n", k.dir)
	fmt.Fprintf(out, "e2e.yaml, the tests, the database (.e2e/e2e.db) with %s, the scripted\n", plural.Count(len(staged), "staged heal"))
	fmt.Fprintf(out, "model's playbook (agent/model.json) and %s. Try next, from there:\n", demoEnvFile)
	fmt.Fprintln(out)
	fmt.Fprintf(out, "  cd %s\n", shellQuote(k.dir))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	if k.scripted {
		fmt.Fprintf(tw, "  e2e demo serve\t# in its own terminal: the fixture app and scripted model\n")
	} else {
		fmt.Fprintf(tw, "  e2e demo serve\t# in its own terminal: the fixture app (your model stays)\n")
	}
	fmt.Fprintf(tw, "  e2e heals list\t# the staged heals\n")
	if len(staged) > 0 {
		fmt.Fprintf(tw, "  e2e heals show %d\t# heal %d: its old and new steps side by side\n", staged[0].ID, staged[0].ID)
	}
	fmt.Fprintf(tw, "  e2e studio --heals\t# review them in the studio: accept or reject\n")
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "  env $(cat %s) e2e run --variant %s agent/\n", demoEnvFile, demoNext)
	fmt.Fprintln(out, "\nThe last runs the act examples against the redesigned app (demo.env holds")
	fmt.Fprintln(out, "the demo user): the sign-in passes through the staged heal until you decide")
	fmt.Fprintln(out, "it. Reject the heal (e2e heals reject N) and run again: the agent heals the")
	fmt.Fprintln(out, "sign-in anew.")
	return nil
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// newDemoServeCmd serves what a kept demo project's e2e.yaml points at.
func newDemoServeCmd() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the fixture app and the scripted model for a project e2e demo --keep made, until interrupted",
		Example: `  e2e demo --keep demo && cd demo && e2e demo serve
  e2e demo serve --dir demo`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return demoServe(cmd.Context(), dir, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "the kept project (default: the current directory)")
	return cmd
}

// demoServe serves the fixture app at the kept project's baseURL and, when
// its model is the scripted one, the playbook at model.baseURL, until ctx
// ends.
func demoServe(ctx context.Context, dir string, out io.Writer) error {
	cfg, err := loadConfig(dir)
	if err != nil {
		return err
	}
	if cfg.File == "" || cfg.BaseURL == "" {
		return fmt.Errorf("demo serve: %s holds no e2e.yaml with a baseURL; run it in a directory e2e demo --keep made, or pass --dir", cfg.Dir)
	}
	base, err := url.Parse(cfg.BaseURL)
	if err != nil {
		return fmt.Errorf("demo serve: baseURL %s: %w", cfg.BaseURL, err)
	}
	mux := map[string]*http.ServeMux{base.Host: http.NewServeMux()}
	mux[base.Host].Handle("/", fixture.Handler(fixture.Options{}))
	what := fmt.Sprintf("fixture app on %s", strings.TrimRight(cfg.BaseURL, "/")+"/")
	if cfg.Model.Name == "scripted" && cfg.Model.BaseURL != "" {
		m, err := url.Parse(cfg.Model.BaseURL)
		if err != nil {
			return fmt.Errorf("demo serve: model baseURL %s: %w", cfg.Model.BaseURL, err)
		}
		playbook := filepath.Join(cfg.Dir, "agent", "model.json")
		b, err := os.ReadFile(playbook)
		if err != nil {
			return fmt.Errorf("demo serve: the scripted model's playbook: %w", err)
		}
		book, err := scripted.Parse(b)
		if err != nil {
			return fmt.Errorf("demo serve: %s: %w", playbook, err)
		}
		if mux[m.Host] == nil {
			mux[m.Host] = http.NewServeMux()
		}
		mux[m.Host].Handle(strings.TrimRight(m.Path, "/")+"/", findsNothing(scripted.New(book)))
		what += fmt.Sprintf(", the scripted model on %s (playbook agent/model.json)", cfg.Model.BaseURL)
	}
	var servers []*http.Server
	var lns []net.Listener
	defer func() {
		for _, s := range servers {
			s.Close()
		}
	}()
	for host, h := range mux {
		ln, err := net.Listen("tcp", host)
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			return fmt.Errorf("demo serve: listen on %s: %w (is e2e demo serve already running?)", host, err)
		}
		lns = append(lns, ln)
		servers = append(servers, &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second})
	}
	fmt.Fprintf(out, "%s; Ctrl-C stops\n", what)
	errc := make(chan error, len(servers))
	for i, s := range servers {
		go func() { errc <- s.Serve(lns[i]) }()
	}
	select {
	case <-ctx.Done():
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

// findsNothing answers the requests of the model locator, which the
// scripted model does not serve (it plays act goals only), with "nothing
// fits": an empty ref, so that e2e run in a kept project reports an element
// the local locator cannot find as it does without a model, and never acts
// on an element the model picked. Every other request goes to next.
func findsNothing(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req struct {
			Model string `json:"model"`
			Tools []struct {
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tools"`
		}
		locate := false
		if json.Unmarshal(body, &req) == nil {
			for _, t := range req.Tools {
				locate = locate || t.Function.Name == agent.ChooseElement
			}
		}
		if !locate {
			r.Body = io.NopCloser(bytes.NewReader(body))
			next.ServeHTTP(w, r)
			return
		}
		args, _ := json.Marshal(map[string]string{ // strings always marshal
			"reasoning": "the scripted model does not locate elements, it only plays act goals", "ref": ""})
		tc := map[string]any{"id": "call_locate", "type": "function", "function": map[string]string{"name": agent.ChooseElement, "arguments": string(args)}}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-scripted-locate", "object": "chat.completion", "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls",
				"message": map[string]any{"role": "assistant", "content": "", "tool_calls": []any{tc}}}},
			"usage": map[string]int{"prompt_tokens": (len(body) + 3) / 4, "completion_tokens": (len(args) + 3) / 4,
				"total_tokens": (len(body)+3)/4 + (len(args)+3)/4},
		})
	})
}
