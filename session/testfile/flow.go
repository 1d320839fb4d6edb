package testfile

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/e2e-dev/e2e/session/step"
)

// FlowSuffix ends the name of every flow file.
const FlowSuffix = ".flow.yaml"

// MaxFlowSteps bounds the steps one use of a flow expands to, the steps of
// the flows it uses in turn included, so that flows that use each other
// many times over cost bounded time and memory.
const MaxFlowSteps = 10000

// Flow is a parsed flow file: steps with parameters that tests use by name
// with a use step:
//
//	name: sign in
//	params: [user, password]
//	url: /login              # optional: where the flow starts
//	steps:
//	  - type: { into: the email field, text: "{{ user }}" }
//	  - type: { into: the password field, text: "{{ password }}" }
//	  - click: the Sign in button
//
// In its url and steps, {{ name }} is the parameter name: the text the use
// step gives it is put in its place when a test is linked ([Flows.Link]).
type Flow struct {
	File    string // the path the flow was read from, as given
	Shown   string // the path output shows: see [Test.Shown]; "" means File
	Name    string
	NamePos Pos
	Params  []string
	URL     string // where the flow starts, relative to the base URL or absolute; "" where the test is
	URLPos  Pos
	Context string // notes for the agent about the flow's act steps
	Steps   []Step
}

// ShownFile is the path of the flow as output shows it: Shown, else File.
func (f *Flow) ShownFile() string {
	if f.Shown != "" {
		return f.Shown
	}
	return f.File
}

// Use is what a use step says: the flow it runs and the text it gives each
// parameter. [Flows.Link] fills in the flow and its steps.
type Use struct {
	Flow    string
	FlowPos Pos   // where the flow's name is
	With    []Arg // in the order written
	// Def is the flow used and Steps its steps with the parameters given
	// (a navigate to its url first, when it has one); a use step among
	// them has its own. Both are nil until the use is linked.
	Def   *Flow
	Steps []Step
}

// Arg is one parameter a use step gives.
type Arg struct {
	Name  string
	Value string // as written: variables unresolved
	Pos   Pos    // where the name is
	// ValuePos is where the value is.
	ValuePos Pos
}

// Command is how a use step reads in results and reports:
// `use sign in (user: "{{ env.E2E_USER }}")`. A value holds variables as
// written, never a secret's value.
func (u *Use) Command() string {
	var b strings.Builder
	b.WriteString("use " + u.Flow)
	for i, a := range u.With {
		if i == 0 {
			b.WriteString(" (")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %q", a.Name, a.Value)
	}
	if len(u.With) > 0 {
		b.WriteString(")")
	}
	return b.String()
}

// UseKind is the kind of a step that uses a flow.
const UseKind Kind = "use"

// Command is the step as results keep it: its step command, or for a use
// step [Use.Command].
func (s Step) Command() string {
	if s.Use != nil {
		return s.Use.Command()
	}
	return s.Step.String()
}

// ParseFlowFile reads and parses the flow file at path. See [ParseFlow].
func ParseFlowFile(path string) (*Flow, error) {
	src, err := readFile(path, "the flow file")
	if list, ok := err.(List); ok {
		return nil, list
	}
	if err != nil {
		return nil, fmt.Errorf("read flow: %w", err)
	}
	return ParseFlow(path, src)
}

// flowKeys are the keys of a flow file.
var flowKeys = []string{"name", "params", "url", "context", "steps"}

// ParseFlow parses the flow file src, named file in messages. It returns a
// valid Flow or a [List] of every problem, as [Parse] does for tests; in
// a flow, {{ name }} must name one of its params.
func ParseFlow(file string, src []byte) (*Flow, error) {
	if list := checkSize(file, "the flow file", src); list != nil {
		return nil, list
	}
	d := newDecoder(file, src)
	f := &Flow{File: file}
	body := d.document("a flow file")
	if body != nil {
		d.flow(body, f)
	} else if len(d.errs) == 0 {
		d.errorAt(nil, 1, "empty flow file; it needs a name and steps")
	}
	if len(d.errs) > 0 {
		return nil, d.sorted()
	}
	return f, nil
}

// flow fills f from the top of a flow file. Its params are read first, so
// that the variables of its url and steps are checked against them.
func (d *decoder) flow(n ast.Node, f *Flow) {
	entries, guessed, ok := d.mapping(n, "a flow file", flowKeys)
	if !ok {
		return
	}
	d.params = []string{}
	for _, e := range entries {
		if e.key == "params" {
			f.Params = d.flowParams(e.value)
			d.params = f.Params
		}
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.key] = true
		switch e.key {
		case "name":
			if s, ok := d.text(e.value, "the flow's name"); ok {
				if strings.TrimSpace(s) == "" {
					d.errorf(e.keyN, "empty name; give the flow a name, which tests use it by")
				}
				f.Name = strings.TrimSpace(s)
				f.NamePos = posOf(d.unwrap(e.value))
			}
		case "url":
			if s, ok := d.text(e.value, "the URL the flow starts at"); ok {
				d.checkVars(e.value, s)
				f.URL = strings.TrimSpace(s)
				f.URLPos = posOf(e.value)
			}
		case "context":
			if s, ok := d.text(e.value, "notes for the agent"); ok {
				f.Context = s
			}
		case "steps":
			f.Steps = d.steps(e.keyN, e.value)
		}
	}
	for _, k := range []string{"name", "steps"} {
		if !seen[k] && !slices.Contains(guessed, k) {
			d.errorf(n, "missing %s; a flow file needs a name and steps", k)
		}
	}
}

// flowParams reads the params of a flow: a list of names.
func (d *decoder) flowParams(n ast.Node) []string {
	v := d.unwrap(n)
	if v == nil {
		return []string{}
	}
	if _, null := v.(*ast.NullNode); null {
		return []string{}
	}
	seq, ok := v.(*ast.SequenceNode)
	if !ok {
		d.errorf(v, "expected a list of parameter names, such as [user, password], found %s", describe(v))
		return []string{}
	}
	out := []string{}
	first := map[string]int{}
	for _, item := range seq.Values {
		s, ok := d.text(item, "a parameter name")
		if !ok {
			continue
		}
		item = d.unwrap(item)
		s = strings.TrimSpace(s)
		switch {
		case !validName(s):
			d.errorf(item, "invalid parameter name %s; a name is letters, digits and _ and does not start with a digit", quoted(s))
			continue
		case s == string(VarUnique):
			d.errorf(item, "%s is a variable of its own; name the parameter otherwise", quoted(s))
			continue
		}
		if line, dup := first[s]; dup {
			d.errorf(item, "parameter %s is listed twice (first at line %d)", quoted(s), line)
			continue
		}
		first[s] = lineOf(item)
		out = append(out, s)
	}
	return out
}

// useKeys are the keys of a use step's mapping form.
var useKeys = []string{"flow", "with"}

// use reads the value of a use step, whose key is keyN: a flow's name, or
// { flow: NAME, with: { PARAM: TEXT, … } }.
func (d *decoder) use(keyN, n ast.Node) (*Use, bool) {
	v := d.unwrap(n)
	if v == nil {
		return nil, false
	}
	const example = `use: { flow: sign in, with: { user: "{{ env.E2E_USER }}" } }`
	if _, null := v.(*ast.NullNode); null {
		d.errorf(keyN, "use needs the name of a flow; for example %s", example)
		return nil, false
	}
	if s, ok := scalar(v); ok {
		if strings.TrimSpace(s) == "" {
			d.errorf(keyN, "use needs the name of a flow; for example %s", example)
			return nil, false
		}
		return &Use{Flow: strings.TrimSpace(s), FlowPos: posOf(v)}, true
	}
	if _, ok := v.(*ast.SequenceNode); ok {
		d.errorf(v, "expected a flow's name or a mapping, found a list; for example %s", example)
		return nil, false
	}
	before := len(d.errs)
	entries, guessed, ok := d.mapping(v, "use", useKeys)
	if !ok {
		return nil, false
	}
	u := &Use{}
	named := false
	for _, e := range entries {
		switch e.key {
		case "flow":
			s, ok := d.text(e.value, "the name of a flow")
			if !ok {
				continue
			}
			if strings.TrimSpace(s) == "" {
				d.errorf(e.keyN, "use needs the name of a flow; for example %s", example)
				continue
			}
			u.Flow, u.FlowPos, named = strings.TrimSpace(s), posOf(d.unwrap(e.value)), true
		case "with":
			u.With = d.withArgs(e.value)
		}
	}
	if !named && !slices.Contains(guessed, "flow") && len(d.errs) == before {
		d.errorf(v, "use needs flow: the name of a flow; for example %s", example)
	}
	return u, len(d.errs) == before
}

// withArgs reads the parameters of a use step: a mapping of names to text.
func (d *decoder) withArgs(n ast.Node) []Arg {
	v := d.unwrap(n)
	if v == nil {
		return nil
	}
	if _, null := v.(*ast.NullNode); null {
		return nil
	}
	m, isMap := v.(*ast.MappingNode)
	if !isMap {
		mv, single := v.(*ast.MappingValueNode)
		if !single {
			d.errorf(v, "expected the flow's parameters as a mapping, such as { user: alice }, found %s", describe(v))
			return nil
		}
		m = &ast.MappingNode{Values: []*ast.MappingValueNode{mv}}
	}
	var out []Arg
	first := map[string]int{}
	for _, mv := range m.Values {
		keyN := d.unwrap(mv.Key)
		if keyN == nil {
			continue
		}
		k, isText := scalar(keyN)
		if !isText {
			d.errorf(keyN, "expected a parameter name, found %s", describe(keyN))
			continue
		}
		if line, dup := first[k]; dup {
			d.errorf(keyN, "parameter %s is given twice (first at line %d)", quoted(k), line)
			continue
		}
		first[k] = lineOf(keyN)
		s, ok := d.text(mv.Value, "the text the parameter stands for")
		if !ok {
			continue
		}
		val := d.unwrap(mv.Value)
		if !d.checkVars(val, s) {
			continue
		}
		out = append(out, Arg{Name: k, Value: s, Pos: posOf(keyN), ValuePos: posOf(val)})
	}
	return out
}

// substitute returns s with each parameter of a flow whose params are
// params ({{ name }}) replaced by the text with gives it. Every other
// variable, and anything malformed, stays as written.
func substitute(s string, params []string, with map[string]string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(s[i:], "{{")
		if j < 0 {
			b.WriteString(s[i:])
			return b.String()
		}
		start := i + j
		k := strings.Index(s[start+2:], "}}")
		if k < 0 {
			b.WriteString(s[i:])
			return b.String()
		}
		end := start + 2 + k + 2
		b.WriteString(s[i:start])
		if v, msg := parseVar(s[start+2:end-2], params); msg == "" && v.Kind == VarParam {
			b.WriteString(with[v.Name])
		} else {
			b.WriteString(s[start:end])
		}
		i = end
	}
}

// Flows are the flows of a project, by name.
type Flows struct {
	list   []*Flow
	byName map[string]*Flow
	twice  map[string][]*Flow // the flows of a name given to more than one
}

// NewFlows returns the flows given, by name. A name given twice is a
// problem at the second flow's name, which says where the first is; the
// first one keeps the name.
func NewFlows(flows []*Flow) (*Flows, []List) {
	fs := &Flows{byName: map[string]*Flow{}, twice: map[string][]*Flow{}}
	var out []List
	for _, f := range flows {
		if first, dup := fs.byName[f.Name]; dup {
			if len(fs.twice[f.Name]) == 0 {
				fs.twice[f.Name] = []*Flow{first}
			}
			fs.twice[f.Name] = append(fs.twice[f.Name], f)
			out = append(out, List{problemAt(f.File, f.NamePos, len([]rune(f.Name)),
				fmt.Sprintf("two flows are named %s: this one and the one in %s:%d; rename one", quoted(f.Name), first.ShownFile(), first.NamePos.Line))})
			continue
		}
		fs.byName[f.Name] = f
		fs.list = append(fs.list, f)
	}
	return fs, out
}

// LoadFlows finds the flow files that cfg.Flows name under cfg.Dir and
// parses them. The problems of each file, and flows that share a name, are
// returned as one List per file, in file order; a file that cannot be read
// is an error of its own. The flows that parsed are returned all the same.
func LoadFlows(cfg *Config) (*Flows, []error) {
	var paths []string
	var errs []error
	for _, p := range cfg.Flows {
		m, err := glob(cfg.Dir, p)
		if err != nil {
			errs = append(errs, fmt.Errorf("find flows: pattern %q: %w", p, err))
		}
		paths = append(paths, m...)
	}
	var flows []*Flow
	for _, p := range sortUnique(paths) {
		f, err := ParseFlowFile(NearPath(p))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f.Shown = ShownPath(cfg.Dir, p)
		flows = append(flows, f)
	}
	fs, dups := NewFlows(flows)
	for _, l := range dups {
		errs = append(errs, l)
	}
	return fs, errs
}

// All returns the flows, in file order.
func (fs *Flows) All() []*Flow {
	if fs == nil {
		return nil
	}
	return fs.list
}

// Get returns the flow named name, or nil.
func (fs *Flows) Get(name string) *Flow {
	if fs == nil {
		return nil
	}
	return fs.byName[name]
}

// Names returns the names of the flows, in file order.
func (fs *Flows) Names() []string {
	out := make([]string, 0, len(fs.All()))
	for _, f := range fs.All() {
		out = append(out, f.Name)
	}
	return out
}

// Check reports every flow that uses itself, directly or through other
// flows, once for each such cycle, at the use step that closes it: as one
// List per flow file with problems. A flow in a cycle cannot be linked.
func (fs *Flows) Check() []List {
	byFile := map[string]List{}
	var files []string
	state := map[*Flow]int{} // 0 unseen, 1 on the path, 2 done
	var path []*Flow
	var visit func(f *Flow)
	visit = func(f *Flow) {
		state[f] = 1
		path = append(path, f)
		for _, u := range usesOf(f.Steps) {
			g := fs.Get(u.Flow)
			if g == nil {
				continue // unknown: Link says so
			}
			switch state[g] {
			case 0:
				visit(g)
			case 1:
				i := slices.Index(path, g)
				names := make([]string, 0, len(path)-i+1)
				for _, p := range path[i:] {
					names = append(names, quoted(p.Name))
				}
				names = append(names, quoted(g.Name))
				msg := fmt.Sprintf("flow %s uses itself", quoted(g.Name))
				if len(names) > 2 {
					msg += " through " + strings.Join(names[1:len(names)-1], " and ")
				}
				msg += ": " + strings.Join(names, " → ") + "; a flow cannot use a flow that uses it"
				if _, ok := byFile[f.File]; !ok {
					files = append(files, f.File)
				}
				byFile[f.File] = append(byFile[f.File], problemAt(f.File, u.FlowPos, len([]rune(u.Flow)), msg))
			}
		}
		path = path[:len(path)-1]
		state[f] = 2
	}
	for _, f := range fs.All() {
		if state[f] == 0 {
			visit(f)
		}
	}
	out := make([]List, 0, len(files))
	for _, file := range files {
		out = append(out, byFile[file])
	}
	return out
}

// usesOf returns the use steps among steps.
func usesOf(steps []Step) []*Use {
	var out []*Use
	for _, s := range steps {
		if s.Use != nil {
			out = append(out, s.Use)
		}
	}
	return out
}

// LinkTest links every use step of t (see [Flows.Link]); its problems are
// at their places in t's file.
func (fs *Flows) LinkTest(t *Test) List {
	var l List
	for i := range t.Steps {
		if u := t.Steps[i].Use; u != nil {
			l = append(l, fs.Link(t.File, u)...)
		}
	}
	return l
}

// Link checks the use step u, read from file, against the flows and fills
// in its flow and steps: the flow's steps with the text u gives each
// parameter put in place of {{ name }} (a navigate to the flow's url
// first, when it has one), the use steps among them linked in turn. Its
// problems, at their places in file: a flow no flow file names (with a
// "did you mean"), a parameter the flow does not have (with a "did you
// mean") or one it has that u does not give, a flow in a cycle (see
// [Flows.Check], which reports it) and a use that expands to more than
// MaxFlowSteps steps. It is what a session that names a flow links too.
func (fs *Flows) Link(file string, u *Use) List {
	if twice := fs.twice[u.Flow]; len(twice) > 0 {
		files := make([]string, len(twice))
		for i, f := range twice {
			files[i] = f.ShownFile()
		}
		return List{problemAt(file, u.FlowPos, len([]rune(u.Flow)),
			fmt.Sprintf("two flows are named %s (%s); rename one to use the other", quoted(u.Flow), strings.Join(files, ", ")))}
	}
	f := fs.Get(u.Flow)
	if f == nil {
		msg := fmt.Sprintf("no flow is named %s", quoted(u.Flow))
		if hint := step.Closest(u.Flow, fs.Names()); hint != "" {
			msg += fmt.Sprintf("; did you mean %s?", quoted(hint))
		} else if len(fs.All()) == 0 {
			msg += "; there are no flow files (e2e.yaml's flows: says where they are, flows/*.flow.yaml by default)"
		} else {
			msg += "; the flows are " + strings.Join(quotedAll(fs.Names()), ", ")
		}
		return List{problemAt(file, u.FlowPos, len([]rune(u.Flow)), msg)}
	}
	var l List
	given := map[string]string{}
	for _, a := range u.With {
		if !slices.Contains(f.Params, a.Name) {
			msg := fmt.Sprintf("flow %s has no parameter %s", quoted(f.Name), quoted(a.Name))
			if hint := step.Closest(a.Name, f.Params); hint != "" {
				msg += fmt.Sprintf("; did you mean %s?", hint)
			} else if len(f.Params) == 0 {
				msg += "; it takes none"
			} else {
				msg += "; its params are " + strings.Join(f.Params, ", ")
			}
			l = append(l, problemAt(file, a.Pos, len([]rune(a.Name)), msg))
			continue
		}
		given[a.Name] = a.Value
	}
	var missing []string
	for _, p := range f.Params {
		if _, ok := given[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		l = append(l, problemAt(file, u.FlowPos, len([]rune(u.Flow)),
			fmt.Sprintf("flow %s needs %s: give %s under with:", quoted(f.Name), plainList(missing), strings.Join(missing, ", "))))
	}
	if len(l) > 0 {
		return l
	}
	steps, err := fs.expand(f, given, map[*Flow]bool{}, new(int))
	if err != nil {
		msg := err.Error()
		if errors.Is(err, errCycle) {
			msg = fmt.Sprintf("flow %s uses itself, directly or through another flow; it cannot run", quoted(f.Name))
		}
		return List{problemAt(file, u.FlowPos, len([]rune(u.Flow)), msg)}
	}
	u.Def, u.Steps = f, steps
	return nil
}

var errCycle = errors.New("flow cycle")

// expand returns f's steps with the parameters given, and a navigate to
// its url first when it has one; use steps among them are expanded in
// turn. on holds the flows being expanded (a cycle is errCycle); n counts
// the steps made, which may not pass MaxFlowSteps.
func (fs *Flows) expand(f *Flow, with map[string]string, on map[*Flow]bool, n *int) ([]Step, error) {
	if on[f] {
		return nil, errCycle
	}
	on[f] = true
	defer delete(on, f)
	out := make([]Step, 0, len(f.Steps)+1)
	if f.URL != "" {
		nav := Step{Kind: "navigate", Pos: f.URLPos}
		nav.Type, nav.Value = step.Navigate, substitute(f.URL, f.Params, with)
		out = append(out, nav)
	}
	for _, s := range f.Steps {
		if *n++; *n > MaxFlowSteps {
			return nil, fmt.Errorf("flow %s expands to more than %d steps with the flows it uses", quoted(f.Name), MaxFlowSteps)
		}
		if s.Use == nil {
			s.Description = substitute(s.Description, f.Params, with)
			s.Value = substitute(s.Value, f.Params, with)
			out = append(out, s)
			continue
		}
		g := fs.Get(s.Use.Flow)
		if g == nil {
			return nil, fmt.Errorf("flow %s uses %s, which no flow file names", quoted(f.Name), quoted(s.Use.Flow))
		}
		u := &Use{Flow: s.Use.Flow, FlowPos: s.Use.FlowPos, Def: g}
		inner := map[string]string{}
		for _, a := range s.Use.With {
			a.Value = substitute(a.Value, f.Params, with)
			u.With = append(u.With, a)
			inner[a.Name] = a.Value
		}
		steps, err := fs.expand(g, inner, on, n)
		if err != nil {
			return nil, err
		}
		u.Steps = steps
		s.Use = u
		out = append(out, s)
	}
	return out, nil
}

// CheckFlowUses reports, for each flow, the use steps in it that name no
// flow or give the wrong parameters, at their places in its file: one List
// per flow file with problems.
func (fs *Flows) CheckFlowUses() []List {
	var out []List
	for _, f := range fs.All() {
		var l List
		for _, u := range usesOf(f.Steps) {
			probe := *u
			l = append(l, fs.checkUse(f.File, &probe)...)
		}
		if len(l) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// checkUse is Link's checks of the flow's name and parameters, without
// expanding the flow.
func (fs *Flows) checkUse(file string, u *Use) List {
	l := fs.Link(file, u)
	// A cycle is reported by Check, at the use that closes it.
	return slices.DeleteFunc(l, func(e *Error) bool { return strings.Contains(e.Msg, "uses itself") })
}

// AllSteps returns every step of t, with the steps of the flows it uses in
// place of its use steps (after [Flows.LinkTest]), recursively.
func (t *Test) AllSteps() []Step {
	return flatten(t.Steps)
}

func flatten(steps []Step) []Step {
	var out []Step
	for _, s := range steps {
		if s.Use != nil {
			out = append(out, flatten(s.Use.Steps)...)
			continue
		}
		out = append(out, s)
	}
	return out
}

// problemAt is a problem at p in file, spanning width characters, with the
// file's line for its excerpt (read now; "" when it cannot be read).
func problemAt(file string, p Pos, width int, msg string) *Error {
	e := &Error{File: file, Line: max(1, p.Line), Col: max(1, p.Col), Msg: msg, Width: max(1, width)}
	if src, err := os.ReadFile(file); err == nil {
		lines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(src)), "\n")
		if e.Line <= len(lines) {
			e.Source = lines[e.Line-1]
		}
	}
	return e
}

func quotedAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = quoted(n)
	}
	return out
}

// plainList is names as words: "user", "user and password", "a, b and c".
func plainList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// LinkFlows loads the flows cfg names (see [LoadFlows]), checks them ([Flows.Check],
// [Flows.CheckFlowUses]) and links the use steps of tests to them
// ([Flows.LinkTest]), and the sessions of cfg to their flows
// ([Flows.LinkSessions]) and tests to the sessions they name
// ([CheckSession]). It returns every problem, a List per file (or the
// error that kept a file from being read), nil when there is none.
func LinkFlows(cfg *Config, tests []*Test) []error {
	flows, errs := LoadFlows(cfg)
	for _, l := range flows.Check() {
		errs = append(errs, l)
	}
	for _, l := range flows.CheckFlowUses() {
		errs = append(errs, l)
	}
	if l := flows.LinkSessions(cfg); len(l) > 0 {
		errs = append(errs, l)
	}
	for _, t := range tests {
		if l := append(flows.LinkTest(t), CheckSession(cfg, t)...); len(l) > 0 {
			errs = append(errs, l)
		}
	}
	return errs
}
