package testfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/goccy/go-yaml/ast"

	"github.com/e2e-dev/e2e/session/redact"
)

// ConfigFile is the name of the project configuration file.
const ConfigFile = "e2e.yaml"

// Config is the project configuration, read from e2e.yaml. Every field has
// a default (see [DefaultConfig]) that a key in the file replaces.
type Config struct {
	// Dir is the absolute directory that holds e2e.yaml, or the directory
	// the search started from when there is none. Relative paths in the
	// configuration are relative to it.
	Dir string
	// File is the path of e2e.yaml, or "" when the defaults are used.
	File string

	// Trace is the trace policy of runs (on, off, retain-on-failure); ""
	// leaves it to the run (retain-on-failure under --ci, else off).
	Trace string

	// BaseURL is the absolute http or https URL that test URLs are relative
	// to. It has no default: without it every test URL must be absolute.
	BaseURL string
	// Tests are the patterns, relative to Dir, that name the test files.
	// A * matches within a path segment and ** any number of segments.
	Tests []string
	// Flows are the patterns, relative to Dir, that name the flow files
	// (see [Flow]); a flow file is never a test.
	Flows []string
	// Sessions are the sign-in states tests may start with (see
	// [Session]), in file order.
	Sessions []*Session
	// Model says how to reach the language model.
	Model Model
	// BannedAttributes are attributes never used in selectors or element
	// comparisons, because they change with every build.
	BannedAttributes []string
	// Timeouts bound steps, settling and navigation.
	Timeouts Timeouts
	// AllowedOrigins are origins (scheme://host[:port], * allowed in the
	// host) that tests may navigate to besides the base URL's.
	AllowedOrigins []string
	// Browser says which browser to run and how.
	Browser Browser
	// DB is where the tool keeps what it learns: a SQLite file (relative to
	// Dir) or a postgres:// URL without a password.
	DB string
	// DBURLEnv names an environment variable holding the database's URL,
	// password included; when it is set it wins over DB.
	DBURLEnv string
	// Cache says how caches are keyed and follow git.
	Cache CacheConfig
	// Project names the project in every cache key; "" means the name of
	// Dir. Two checkouts in differently named directories share cache
	// rows only when they set the same project.
	Project string

	// at is where each key's value is in File, by dotted path, for
	// [Config.Problem].
	at map[string]*Error
}

// Problem is a problem with the value of key (a dotted path such as
// "browser.chrome") found after the file was read: a [List] of one, at the
// value's line and column in File with the line and a marker under it, as
// the file's own problems read. When key was not set in a file the error
// names the key alone.
func (c *Config) Problem(key, msg string) error {
	if e, ok := c.at[key]; ok {
		p := *e
		p.Msg = key + ": " + msg
		return List{&p}
	}
	return fmt.Errorf("%s: %s", key, msg)
}

// CacheConfig says how caches are keyed and which branch is main.
type CacheConfig struct {
	// App identifies the application under test in every cache key, e.g. a
	// build id; "" means the base URL's origin.
	App string
	// MainBranch is the branch other branches inherit caches from; "" is "main".
	MainBranch string
	// WriteBranches are the branches (patterns, * within a segment) whose
	// runs write to the store; none means every branch. A pull request from
	// a fork never writes, whatever this says.
	WriteBranches []string
}

// Model says how to reach an OpenAI-compatible Chat Completions API. The
// API key is read from the environment variable APIKeyEnv only, never from
// a file.
type Model struct {
	// BaseURL is the API's base URL as e2e.yaml sets it; "" when it does
	// not (the flag, OPENAI_BASE_URL or the public OpenAI API then decide).
	BaseURL   string
	Name      string        // the model name; required to run the agent
	APIKeyEnv string        // the environment variable that holds the API key
	Timeout   time.Duration // bound on one request
	Retries   int           // retries of a failed request
	Act       ActBudget     // what one act step may spend
	// Price is what the model costs in USD per million tokens; zero
	// prices leave costs at 0.
	Price Price
}

// Price is a model's cost in USD per million input and output tokens.
type Price struct {
	Input, Output float64
}

// ActBudget bounds one act step; zero fields take the agent's defaults
// (25 tool calls, 200,000 tokens, 3 minutes).
type ActBudget struct {
	MaxToolCalls int
	MaxTokens    int
	MaxTime      time.Duration
}

// Timeouts bound the parts of a run.
type Timeouts struct {
	Step        time.Duration // everything one step does (settle and model calls included), unless the step sets its own
	SettleQuiet time.Duration // how long the page must stay still to count as settled
	SettleMax   time.Duration // the longest wait for the page to settle
	Navigation  time.Duration // loading a page
}

// Browser says which browser to run and how.
type Browser struct {
	Chrome   string // path of the Chrome or Chromium binary; "" to look it up
	Headless bool
	Viewport Viewport
}

// Viewport is the size of the page in CSS pixels.
type Viewport struct {
	Width, Height int
}

// DefaultConfig returns the configuration used when there is no e2e.yaml,
// rooted at dir.
func DefaultConfig(dir string) *Config {
	return &Config{
		Dir:   dir,
		Tests: []string{"**/*" + Suffix},
		Flows: []string{"flows/*" + FlowSuffix},
		Model: Model{
			APIKeyEnv: "OPENAI_API_KEY",
			Timeout:   60 * time.Second,
			Retries:   2,
		},
		Timeouts: Timeouts{
			Step:        10 * time.Second,
			SettleQuiet: 300 * time.Millisecond,
			SettleMax:   10 * time.Second,
			Navigation:  30 * time.Second,
		},
		Browser: Browser{Headless: true, Viewport: Viewport{Width: 1280, Height: 720}},
		DB:      filepath.Join(".e2e", "e2e.db"),
	}
}

// DBPath returns the database: the URL in the variable DBURLEnv names when
// it is set, else DB, a file path resolved against Dir when relative, or a
// postgres:// URL as it is.
func (c *Config) DBPath() string {
	if c.DBURLEnv != "" {
		if v := strings.TrimSpace(os.Getenv(c.DBURLEnv)); v != "" {
			return v
		}
	}
	if filepath.IsAbs(c.DB) || IsDatabaseURL(c.DB) {
		return c.DB
	}
	return filepath.Join(c.Dir, c.DB)
}

// LoadConfig finds e2e.yaml in dir or the nearest directory above it and
// parses it. Without one it returns DefaultConfig(dir). Dir of the result is
// absolute. The error is a [List] when the file has problems, or wraps the
// error that stopped it from being read.
func LoadConfig(dir string) (*Config, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("load config: %w", err)
	}
	for d := abs; ; {
		file := filepath.Join(d, ConfigFile)
		src, err := readFile(file, ConfigFile)
		var list List
		switch {
		case err == nil:
			return ParseConfig(NearPath(file), src)
		case errors.As(err, &list):
			return nil, list
		case !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("load config: %w", err)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return DefaultConfig(abs), nil
		}
		d = parent
	}
}

// NearPath is p relative to the current directory when it lies under it,
// else p unchanged: the path to read a file by and to name it in problems,
// which a terminal or an editor opens from where the command ran.
func NearPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if s := filepath.FromSlash(ShownPath(wd, p)); !filepath.IsAbs(s) {
		return s
	}
	return p
}

// ParseConfig parses src, the contents of the e2e.yaml at file, over the
// defaults. Dir of the result is the directory of file, made absolute. It
// returns a [List] of every problem: YAML syntax, unknown keys (with a "did
// you mean"), values of the wrong shape, invalid URLs, durations, numbers
// and patterns. A source over MaxFileSize, or nested deeper than MaxDepth,
// is refused with one problem before it is parsed.
func ParseConfig(file string, src []byte) (*Config, error) {
	if list := checkSize(file, ConfigFile, src); list != nil {
		return nil, list
	}
	dir, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, fmt.Errorf("parse config: %w", err)
	}
	c := DefaultConfig(dir)
	c.File = file
	d := &configDecoder{decoder: newDecoder(file, src), keys: map[string]ast.Node{}}
	if body := d.document("e2e.yaml"); body != nil {
		d.fields(body, "", "e2e.yaml", configFields, c)
	}
	if c.Timeouts.SettleQuiet > c.Timeouts.SettleMax {
		n := d.keys["timeouts.settleQuiet"]
		if n == nil {
			n = d.keys["timeouts.settleMax"]
		}
		d.errorf(n, "timeouts.settleQuiet (%s) is longer than timeouts.settleMax (%s)", c.Timeouts.SettleQuiet, c.Timeouts.SettleMax)
	}
	if len(d.errs) > 0 {
		return nil, d.sorted()
	}
	return c, nil
}

// configDecoder remembers where each key was, for checks across keys.
type configDecoder struct {
	*decoder
	keys map[string]ast.Node // key node by dotted path
}

// field is one key of e2e.yaml.
type field struct {
	name   string
	decode func(d *configDecoder, n ast.Node, c *Config)
	sub    []field // the keys of a nested mapping
	reject string  // when set, the key is refused with this message
}

// configFields are the keys of e2e.yaml. The config schema test checks
// docs/schema/e2e-config.schema.json against this table.
var configFields = []field{
	{name: "project", decode: text(func(c *Config) *string { return &c.Project }, "a project name")},
	{name: "baseURL", decode: webURL(func(c *Config) *string { return &c.BaseURL })},
	{name: "tests", decode: patterns(func(c *Config) *[]string { return &c.Tests })},
	{name: "flows", decode: patterns(func(c *Config) *[]string { return &c.Flows })},
	{name: "sessions", decode: sessionsSetting},
	{name: "model", sub: []field{
		{name: "baseURL", decode: webURL(func(c *Config) *string { return &c.Model.BaseURL })},
		{name: "name", decode: text(func(c *Config) *string { return &c.Model.Name }, "a model name")},
		{name: "apiKeyEnv", decode: text(func(c *Config) *string { return &c.Model.APIKeyEnv }, "the name of an environment variable")},
		{name: "timeout", decode: duration(func(c *Config) *time.Duration { return &c.Model.Timeout })},
		{name: "retries", decode: integer(func(c *Config) *int { return &c.Model.Retries }, 0)},
		{name: "apiKey", reject: "the API key is read from the environment only; set apiKeyEnv to the name of the variable that holds it"},
		{name: "price", sub: []field{
			{name: "input", decode: decimal(func(c *Config) *float64 { return &c.Model.Price.Input })},
			{name: "output", decode: decimal(func(c *Config) *float64 { return &c.Model.Price.Output })},
		}},
		{name: "act", sub: []field{
			{name: "maxToolCalls", decode: integer(func(c *Config) *int { return &c.Model.Act.MaxToolCalls }, 1)},
			{name: "maxTokens", decode: integer(func(c *Config) *int { return &c.Model.Act.MaxTokens }, 1)},
			{name: "maxTime", decode: duration(func(c *Config) *time.Duration { return &c.Model.Act.MaxTime })},
		}},
	}},
	{name: "bannedAttributes", decode: texts(func(c *Config) *[]string { return &c.BannedAttributes }, "attribute names")},
	{name: "timeouts", sub: []field{
		{name: "step", decode: duration(func(c *Config) *time.Duration { return &c.Timeouts.Step })},
		{name: "settleQuiet", decode: duration(func(c *Config) *time.Duration { return &c.Timeouts.SettleQuiet })},
		{name: "settleMax", decode: duration(func(c *Config) *time.Duration { return &c.Timeouts.SettleMax })},
		{name: "navigation", decode: duration(func(c *Config) *time.Duration { return &c.Timeouts.Navigation })},
	}},
	{name: "trace", decode: traceSetting},
	{name: "allowedOrigins", decode: origins(func(c *Config) *[]string { return &c.AllowedOrigins })},
	{name: "browser", sub: []field{
		{name: "chrome", decode: text(func(c *Config) *string { return &c.Browser.Chrome }, "the path of a Chrome binary")},
		{name: "headless", decode: boolean(func(c *Config) *bool { return &c.Browser.Headless })},
		{name: "viewport", sub: []field{
			{name: "width", decode: integer(func(c *Config) *int { return &c.Browser.Viewport.Width }, 1)},
			{name: "height", decode: integer(func(c *Config) *int { return &c.Browser.Viewport.Height }, 1)},
		}},
	}},
	{name: "db", decode: dbSetting},
	{name: "cache", sub: []field{
		{name: "app", decode: text(func(c *Config) *string { return &c.Cache.App }, "an application identity, such as a build id")},
		{name: "mainBranch", decode: text(func(c *Config) *string { return &c.Cache.MainBranch }, "a branch name")},
		{name: "writeBranches", decode: branchPatterns(func(c *Config) *[]string { return &c.Cache.WriteBranches })},
	}},
}

// fields reads the mapping at n, named what, whose keys are fs; prefix is
// the dotted path of the mapping.
func (d *configDecoder) fields(n ast.Node, prefix, what string, fs []field, c *Config) {
	v := d.unwrap(n)
	switch v.(type) {
	case nil, *ast.NullNode:
		return
	case *ast.MappingNode, *ast.MappingValueNode:
	default:
		d.errorf(v, "%s takes a mapping of settings, found %s", what, describe(v))
		return
	}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	entries, _, ok := d.mapping(n, what, names)
	if !ok {
		return
	}
	for _, e := range entries {
		f := fs[slices.IndexFunc(fs, func(f field) bool { return f.name == e.key })]
		p := prefix + f.name
		d.keys[p] = e.keyN
		switch {
		case f.reject != "":
			d.errorf(e.keyN, "%s", f.reject)
		case f.sub != nil:
			d.fields(e.value, p+".", p, f.sub, c)
		default:
			f.decode(d, e.value, c)
			if c.at == nil {
				c.at = map[string]*Error{}
			}
			c.at[p] = d.place(e.value)
		}
	}
}

func text(dst func(*Config) *string, what string) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		s, ok := d.text(n, what)
		if !ok {
			return
		}
		if s = strings.TrimSpace(s); s == "" {
			d.errorf(n, "expected %s, found nothing", what)
			return
		}
		*dst(c) = s
	}
}

// traceSetting reads trace: on, off or retain-on-failure (YAML's true
// and false read as on and off).
func traceSetting(d *configDecoder, n ast.Node, c *Config) {
	v := d.unwrap(n)
	if v == nil {
		return
	}
	if b, ok := v.(*ast.BoolNode); ok {
		c.Trace = map[bool]string{true: "on", false: "off"}[b.Value]
		return
	}
	s, ok := d.text(n, "on, off or retain-on-failure")
	if !ok {
		return
	}
	switch s = strings.TrimSpace(s); s {
	case "on", "off", "retain-on-failure":
		c.Trace = s
	default:
		d.errorf(n, "expected on, off or retain-on-failure, found %q", s)
	}
}

func texts(dst func(*Config) *[]string, what string) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		if list, ok := d.texts(n, what); ok && list != nil {
			*dst(c) = list
		}
	}
}

func duration(dst func(*Config) *time.Duration) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		if v, ok := d.duration(n); ok {
			*dst(c) = v
		}
	}
}

func integer(dst func(*Config) *int, least int) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		s, ok := d.text(n, "a whole number")
		if !ok {
			return
		}
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || v < least {
			d.errorf(d.unwrap(n), "expected a whole number of at least %d, found %s", least, quoted(s))
			return
		}
		*dst(c) = v
	}
}

func decimal(dst func(*Config) *float64) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		s, ok := d.text(n, "a number")
		if !ok {
			return
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			d.errorf(d.unwrap(n), "expected a number of at least 0, found %s", quoted(s))
			return
		}
		*dst(c) = v
	}
}

func boolean(dst func(*Config) *bool) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		v := d.unwrap(n)
		if v == nil {
			return
		}
		b, ok := v.(*ast.BoolNode)
		if !ok {
			d.errorf(v, "expected true or false, found %s", describe(v))
			return
		}
		*dst(c) = b.Value
	}
}

func webURL(dst func(*Config) *string) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		s, ok := d.text(n, "a URL")
		if !ok {
			return
		}
		s = strings.TrimSpace(s)
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			d.errorf(d.unwrap(n), "expected an absolute http or https URL, found %s", quoted(s))
			return
		}
		*dst(c) = s
	}
}

func origins(dst func(*Config) *[]string) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		list, ok := d.texts(n, "origins")
		if !ok || list == nil {
			return
		}
		seq, _ := d.unwrap(n).(*ast.SequenceNode)
		for i, s := range list {
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
				(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
				d.errorf(seq.Values[i], "expected an origin such as https://example.com:8443, found %s", quoted(s))
				ok = false
			}
		}
		if ok {
			*dst(c) = list
		}
	}
}

func patterns(dst func(*Config) *[]string) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		list, ok := d.texts(n, "file patterns")
		if !ok || list == nil {
			return
		}
		seq, _ := d.unwrap(n).(*ast.SequenceNode)
		for i, p := range list {
			if err := checkPattern(p); err != nil {
				d.errorf(seq.Values[i], "invalid pattern %s: %v", quoted(p), err)
				ok = false
			}
		}
		if ok {
			*dst(c) = list
		}
	}
}

// branchPatterns reads a list of branch names and patterns (path.Match: *
// within a segment, ? and [...]).
func branchPatterns(dst func(*Config) *[]string) func(*configDecoder, ast.Node, *Config) {
	return func(d *configDecoder, n ast.Node, c *Config) {
		list, ok := d.texts(n, "branch names or patterns")
		if !ok || list == nil {
			return
		}
		seq, _ := d.unwrap(n).(*ast.SequenceNode)
		for i, p := range list {
			if _, err := path.Match(p, ""); err != nil || strings.TrimSpace(p) == "" {
				d.errorf(seq.Values[i], "invalid branch pattern %s", quoted(p))
				ok = false
			}
		}
		if ok {
			*dst(c) = list
		}
	}
}

// Writes reports whether a run on branch writes to the store, by
// WriteBranches; "" (outside git) writes only when WriteBranches is empty.
func (c CacheConfig) Writes(branch string) bool {
	if len(c.WriteBranches) == 0 {
		return true
	}
	for _, p := range c.WriteBranches {
		if ok, _ := path.Match(p, branch); ok && branch != "" {
			return true
		}
	}
	return false
}

// checkPattern reports whether p is a valid file pattern.
func checkPattern(p string) error {
	if strings.TrimSpace(p) == "" {
		return errors.New("empty pattern")
	}
	for _, seg := range strings.Split(filepath.ToSlash(p), "/") {
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return err
		}
	}
	return nil
}

// StateDir is the directory for what a run leaves on this machine
// (screenshots): the database file's directory, or .e2e in Dir when the
// database is a server.
func (c *Config) StateDir() string {
	if db := c.DBPath(); !IsDatabaseURL(db) {
		return filepath.Dir(db)
	}
	return filepath.Join(c.Dir, ".e2e")
}

// IsDatabaseURL reports whether db names a PostgreSQL server rather than a
// SQLite file: a postgres:// or postgresql:// URL (the scheme in any case)
// or a libpq keyword/value string (host=db dbname=e2e), every form the
// driver reads (redact.IsDatabaseURL).
func IsDatabaseURL(db string) bool { return redact.IsDatabaseURL(db) }

// urlPassword reports whether a connection string carries a password.
func urlPassword(s string) bool { return urlSecret(s) != "" }

// urlSecret returns the password a connection string carries, or "" (read
// as text: a password with a quote or a space is found too).
func urlSecret(s string) string {
	if pws := redact.DatabasePasswords(s); len(pws) > 0 {
		return pws[0]
	}
	return ""
}

// refuseConnString reports at n a db value that is neither a connection
// string the driver reads nor a plausible file path (Postgres:/…,
// mysql://…, Host=…), and keeps the value out of the excerpt.
func (d *configDecoder) refuseConnString(n ast.Node, s, why string) {
	d.errorf(n, "this looks like a database connection string (%s) but not one e2e reads: write a postgres:// URL "+
		"or a libpq keyword/value string (host=… dbname=…), or, for a SQLite file whose name looks so, start it with ./", why)
	e := d.errs[len(d.errs)-1]
	e.Source = strings.ReplaceAll(e.Source, s, "xxxxx")
}

// refusePassword reports a password written in e2e.yaml at n, and keeps it
// out of the excerpt of the line that shows where.
func (d *configDecoder) refusePassword(n ast.Node, s string) {
	d.errorf(n, "%s", dbPasswordRule)
	e := d.errs[len(d.errs)-1]
	if p := urlSecret(s); p != "" {
		// The line as written (a YAML-quoted URL escapes its quotes), then
		// the value as read.
		e.Source = redact.MaskDatabase(e.Source)
		for _, pw := range redact.DatabasePasswords(s) {
			e.Source = strings.ReplaceAll(e.Source, pw, "xxxxx")
		}
	}
}

const dbPasswordRule = "the database password is read from the environment only: drop it from the URL and set PGPASSWORD, " +
	"or put the whole URL in an environment variable and name it in db.urlEnv"

// dbFields are the keys of db: written as a mapping.
var dbFields = []field{
	{name: "path", decode: text(func(c *Config) *string { return &c.DB }, "a file path")},
	{name: "url", decode: dbURL},
	{name: "urlEnv", decode: text(func(c *Config) *string { return &c.DBURLEnv }, "the name of an environment variable")},
	{name: "password", decode: func(d *configDecoder, n ast.Node, _ *Config) {
		d.errorf(n, "%s", dbPasswordRule)
		if v, ok := scalar(n); ok && v != "" {
			e := d.errs[len(d.errs)-1]
			e.Source = strings.ReplaceAll(e.Source, v, "xxxxx")
		}
	}},
}

// dbSetting reads db: a file path or a postgres:// URL, or a mapping of
// path, url and urlEnv.
func dbSetting(d *configDecoder, n ast.Node, c *Config) {
	switch d.unwrap(n).(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		d.fields(n, "db.", "db", dbFields, c)
		return
	}
	s, ok := d.text(n, "a file path or a postgres:// URL")
	if !ok {
		return
	}
	if s = strings.TrimSpace(s); s == "" {
		d.errorf(n, "expected a file path or a postgres:// URL, found nothing")
		return
	}
	if IsDatabaseURL(s) && urlPassword(s) {
		d.refusePassword(n, s)
		return
	}
	if why, ok := redact.LooksLikeDatabaseURL(s); ok {
		d.refuseConnString(n, s, why)
		return
	}
	c.DB = s
}

func dbURL(d *configDecoder, n ast.Node, c *Config) {
	s, ok := d.text(n, "a postgres:// URL")
	if !ok {
		return
	}
	s = strings.TrimSpace(s)
	switch {
	case !IsDatabaseURL(s):
		if why, ok := redact.LooksLikeDatabaseURL(s); ok {
			d.refuseConnString(n, s, why)
			return
		}
		d.errorf(n, "expected a postgres:// URL, found %q", s)
	case urlPassword(s):
		d.refusePassword(n, s)
	default:
		c.DB = s
	}
}
