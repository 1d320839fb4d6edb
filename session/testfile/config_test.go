package testfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig("/p")
	if c.Timeouts != (Timeouts{Step: 10 * time.Second, SettleQuiet: 300 * time.Millisecond, SettleMax: 10 * time.Second, Navigation: 30 * time.Second}) {
		t.Errorf("timeouts %+v", c.Timeouts)
	}
	if !reflect.DeepEqual(c.Tests, []string{"**/*.e2e.yaml"}) || c.DB != filepath.Join(".e2e", "e2e.db") || !c.Browser.Headless {
		t.Errorf("defaults %+v", c)
	}
	if got := c.DBPath(); got != filepath.Join("/p", ".e2e", "e2e.db") {
		t.Errorf("DBPath() = %s", got)
	}
}

func TestParseConfigSample(t *testing.T) {
	src, err := os.ReadFile("testdata/config/e2e.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseConfig("testdata/config/e2e.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := filepath.Abs("testdata/config")
	want := &Config{
		Dir:     dir,
		File:    "testdata/config/e2e.yaml",
		BaseURL: "http://localhost:8080",
		Tests:   []string{"tests/**/*.e2e.yaml", "smoke/*.e2e.yaml"},
		Flows:   []string{"flows/*.flow.yaml"},
		Sessions: []*Session{{File: "testdata/config/e2e.yaml", Name: "signed in", NamePos: Pos{7, 3},
			Use: Use{Flow: "sign in", FlowPos: Pos{8, 11}, With: []Arg{
				{Name: "user", Value: "{{ env.E2E_USER }}", Pos: Pos{9, 13}, ValuePos: Pos{9, 19}},
				{Name: "password", Value: "{{ secret.E2E_PASSWORD }}", Pos: Pos{9, 41}, ValuePos: Pos{9, 51}}}},
			CheckURL: "/account", CheckPos: Pos{10, 19}}},
		Model: Model{BaseURL: "http://localhost:11434/v1", Name: "qwen3:8b", APIKeyEnv: "E2E_MODEL_KEY",
			Timeout: 90 * time.Second, Retries: 3, Act: ActBudget{MaxToolCalls: 30, MaxTokens: 150000, MaxTime: 2 * time.Minute},
			Price: Price{Input: 0.4, Output: 1.6}},
		BannedAttributes: []string{"data-reactid", "data-v-app"},
		Timeouts:         Timeouts{Step: 15 * time.Second, SettleQuiet: 250 * time.Millisecond, SettleMax: 8 * time.Second, Navigation: 45 * time.Second},
		AllowedOrigins:   []string{"https://accounts.example.com", "https://*.stripe.com"},
		Browser:          Browser{Chrome: "/usr/bin/chromium", Headless: false, Viewport: Viewport{Width: 1440, Height: 900}},
		DB:               ".e2e/project.db",
	}
	// Where each key is, for later problems (see TestConfigProblemAtItsKey).
	if err := c.Problem("browser.chrome", "x"); !strings.Contains(fmt.Sprint(err), "e2e.yaml:") {
		t.Errorf("Problem: %v", err)
	}
	c.at = nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

func TestParseConfigPartial(t *testing.T) {
	c, err := ParseConfig("e2e.yaml", []byte("timeouts: { step: 3s }\nbrowser:\n  viewport: { width: 800 }\nmodel:\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := DefaultConfig(c.Dir)
	d.File = "e2e.yaml"
	d.Timeouts.Step = 3 * time.Second
	d.Browser.Viewport.Width = 800
	c.at = nil // where the keys are
	if !reflect.DeepEqual(c, d) {
		t.Errorf("got  %+v\nwant %+v", c, d)
	}
	if c, err := ParseConfig("e2e.yaml", []byte("# nothing yet\n")); err != nil || c.Timeouts.Step != 10*time.Second {
		t.Errorf("comment-only config: %+v %v", c, err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"unknown key", "baseUrl: http://x\n", []string{`1:1: unknown key "baseUrl" in e2e.yaml; did you mean baseURL?`}},
		{"unknown nested key", "timeouts:\n  setleMax: 3s\n", []string{`2:3: unknown key "setleMax" in timeouts; did you mean settleMax?`}},
		{"deep key", "browser:\n  viewport: { widht: 3 }\n", []string{`2:15: unknown key "widht" in browser.viewport; did you mean width?`}},
		{"api key", "model:\n  apiKey: sk-123\n", []string{"2:3: the API key is read from the environment only; set apiKeyEnv to the name of the variable that holds it"}},
		{"bad url", "baseURL: localhost:3000\n", []string{`1:10: expected an absolute http or https URL, found "localhost:3000"`}},
		{"bad duration", "timeouts: { step: 10 }\n", []string{`1:19: invalid duration "10"; give a unit, such as 10s`}},
		{"settle order", "timeouts:\n  settleQuiet: 20s\n", []string{"2:3: timeouts.settleQuiet (20s) is longer than timeouts.settleMax (10s)"}},
		{"bad number", "model: { retries: -1 }\nbrowser: { viewport: { width: wide } }\n", []string{
			`1:19: expected a whole number of at least 0, found "-1"`,
			`2:31: expected a whole number of at least 1, found "wide"`}},
		{"bad price", "model:\n  price: { input: -1, output: cheap }\n", []string{
			`2:19: expected a number of at least 0, found "-1"`,
			`2:31: expected a number of at least 0, found "cheap"`}},
		{"bad bool", "browser: { headless: yes }\n", []string{"1:22: expected true or false, found text"}},
		{"list expected", "bannedAttributes: data-reactid\n", []string{"1:19: expected a list of attribute names, found text"}},
		{"bad origin", "allowedOrigins: [https://ok.example.com, https://x.com/path, ftp://y]\n", []string{
			`1:42: expected an origin such as https://example.com:8443, found "https://x.com/path"`,
			`1:62: expected an origin such as https://example.com:8443, found "ftp://y"`}},
		{"bad pattern", "tests: ['tests/[a-/*.e2e.yaml']\n", []string{`1:9: invalid pattern "tests/[a-/*.e2e.yaml": syntax error in pattern`}},
		{"top not a mapping", "- a\n", []string{"1:1: e2e.yaml takes a mapping of settings, found a list"}},
		{"not a mapping", "model: gpt\n", []string{"1:8: model takes a mapping of settings, found text"}},
		{"db password in url", "db: postgres://e2e:hunter2@db.example.com/e2e\n", []string{"1:5: " + dbPasswordRule}},
		{"db password in query", "db:\n  url: postgres://e2e@db/e2e?password=hunter2\n", []string{"2:8: " + dbPasswordRule}},
		{"db password key", "db:\n  urlEnv: E2E_DB_URL\n  password: hunter2\n", []string{"3:13: " + dbPasswordRule}},
		{"db url not postgres", "db: { url: mysql://db/e2e }\n", []string{"1:12: this looks like a database connection string (it starts with the URL scheme mysql://) but not one e2e reads: " +
			"write a postgres:// URL or a libpq keyword/value string (host=… dbname=…), or, for a SQLite file whose name looks so, start it with ./"}},
		{"db url not a url", "db: { url: e2e.db }\n", []string{`1:12: expected a postgres:// URL, found "e2e.db"`}},
		{"db password in key/value", "db: 'host=db password=hunter2'\n", []string{"1:5: " + dbPasswordRule}},
		{"db looks like a url", "db: Postgres:/e2e@db/e2e\n", []string{"1:5: this looks like a database connection string (it starts with Postgres: but not Postgres://) but not one e2e reads: " +
			"write a postgres:// URL or a libpq keyword/value string (host=… dbname=…), or, for a SQLite file whose name looks so, start it with ./"}},
		{"bad branch pattern", "cache: { writeBranches: [main, 'release/[0-9'] }\n", []string{`1:32: invalid branch pattern "release/[0-9"`}},
		{"db unknown key", "db: { urlenv: X }\n", []string{`1:7: unknown key "urlenv" in db; did you mean urlEnv?`}},
		{"syntax", "model: {name: x\n", []string{"1:8: invalid YAML: could not find flow mapping end token '}'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("e2e.yaml", []byte(tt.src))
			var list List
			if !errors.As(err, &list) {
				t.Fatalf("got %v, want a List", err)
			}
			var got []string
			for _, e := range list {
				got = append(got, strings.TrimPrefix(e.Error(), "e2e.yaml:"))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "app", "tests", "users")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// No e2e.yaml anywhere below root: the defaults, rooted where we started.
	c, err := LoadConfig(deep)
	if err != nil {
		t.Fatal(err)
	}
	if c.File != "" || c.Dir != deep {
		t.Errorf("without a config: file %q dir %q", c.File, c.Dir)
	}
	write(t, filepath.Join(root, "app", ConfigFile), "baseURL: http://localhost:5173\n")
	c, err = LoadConfig(deep)
	if err != nil {
		t.Fatal(err)
	}
	if c.Dir != filepath.Join(root, "app") || c.File != filepath.Join(root, "app", ConfigFile) || c.BaseURL != "http://localhost:5173" {
		t.Errorf("found %+v", c)
	}
	write(t, filepath.Join(root, "app", ConfigFile), "baseURL: nope\n")
	_, err = LoadConfig(deep)
	var list List
	if !errors.As(err, &list) || len(list) != 1 || list[0].File != filepath.Join(root, "app", ConfigFile) {
		t.Errorf("bad config: %v", err)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzParseConfig checks that ParseConfig never panics and that every
// problem it reports has a position inside the file.
func FuzzParseConfig(f *testing.F) {
	src, err := os.ReadFile("testdata/config/e2e.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(src)
	f.Add([]byte("timeouts: { settleQuiet: 20s }\nmodel: { apiKey: x }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := ParseConfig("e2e.yaml", src)
		if err == nil {
			return
		}
		var list List
		if !errors.As(err, &list) || len(list) == 0 {
			t.Fatalf("error %T %v, want a non-empty List", err, err)
		}
		lines := strings.Count(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(src)), "\n") + 1
		for _, e := range list {
			if e.Line < 1 || e.Line > lines || e.Col < 1 || e.Width < 1 || e.Msg == "" {
				t.Fatalf("bad position or message: %+v in\n%s", e, src)
			}
		}
	})
}

func TestConfigDB(t *testing.T) {
	dir := t.TempDir()
	parse := func(src string) *Config {
		t.Helper()
		c, err := ParseConfig(filepath.Join(dir, "e2e.yaml"), []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if got := parse("db: state/e2e.db\n").DBPath(); got != filepath.Join(dir, "state", "e2e.db") {
		t.Errorf("a relative file: %s", got)
	}
	const server = "postgres://e2e@db.example.com:5432/e2e?sslmode=require"
	if got := parse("db: " + server + "\n").DBPath(); got != server {
		t.Errorf("a URL is used as it is: %s", got)
	}
	if got := parse("db: { url: " + server + " }\n").DBPath(); got != server {
		t.Errorf("db.url: %s", got)
	}
	for _, server := range []string{"Postgres://e2e@db.example.com/e2e", "POSTGRESQL://e2e@db/e2e", "host=db.example.com dbname=e2e sslmode=require"} {
		c := parse("db: '" + server + "'\n")
		if got := c.DBPath(); got != server {
			t.Errorf("%s is a server, used as it is: %s", server, got)
		}
		if got := c.StateDir(); got != filepath.Join(dir, ".e2e") {
			t.Errorf("%s: what a run leaves goes to %s, want .e2e in the project", server, got)
		}
	}
	c := parse("db:\n  path: local.db\n  urlEnv: E2E_TEST_DB_URL\n")
	t.Setenv("E2E_TEST_DB_URL", "")
	if got := c.DBPath(); got != filepath.Join(dir, "local.db") {
		t.Errorf("urlEnv unset falls back to path: %s", got)
	}
	t.Setenv("E2E_TEST_DB_URL", "postgres://e2e:s3cret@db/e2e")
	if got := c.DBPath(); got != "postgres://e2e:s3cret@db/e2e" {
		t.Errorf("urlEnv set wins: %s", got)
	}
}

func TestWriteBranches(t *testing.T) {
	all := CacheConfig{}
	some := CacheConfig{WriteBranches: []string{"main", "release/*"}}
	for _, c := range []struct {
		cfg    CacheConfig
		branch string
		want   bool
	}{
		{all, "feature/x", true}, {all, "", true},
		{some, "main", true}, {some, "release/1.2", true},
		{some, "release/1.2/hotfix", false}, {some, "feature/x", false}, {some, "", false}, {some, "mainline", false},
	} {
		if got := c.cfg.Writes(c.branch); got != c.want {
			t.Errorf("%v.Writes(%q) = %v, want %v", c.cfg.WriteBranches, c.branch, got, c.want)
		}
	}
}

func TestConfigPasswordNotInExcerpt(t *testing.T) {
	for _, src := range []string{
		"db: postgres://e2e:hunter2@db/e2e\n",
		"db: { url: 'postgres://e2e@db/e2e?password=hunter2' }\n",
		"db:\n  password: hunter2\n",
		"db: 'host=db password=hunter2'\n",
		"db: 'host=db password = \"hunter2 x\"'\n",
		"db: { url: 'Host=db Password=hunter2' }\n",
		"db: mysql://e2e:hunter2@db/e2e\n",
		"db: Postgres://e2e:hunter2@db/e2e\n",
		"db: \"postgres://e2e:hun\\\"ter2 x\\\\y@db/e2e\"\n", // a quote, a backslash and a space: not a URL net/url reads
	} {
		_, err := ParseConfig("e2e.yaml", []byte(src))
		var list List
		if !errors.As(err, &list) || len(list) != 1 {
			t.Fatalf("%q: %v", src, err)
		}
		if shown := list.Error() + list[0].Excerpt(); strings.Contains(shown, "hunter2") || !strings.Contains(shown, "xxxxx") {
			t.Errorf("%q shows:\n%s", src, shown)
		}
	}
}

func TestConfigProblemAtItsKey(t *testing.T) {
	c, err := ParseConfig("e2e.yaml", []byte("baseURL: http://x\nbrowser:\n  chrome: /nope\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := c.Problem("browser.chrome", "/nope is not an executable").Error()
	if want := "e2e.yaml:3:11: browser.chrome: /nope is not an executable\n  3 |   chrome: /nope\n    |           ^^^^^"; !strings.HasPrefix(got, want) {
		t.Errorf("%q, want %q", got, want)
	}
	if got := c.Problem("browser.headless", "x").Error(); got != "browser.headless: x" {
		t.Errorf("a key not in the file: %q", got)
	}
}
