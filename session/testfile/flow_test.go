package testfile

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/step"
)

func mustFlow(t *testing.T, file, src string) *Flow {
	t.Helper()
	f, err := ParseFlow(file, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return f
}

// TestFlowLinking: a use step's flow is expanded with the text it gives
// each parameter in place of {{ name }} (other variables kept as written),
// a navigate to the flow's url first, and a flow it uses expanded in turn
// with its own parameters; the test's variables include those its flows'
// steps hold once linked.
func TestFlowLinking(t *testing.T) {
	signIn := mustFlow(t, "sign-in.flow.yaml", `name: sign in
params: [user, password]
url: /login?as={{ user }}
steps:
  - type: { into: the email field, text: "{{ user }}" }
  - type: { into: the password field, text: "{{ password }}{{ env.SUFFIX }}" }
  - click: the {{ user }} button
`)
	outer := mustFlow(t, "outer.flow.yaml", `name: outer
params: [who]
steps:
  - use: { flow: sign in, with: { user: "{{ who }}", password: "{{ secret.PW }}" } }
  - expect: { visible: the Users heading }
`)
	fs, dups := NewFlows([]*Flow{signIn, outer})
	if len(dups) > 0 || len(fs.Check()) > 0 || len(fs.CheckFlowUses()) > 0 {
		t.Fatalf("problems: %v %v %v", dups, fs.Check(), fs.CheckFlowUses())
	}
	test, err := Parse("t.e2e.yaml", []byte(`name: t
steps:
  - use: { flow: outer, with: { who: "{{ env.USER }}" } }
  - use: sign in
`))
	if err != nil {
		t.Fatal(err)
	}
	l := fs.LinkTest(test)
	if len(l) != 1 || !strings.Contains(l[0].Error(), `t.e2e.yaml:4:10: flow "sign in" needs user and password: give user, password under with:`) {
		t.Fatalf("link problems: %v", l)
	}
	u := test.Steps[0].Use
	if u.Def != outer || len(u.Steps) != 2 || u.Steps[0].Use == nil {
		t.Fatalf("outer not linked: %+v", u)
	}
	inner := u.Steps[0].Use
	var got []string
	for _, s := range inner.Steps {
		got = append(got, s.Step.String())
	}
	want := []string{
		`--step-type NAVIGATE --value "/login?as={{ env.USER }}"`,
		`--step-type TYPE --description "the email field" --value "{{ env.USER }}"`,
		`--step-type TYPE --description "the password field" --value "{{ secret.PW }}{{ env.SUFFIX }}"`,
		`--step-type CLICK --description "the {{ env.USER }} button"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("inner steps:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if inner.Steps[1].Pos != (Pos{Line: 5, Col: 5}) {
		t.Errorf("a flow's step keeps its place in the flow's file: %v", inner.Steps[1].Pos)
	}
	vars, err := test.Vars()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vars {
		names = append(names, v.String())
	}
	if got := strings.Join(names, " "); got != "{{ env.USER }} {{ secret.PW }} {{ env.SUFFIX }}" {
		t.Errorf("vars: %s", got)
	}
	if c := test.Steps[0].Command(); c != `use outer (who: "{{ env.USER }}")` {
		t.Errorf("command: %s", c)
	}
}

// TestFlowParseProblems: the problems of flow files and use steps, each at
// its line and column.
func TestFlowParseProblems(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		flow            bool
	}{
		{"param in a test", "name: t\nsteps:\n  - click: \"the {{ user }} button\"\n", `3:17: unknown variable "user"`, false},
		{"unknown param", "name: f\nparams: [user]\nsteps:\n  - click: \"the {{ usr }} button\"\n", `4:17: unknown parameter "usr"; did you mean user?`, true},
		{"no params", "name: f\nsteps:\n  - click: \"the {{ user }} button\"\n", `3:17: unknown parameter "user"; the flow has no params: list it under params:`, true},
		{"bad param name", "name: f\nparams: [1st]\nsteps:\n  - click: x\n", `2:10: invalid parameter name "1st"`, true},
		{"param twice", "name: f\nparams: [a, a]\nsteps:\n  - click: x\n", `2:13: parameter "a" is listed twice (first at line 2)`, true},
		{"flow without name", "params: [a]\nsteps:\n  - click: x\n", `1:1: missing name; a flow file needs a name and steps`, true},
		{"use with timeout", "name: t\nsteps:\n  - use: f\n    timeout: 2s\n", `4:5: a use step takes no timeout`, false},
		{"use without flow", "name: t\nsteps:\n  - use: { with: { a: b } }\n", `3:10: use needs flow: the name of a flow`, false},
		{"use misspelt key", "name: t\nsteps:\n  - use: { flow: f, whith: { a: b } }\n", `3:21: unknown key "whith" in use; did you mean with?`, false},
		{"with not a mapping", "name: t\nsteps:\n  - use: { flow: f, with: [a] }\n", `3:27: expected the flow's parameters as a mapping`, false},
		{"with bad variable", "name: t\nsteps:\n  - use: { flow: f, with: { a: \"{{ enf.X }}\" } }\n", `3:33: unknown variable kind "enf"; did you mean env?`, false},
		{"use misspelt", "name: t\nsteps:\n  - uze: f\n", `3:5: unknown key "uze" in a step; did you mean use?`, false},
	} {
		var err error
		if c.flow {
			_, err = ParseFlow("f.flow.yaml", []byte(c.src))
		} else {
			_, err = Parse("t.e2e.yaml", []byte(c.src))
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestFlowCycles: a flow that uses itself, directly or through others, is
// reported once a cycle, at the use step that closes it.
func TestFlowCycles(t *testing.T) {
	a := mustFlow(t, "a.flow.yaml", "name: a\nsteps:\n  - use: b\n")
	b := mustFlow(t, "b.flow.yaml", "name: b\nsteps:\n  - click: x\n  - use: c\n")
	c := mustFlow(t, "c.flow.yaml", "name: c\nsteps:\n  - use: a\n")
	ok := mustFlow(t, "ok.flow.yaml", "name: ok\nsteps:\n  - use: b\n")
	fs, _ := NewFlows([]*Flow{a, b, c, ok})
	lists := fs.Check()
	if len(lists) != 1 || len(lists[0]) != 1 || !strings.Contains(lists[0][0].Error(),
		`c.flow.yaml:3:10: flow "a" uses itself through "b" and "c": "a" → "b" → "c" → "a"`) {
		t.Fatalf("cycles: %v", lists)
	}
	u := &Use{Flow: "ok", FlowPos: Pos{1, 1}}
	if l := fs.Link("t.e2e.yaml", u); len(l) != 1 || !strings.Contains(l[0].Msg, `flow "ok" uses itself, directly or through another flow`) {
		t.Errorf("a use of a flow that reaches a cycle: %v", l)
	}
}

// TestSubstituteKeepsOtherVariables: only a flow's parameters are
// replaced, and a value with "{{" in it is not expanded again.
func TestSubstituteKeepsOtherVariables(t *testing.T) {
	got := substitute(`{{user}} {{ env.A }} {{ unique "x" | slug }} {{ pw }}`, []string{"user", "pw"},
		map[string]string{"user": "{{ secret.B }}", "pw": "{{ user }}"})
	if want := `{{ secret.B }} {{ env.A }} {{ unique "x" | slug }} {{ user }}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if st, _ := Parse("t", []byte("name: t\nsteps:\n  - use: f\n")); st.Steps[0].Type != step.Type("") || st.Steps[0].Kind != UseKind {
		t.Errorf("a use step has no step type: %+v", st.Steps[0])
	}
}
