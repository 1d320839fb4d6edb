package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/e2e-dev/e2e/mcp"
	"github.com/e2e-dev/e2e/session/browser"
	runner "github.com/e2e-dev/e2e/session/run"
	"github.com/e2e-dev/e2e/store"
)

type mcpFlags struct {
	suiteFlags
	model       modelFlags
	http        string
	allowReview bool
	maxSessions int
	origins     []string
}

func newMCPCmd(g *globals) *cobra.Command {
	f := &mcpFlags{}
	cmd := &cobra.Command{
		Use:   "mcp [DIR]",
		Short: "Serve e2e to coding agents over the Model Context Protocol (stdio, or --http on loopback)",
		Long: `e2e mcp lets a coding agent (Claude Code, Cursor, VS Code, Codex…) open pages of
the app, read their outline, preview steps on the live page, write the ones that
worked into a test file, run tests and read heals, through the Model Context
Protocol. The tests it writes replay later with no model. Heals are decided by a
person: heals_accept and heals_reject are refused unless --allow-review is given.`,
		Example: `  claude mcp add e2e -- e2e mcp
  e2e mcp ./web
  E2E_CONFIG=./web e2e mcp
  e2e mcp --http 127.0.0.1:8931 --max-sessions 2`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := mcpProjectDir(f.config, args, os.Getenv(mcpConfigEnv))
			if err != nil {
				return err
			}
			f.config = dir
			return serveMCP(cmd, g, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.http, "http", "", "serve streamable HTTP on this loopback address (127.0.0.1:PORT) instead of stdio")
	fl.BoolVar(&f.allowReview, "allow-review", false, "let the client accept and reject heals (off: a person decides them with e2e heals)")
	fl.IntVar(&f.maxSessions, "max-sessions", mcp.DefaultMaxSessions, "pages open at once, at most")
	fl.StringArrayVar(&f.origins, "allow-origin", nil, "with --http: a browser origin (http://localhost:6274) whose pages may call the server besides its own; repeatable")
	f.suiteFlags.register(cmd, "the current directory", "relative URLs")
	f.model.register(cmd, "act goals and assert steps in run_tests")
	return cmd
}

// mcpConfigEnv names the project directory when neither --config nor a
// positional DIR does: clients that take --config as their own flag (the
// MCP Inspector) can pass it through their environment instead.
const mcpConfigEnv = "E2E_CONFIG"

// mcpProjectDir is the project directory e2e mcp serves: --config, else the
// positional DIR, else $E2E_CONFIG, else "" (the current directory). A
// --config and a DIR that differ are an error.
func mcpProjectDir(flag string, args []string, env string) (string, error) {
	switch {
	case len(args) == 1 && flag != "" && filepath.Clean(flag) != filepath.Clean(args[0]):
		return "", fmt.Errorf("--config %s and the project directory %s differ: give one", flag, args[0])
	case flag != "":
		return flag, nil
	case len(args) == 1:
		return args[0], nil
	}
	return env, nil
}

func serveMCP(cmd *cobra.Command, g *globals, f *mcpFlags) error {
	if f.maxSessions < 1 {
		return fmt.Errorf("--max-sessions %d: want 1 or more", f.maxSessions)
	}
	if f.http != "" {
		if err := mcp.Loopback(f.http); err != nil {
			return err
		}
	}
	for _, o := range f.origins {
		if err := mcp.CheckOrigin(o); err != nil {
			return err
		}
	}
	cfg, err := loadConfig(f.config)
	if err != nil {
		return err
	}
	if f.baseURL != "" {
		cfg.BaseURL = f.baseURL
	}
	if f.db != "" {
		cfg.DB = f.db
	}
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	db, err := openRunStore(ctx, cfg, store.WithRedactor(g.red))
	if err != nil {
		return err
	}
	defer db.Close()
	calls := &runCalls{rec: db}
	m, err := configuredModel(cfg, f.model, calls, g.red)
	if err != nil {
		return err
	}
	bo := runBrowserOptions(g, cfg)
	s, err := mcp.New(mcp.Options{Config: cfg, Store: db, Redactor: g.red, Version: toolVersion(), Variants: f.variants,
		AllowReview: f.allowReview, MaxSessions: f.maxSessions, AllowedOrigins: f.origins,
		Launch: func(ctx context.Context) (*browser.Browser, error) { return launchBrowser(ctx, bo) },
		Wire: func(o *runner.Options) {
			o.OnRunStart = func(id int64) { calls.runID.Store(id) }
			if m != nil {
				m.wire(o)
			}
		}})
	if err != nil {
		return err
	}
	defer s.Close()
	if f.http != "" {
		return s.ServeHTTP(ctx, f.http, func(addr string) {
			fmt.Fprintf(cmd.ErrOrStderr(), "e2e mcp: serving http://%s/ (streamable HTTP)\n", addr)
		})
	}
	// The protocol owns standard output: nothing else is printed there.
	return s.ServeIO(ctx, os.Stdin, os.Stdout)
}
