package main

import "github.com/spf13/cobra"

// suiteFlags are the flags of every command that opens a project's tests
// against its app: run, studio, mcp and export. Each command embeds them.
type suiteFlags struct {
	db       string
	config   string
	baseURL  string
	variants string
}

// register adds the flags to cmd: configDefault says where --config looks
// when it is not given, relative what --base-url resolves.
func (s *suiteFlags) register(cmd *cobra.Command, configDefault, relative string) {
	fl := cmd.Flags()
	fl.StringVar(&s.db, "db", "", "the store: a SQLite file or a postgres:// URL (default: db in e2e.yaml, else .e2e/e2e.db)")
	fl.StringVar(&s.config, "config", "", "directory to look for e2e.yaml from (default: "+configDefault+")")
	fl.StringVar(&s.baseURL, "base-url", "", "base URL for "+relative+" (overrides e2e.yaml)")
	fl.StringVar(&s.variants, "variant", "", "append ?variant=… to start URLs (for the fixture app)")
}

// register adds --model and --model-url to cmd; purpose says what the
// model is asked for.
func (m *modelFlags) register(cmd *cobra.Command, purpose string) {
	fl := cmd.Flags()
	fl.StringVar(&m.name, "model", "", "model for "+purpose+" (default: model.name in e2e.yaml, else $E2E_MODEL)")
	fl.StringVar(&m.baseURL, "model-url", "", "OpenAI-compatible API base URL ending in /v1 (default: model.baseURL in e2e.yaml, else $OPENAI_BASE_URL)")
}
