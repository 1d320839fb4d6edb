package testfile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/e2e-dev/e2e/session/redact"
	"github.com/e2e-dev/e2e/session/step"
)

// VarKind is the kind of a variable.
type VarKind string

// The kinds of variable.
const (
	// VarEnv is {{ env.NAME }}: the environment variable NAME.
	VarEnv VarKind = "env"
	// VarSecret is {{ secret.NAME }}: the environment variable NAME, whose
	// value is redacted from everything the tool prints or stores.
	VarSecret VarKind = "secret"
	// VarUnique is {{ unique "prefix" }}: a value unique to the run that
	// starts with prefix, for names that must not collide with earlier runs.
	VarUnique VarKind = "unique"
	// VarParam is {{ name }} in a flow file: the text the step that uses
	// the flow gives the parameter name (see [Flow]). It is substituted
	// when a test is linked to its flows ([Link]), so the steps a run
	// resolves hold none.
	VarParam VarKind = "param"
)

// varKinds lists the spellings of variable kinds, for hints.
var varKinds = []string{string(VarEnv), string(VarSecret), string(VarUnique)}

// Var is a variable used in a test: {{ env.NAME }}, {{ secret.NAME }} or
// {{ unique "prefix" }}.
type Var struct {
	Kind VarKind
	// Name is the variable's name, or the prefix of a unique variable.
	Name string
	// Form is how a unique value is spelled: "" as it is, FormURL
	// URL-encoded ({{ unique "x" | url }}), FormSlug as a slug
	// ({{ unique "x" | slug }}).
	Form string
}

// String returns the variable as it is written in a test file.
func (v Var) String() string {
	if v.Kind == VarUnique {
		form := ""
		if v.Form != "" {
			form = " | " + v.Form
		}
		if v.Name == "" {
			return "{{ unique" + form + " }}"
		}
		return `{{ unique "` + v.Name + `"` + form + ` }}`
	}
	if v.Kind == VarParam {
		return "{{ " + v.Name + " }}"
	}
	return "{{ " + string(v.Kind) + "." + v.Name + " }}"
}

// ParseVars returns the variables in s in order of appearance, repeats
// included. Every "{{" opens a variable, which "}}" closes. The error is a
// *VarError for the first malformed variable.
func ParseVars(s string) ([]Var, error) {
	return parseVarsIn(s, nil)
}

// ParseVarsIn is [ParseVars] for the text of a flow whose parameters are
// params: {{ name }} for one of them is a VarParam.
func ParseVarsIn(s string, params []string) ([]Var, error) { return parseVarsIn(s, params) }

func parseVarsIn(s string, params []string) ([]Var, error) {
	var vars []Var
	_, err := expand(s, params, func(v Var) (string, error) {
		vars = append(vars, v)
		return "", nil
	})
	return vars, err
}

// StepVars returns the variables in the description and then the value of
// s. The error is a *VarError for the first malformed variable.
func StepVars(s step.Step) ([]Var, error) {
	d, err := ParseVars(s.Description)
	if err != nil {
		return nil, err
	}
	v, err := ParseVars(s.Value)
	return append(d, v...), err
}

// Vars returns the distinct variables that the test's URL and steps use, in
// order of first use: those its use steps give the flows they use, and
// those of the flows' steps once linked ([Flows.LinkTest]), among them. The error is a *VarError for the first malformed
// variable; a Test returned by Parse has none.
func (t *Test) Vars() ([]Var, error) {
	all, err := ParseVars(t.URL)
	if err != nil {
		return nil, err
	}
	for _, s := range t.Steps {
		if s.Use == nil {
			continue
		}
		for _, a := range s.Use.With {
			vs, err := ParseVars(a.Value)
			if err != nil {
				return nil, err
			}
			all = append(all, vs...)
		}
	}
	for _, s := range t.AllSteps() {
		vs, err := StepVars(s.Step)
		if err != nil {
			return nil, err
		}
		all = append(all, vs...)
	}
	seen := make(map[Var]bool, len(all))
	out := all[:0]
	for _, v := range all {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out, nil
}

// Resolve returns s with the variables in its description and value replaced
// by their values, for execution only: the step that is stored or printed
// keeps the variables. env looks up env.NAME and secret.NAME by NAME; unique
// returns the value of a unique variable from its prefix, and may be nil
// when s uses none. secrets holds the distinct non-empty values of the
// secrets used, for [Redact].
//
// Substitution is a single pass: a value holding "{{" is not expanded again.
// The error is a *VarError for a malformed variable, an *UnsetError
// naming a variable that env does not know or a *BlankSecretError naming a
// secret whose value is only white space; no error holds a value.
func Resolve(s step.Step, env func(string) (string, bool), unique func(prefix string) string) (resolved step.Step, secrets []string, err error) {
	r := resolver{env: env, unique: unique}
	if s.Description, err = expand(s.Description, nil, r.value); err != nil {
		return step.Step{}, nil, fmt.Errorf("resolve description: %w", err)
	}
	if s.Value, err = expand(s.Value, nil, r.value); err != nil {
		return step.Step{}, nil, fmt.Errorf("resolve value: %w", err)
	}
	return s, r.secrets, nil
}

// ResolveString is [Resolve] for one string, such as a test's URL.
func ResolveString(s string, env func(string) (string, bool), unique func(prefix string) string) (resolved string, secrets []string, err error) {
	r := resolver{env: env, unique: unique}
	out, err := expand(s, nil, r.value)
	if err != nil {
		return "", nil, err
	}
	return out, r.secrets, nil
}

// resolver looks up variable values and remembers the secrets it returned.
type resolver struct {
	env     func(string) (string, bool)
	unique  func(string) string
	secrets []string
}

func (r *resolver) value(v Var) (string, error) {
	if v.Kind == VarUnique {
		if r.unique == nil {
			return "", fmt.Errorf("%s: no generator for unique values", v)
		}
		return Spell(r.unique(v.Name), v.Form), nil
	}
	val, err := lookup(r.env, v)
	if err != nil {
		return "", err
	}
	if v.Kind == VarSecret && val != "" && !slices.Contains(r.secrets, val) {
		r.secrets = append(r.secrets, val)
	}
	return val, nil
}

// lookup returns the value of the env or secret variable v from env, an
// *UnsetError when env does not know it, or a *BlankSecretError for a
// secret whose value is only white space.
func lookup(env func(string) (string, bool), v Var) (string, error) {
	if env == nil {
		return "", &UnsetError{Var: v}
	}
	val, ok := env(v.Name)
	if !ok {
		return "", &UnsetError{Var: v}
	}
	if v.Kind == VarSecret && val != "" && redact.IsBlank(val) {
		return "", &BlankSecretError{Var: v}
	}
	return val, nil
}

// UniqueFor returns a generator for unique variables that gives prefix
// followed by runID, so every use of a prefix in one run has the same value
// and different runs differ.
func UniqueFor(runID string) func(prefix string) string {
	return func(prefix string) string { return prefix + runID }
}

// Redacted is what Redact puts in place of a secret value.
const Redacted = redact.Marker

// Redact returns s with every form of each non-empty secret value (raw,
// quoted, JSON-, URL- and HTML-escaped; see package redact) replaced by
// [Redacted]. It builds a redactor on every call: code that redacts more
// than once shares a *redact.Redactor instead.
func Redact(s string, secrets []string) string {
	return redact.New(secrets...).String(s)
}

// expand returns s with each variable replaced by what value returns for
// it; params are the parameters of the flow s is from (nil outside flows).
// It stops at the first malformed variable, with a *VarError, or at the
// first error from value.
func expand(s string, params []string, value func(Var) (string, error)) (string, error) {
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(s[i:], "{{")
		if j < 0 {
			if i == 0 {
				return s, nil
			}
			b.WriteString(s[i:])
			return b.String(), nil
		}
		start := i + j
		k := strings.Index(s[start+2:], "}}")
		if k < 0 {
			return "", &VarError{Offset: start, Width: 2, Msg: `unclosed "{{"; a variable ends with "}}"`}
		}
		end := start + 2 + k + 2
		v, msg := parseVar(s[start+2:end-2], params)
		if msg != "" {
			return "", &VarError{Offset: start, Width: runeWidth(s[start:end]), Msg: msg}
		}
		val, err := value(v)
		if err != nil {
			return "", err
		}
		b.WriteString(s[i:start])
		b.WriteString(val)
		i = end
	}
}

// parseVar reads the text between "{{" and "}}", in the text of a flow
// whose parameters are params (nil outside flows). It returns a message
// saying what is wrong when the text is not a variable.
func parseVar(inner string, params []string) (Var, string) {
	in := strings.TrimSpace(inner)
	const usage = `use {{ env.NAME }}, {{ secret.NAME }} or {{ unique "prefix" }}`
	if in == "" {
		return Var{}, "empty variable; " + usage
	}
	if params != nil && validName(in) && in != string(VarUnique) {
		if slices.Contains(params, in) {
			return Var{Kind: VarParam, Name: in}, ""
		}
		msg := fmt.Sprintf("unknown parameter %s", quoted(in))
		if hint := step.Closest(in, params); hint != "" {
			return Var{}, msg + fmt.Sprintf("; did you mean %s?", hint)
		}
		if len(params) == 0 {
			return Var{}, msg + "; the flow has no params: list it under params:"
		}
		return Var{}, msg + "; the flow's params are " + strings.Join(params, ", ")
	}
	if in == string(VarUnique) {
		return Var{Kind: VarUnique}, ""
	}
	if rest, ok := strings.CutPrefix(in, string(VarUnique)); ok && (rest[0] == ' ' || rest[0] == '"' || rest[0] == '\t' || rest[0] == '|') {
		p := strings.TrimSpace(rest)
		v := Var{Kind: VarUnique}
		if strings.HasPrefix(p, `"`) {
			end := strings.IndexByte(p[1:], '"')
			if end < 0 || strings.ContainsAny(p[1:end+1], "\n\r") {
				return Var{}, `unique takes a prefix in double quotes, such as {{ unique "user-" }}`
			}
			v.Name, p = p[1:end+1], strings.TrimSpace(p[end+2:])
		}
		if p == "" {
			return v, ""
		}
		form, ok := strings.CutPrefix(p, "|")
		if !ok {
			return Var{}, `unique takes a prefix in double quotes, such as {{ unique "user-" }}, and may end with | url or | slug`
		}
		v.Form = strings.TrimSpace(form)
		if v.Form != FormURL && v.Form != FormSlug {
			return Var{}, fmt.Sprintf("unknown spelling %s of a unique value; use | url or | slug", quoted(v.Form))
		}
		return v, ""
	}
	kind, name, ok := strings.Cut(in, ".")
	if !ok {
		word, _, _ := strings.Cut(in, " ")
		if hint := step.Closest(word, varKinds); hint != "" {
			return Var{}, fmt.Sprintf("unknown variable %s; did you mean %s?", quoted(in), hint)
		}
		return Var{}, fmt.Sprintf("unknown variable %s; %s", quoted(in), usage)
	}
	k := VarKind(kind)
	if k != VarEnv && k != VarSecret {
		if hint := step.Closest(kind, varKinds[:2]); hint != "" {
			return Var{}, fmt.Sprintf("unknown variable kind %s; did you mean %s?", quoted(kind), hint)
		}
		return Var{}, fmt.Sprintf("unknown variable kind %s; %s", quoted(kind), usage)
	}
	if !validName(name) {
		return Var{}, fmt.Sprintf("invalid variable name %s; a name is letters, digits and _ and does not start with a digit", quoted(name))
	}
	return Var{Kind: k, Name: name}, ""
}

func validName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// maxQuoted bounds how much of a user's text a message repeats.
const maxQuoted = 40

// quoted returns s in double quotes for a message, cut to maxQuoted characters.
func quoted(s string) string {
	if utf8.RuneCountInString(s) > maxQuoted {
		return strconv.Quote(string([]rune(s)[:maxQuoted])) + "…"
	}
	return strconv.Quote(s)
}
