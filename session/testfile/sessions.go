package testfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/e2e-dev/e2e/session/step"
)

// Session is a sign-in state e2e.yaml names under sessions:, which tests
// start with by saying session: NAME:
//
//	sessions:
//	  signed in:
//	    flow: sign in
//	    with: { user: "{{ env.E2E_USER }}", password: "{{ secret.E2E_PASSWORD }}" }
//	    check: { url: /account }
//
// A run captures the state once, by running the flow in a browser context
// of its own, and loads it into every test that names the session; the
// page at check.url tells whether a loaded state still holds (a page
// only a signed-in user sees: signed out, the app sends the browser
// elsewhere).
type Session struct {
	File    string // the e2e.yaml it was read from, as given
	Name    string
	NamePos Pos
	// Use is the flow the session runs and the parameters it gives it,
	// as a use step would; [Flows.LinkSessions] fills in its flow and steps.
	Use Use
	// CheckURL is the page that only a signed-in user stays on, relative
	// to the base URL or absolute; CheckPos is where it is.
	CheckURL string
	CheckPos Pos
}

// Session returns the session named name, or nil.
func (c *Config) Session(name string) *Session {
	for _, s := range c.Sessions {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// SessionNames returns the names of the sessions, in file order.
func (c *Config) SessionNames() []string {
	out := make([]string, 0, len(c.Sessions))
	for _, s := range c.Sessions {
		out = append(out, s.Name)
	}
	return out
}

// sessionKeys are the keys of one session in e2e.yaml.
var sessionKeys = []string{"flow", "with", "check"}

const sessionExample = `signed in: { flow: sign in, with: { user: "{{ env.E2E_USER }}" }, check: { url: /account } }`

// sessionsSetting reads sessions: a mapping of session names to
// { flow: NAME, with: { PARAM: TEXT }, check: { url: PATH } }.
func sessionsSetting(d *configDecoder, n ast.Node, c *Config) {
	v := d.unwrap(n)
	switch v.(type) {
	case nil, *ast.NullNode:
		return
	case *ast.MappingNode, *ast.MappingValueNode:
	default:
		d.errorf(v, "sessions takes a mapping of session names to sessions, such as %s; found %s", sessionExample, describe(v))
		return
	}
	m, isMap := v.(*ast.MappingNode)
	if !isMap {
		m = &ast.MappingNode{Values: []*ast.MappingValueNode{v.(*ast.MappingValueNode)}}
	}
	first := map[string]int{}
	for _, mv := range m.Values {
		keyN := d.unwrap(mv.Key)
		if keyN == nil {
			continue
		}
		name, isText := scalar(keyN)
		name = strings.TrimSpace(name)
		switch {
		case !isText:
			d.errorf(keyN, "expected a session's name, found %s", describe(keyN))
			continue
		case name == "":
			d.errorf(keyN, "empty session name; name it as tests will, such as signed in")
			continue
		}
		if line, dup := first[name]; dup {
			d.errorf(keyN, "two sessions are named %s (the first at line %d); rename one", quoted(name), line)
			continue
		}
		first[name] = lineOf(keyN)
		s := &Session{File: d.file, Name: name, NamePos: posOf(keyN)}
		if d.session(keyN, mv.Value, s) {
			c.Sessions = append(c.Sessions, s)
		}
	}
}

// session reads one session, named at keyN, from n into s; it reports
// whether s is whole.
func (d *configDecoder) session(keyN, n ast.Node, s *Session) bool {
	before := len(d.errs)
	v := d.unwrap(n)
	if v == nil {
		return false
	}
	if _, null := v.(*ast.NullNode); null {
		d.errorf(keyN, "session %s needs a flow and a check, such as %s", quoted(s.Name), sessionExample)
		return false
	}
	entries, guessed, ok := d.mapping(v, "a session", sessionKeys)
	if !ok {
		return false
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.key] = true
		switch e.key {
		case "flow":
			name, ok := d.text(e.value, "the name of a flow")
			if !ok {
				continue
			}
			if strings.TrimSpace(name) == "" {
				d.errorf(e.keyN, "flow needs the name of the flow that signs in, such as flow: sign in")
				continue
			}
			s.Use.Flow, s.Use.FlowPos = strings.TrimSpace(name), posOf(d.unwrap(e.value))
		case "with":
			s.Use.With = d.withArgs(e.value)
		case "check":
			d.sessionCheck(e.keyN, e.value, s)
		}
	}
	for _, k := range []string{"flow", "check"} {
		if seen[k] || slices.Contains(guessed, k) {
			continue
		}
		what := "flow: the name of the flow that signs in"
		if k == "check" {
			what = "check: { url: PATH }, a page only a signed-in user stays on, which tells whether the state still holds"
		}
		d.errorf(keyN, "session %s needs %s; for example %s", quoted(s.Name), what, sessionExample)
	}
	return len(d.errs) == before
}

// sessionCheck reads a session's check: { url: PATH }.
func (d *configDecoder) sessionCheck(keyN, n ast.Node, s *Session) {
	v := d.unwrap(n)
	if v == nil {
		return
	}
	if _, null := v.(*ast.NullNode); null {
		d.errorf(keyN, "check needs url: a page only a signed-in user stays on, such as check: { url: /account }")
		return
	}
	entries, guessed, ok := d.mapping(v, "a session's check", []string{"url"})
	if !ok {
		return
	}
	for _, e := range entries {
		u, ok := d.text(e.value, "the URL of a page only a signed-in user stays on")
		if !ok {
			continue
		}
		if strings.TrimSpace(u) == "" {
			d.errorf(e.keyN, "url needs a page only a signed-in user stays on, such as /account")
			continue
		}
		if !d.checkVars(e.value, u) {
			continue
		}
		s.CheckURL, s.CheckPos = strings.TrimSpace(u), posOf(d.unwrap(e.value))
	}
	if s.CheckURL == "" && len(entries) == 0 && !slices.Contains(guessed, "url") {
		d.errorf(v, "check needs url: a page only a signed-in user stays on, such as check: { url: /account }")
	}
}

// LinkSessions links the flow of every session of cfg (see [Flows.Link]):
// a flow no flow file names, a parameter the flow lacks or one it needs
// that the session does not give are problems at their places in
// e2e.yaml, returned as one List (nil when there is none).
func (fs *Flows) LinkSessions(cfg *Config) List {
	var l List
	for _, s := range cfg.Sessions {
		l = append(l, fs.Link(s.File, &s.Use)...)
	}
	return l
}

// CheckSession reports a test that names a session e2e.yaml does not
// have (with a "did you mean"), at its place in the test's file; nil when
// the test names none or one that exists.
func CheckSession(cfg *Config, t *Test) List {
	if t.Session == "" || cfg.Session(t.Session) != nil {
		return nil
	}
	msg := fmt.Sprintf("no session is named %s", quoted(t.Session))
	names := cfg.SessionNames()
	switch hint := step.Closest(t.Session, names); {
	case hint != "":
		msg += fmt.Sprintf("; did you mean %s?", quoted(hint))
	case len(names) == 0:
		msg += "; e2e.yaml has no sessions: (name one there, such as " + sessionExample + ")"
	default:
		msg += "; the sessions are " + strings.Join(quotedAll(names), ", ")
	}
	return List{problemAt(t.File, t.SessionPos, len([]rune(t.Session)), msg)}
}

// UsedSessions returns the sessions of cfg that tests name and whose flow
// is linked, each once, in file order.
func UsedSessions(cfg *Config, tests []*Test) []*Session {
	var out []*Session
	for _, s := range cfg.Sessions {
		if s.Use.Def == nil {
			continue
		}
		if slices.ContainsFunc(tests, func(t *Test) bool { return t.Session == s.Name }) {
			out = append(out, s)
		}
	}
	return out
}
