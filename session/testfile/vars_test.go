package testfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/step"
)

func TestParseVars(t *testing.T) {
	tests := []struct {
		in   string
		want []Var
	}{
		{"no variables", nil},
		{"{{ env.E2E_USER }}", []Var{{Kind: VarEnv, Name: "E2E_USER"}}},
		{"{{env.X}}", []Var{{Kind: VarEnv, Name: "X"}}},
		{"a {{ secret.PASSWORD }} b {{ env._x1 }}", []Var{{Kind: VarSecret, Name: "PASSWORD"}, {Kind: VarEnv, Name: "_x1"}}},
		{`{{ unique "user-" }}@example.com`, []Var{{Kind: VarUnique, Name: "user-"}}},
		{`{{ unique }}`, []Var{{Kind: VarUnique, Name: ""}}},
		{`{{ unique"p" }}`, []Var{{Kind: VarUnique, Name: "p"}}},
		{`/u/{{ unique "user-" | slug }}?q={{ unique "user-" |url}}`, []Var{{Kind: VarUnique, Name: "user-", Form: FormSlug}, {Kind: VarUnique, Name: "user-", Form: FormURL}}},
		{"{{ env.A }}{{ env.A }}", []Var{{Kind: VarEnv, Name: "A"}, {Kind: VarEnv, Name: "A"}}},
		{"closing }} alone", nil},
		{"{{ env.A }}}", []Var{{Kind: VarEnv, Name: "A"}}},
	}
	for _, tt := range tests {
		got, err := ParseVars(tt.in)
		if err != nil {
			t.Errorf("ParseVars(%q): %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseVars(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestParseVarsErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		msg    string
	}{
		{"x {{ env.A", 2, `unclosed "{{"; a variable ends with "}}"`},
		{"{{ }}", 0, `empty variable; use {{ env.NAME }}, {{ secret.NAME }} or {{ unique "prefix" }}`},
		{"ab {{ envv.X }}", 3, `unknown variable kind "envv"; did you mean env?`},
		{"{{ secrets.X }}", 0, `unknown variable kind "secrets"; did you mean secret?`},
		{"{{ vault.X }}", 0, `unknown variable kind "vault"; use {{ env.NAME }}, {{ secret.NAME }} or {{ unique "prefix" }}`},
		{"{{ PASSWORD }}", 0, `unknown variable "PASSWORD"; use {{ env.NAME }}, {{ secret.NAME }} or {{ unique "prefix" }}`},
		{"{{ uniqe }}", 0, `unknown variable "uniqe"; did you mean unique?`},
		{"{{ env.A-B }}", 0, `invalid variable name "A-B"; a name is letters, digits and _ and does not start with a digit`},
		{"{{ env.1A }}", 0, `invalid variable name "1A"; a name is letters, digits and _ and does not start with a digit`},
		{"{{ env. }}", 0, `invalid variable name ""; a name is letters, digits and _ and does not start with a digit`},
		{"{{ unique user }}", 0, `unique takes a prefix in double quotes, such as {{ unique "user-" }}, and may end with | url or | slug`},
		{`{{ unique "a"b" }}`, 0, `unique takes a prefix in double quotes, such as {{ unique "user-" }}, and may end with | url or | slug`},
		{`{{ unique "a" | upper }}`, 0, `unknown spelling "upper" of a unique value; use | url or | slug`},
		{"ok {{ env.A }} then {{ bad }}", 20, `unknown variable "bad"; use {{ env.NAME }}, {{ secret.NAME }} or {{ unique "prefix" }}`},
	}
	for _, tt := range tests {
		_, err := ParseVars(tt.in)
		var ve *VarError
		if !errors.As(err, &ve) {
			t.Errorf("ParseVars(%q) = %v, want a *VarError", tt.in, err)
			continue
		}
		if ve.Offset != tt.offset || ve.Msg != tt.msg {
			t.Errorf("ParseVars(%q): offset %d %q, want %d %q", tt.in, ve.Offset, ve.Msg, tt.offset, tt.msg)
		}
	}
}

func TestVarString(t *testing.T) {
	for _, v := range []Var{{Kind: VarEnv, Name: "A"}, {Kind: VarSecret, Name: "B_2"}, {Kind: VarUnique, Name: "user-"}, {Kind: VarUnique, Name: ""},
		{Kind: VarUnique, Name: "user-", Form: FormURL}, {Kind: VarUnique, Form: FormSlug}} {
		got, err := ParseVars(v.String())
		if err != nil || len(got) != 1 || got[0] != v {
			t.Errorf("%s reads back as %v, %v", v, got, err)
		}
	}
}

func TestTestVars(t *testing.T) {
	test, err := ParseFile("testdata/all_kinds.e2e.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := test.Vars()
	if err != nil {
		t.Fatal(err)
	}
	want := []Var{{Kind: VarEnv, Name: "SHOP"}, {Kind: VarUnique, Name: "buyer-"}, {Kind: VarSecret, Name: "CARD_NUMBER"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Vars() = %v, want %v", got, want)
	}
}

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

func TestResolve(t *testing.T) {
	vars := env(map[string]string{"E2E_USER": "alice@example.com", "PASSWORD": "hunter2", "EMPTY": "", "TRICKY": "{{ env.PASSWORD }}"})
	unique := UniqueFor("-r42")
	tests := []struct {
		in      step.Step
		want    step.Step
		secrets []string
	}{
		{step.Step{Type: step.TypeText, Description: "the email field", Value: "{{ env.E2E_USER }}"},
			step.Step{Type: step.TypeText, Description: "the email field", Value: "alice@example.com"}, nil},
		{step.Step{Type: step.TypeText, Description: "the password field", Value: "{{ secret.PASSWORD }}", CacheID: "c1"},
			step.Step{Type: step.TypeText, Description: "the password field", Value: "hunter2", CacheID: "c1"}, []string{"hunter2"}},
		{step.Step{Type: step.TypeText, Description: "the {{ env.E2E_USER }} row", Value: `{{ unique "u" }}+{{ secret.PASSWORD }}{{ secret.PASSWORD }}`},
			step.Step{Type: step.TypeText, Description: "the alice@example.com row", Value: "u-r42+hunter2hunter2"}, []string{"hunter2"}},
		{step.Step{Type: step.TypeText, Description: "x", Value: "[{{ secret.EMPTY }}]"},
			step.Step{Type: step.TypeText, Description: "x", Value: "[]"}, nil},
		{step.Step{Type: step.TypeText, Description: "x", Value: "{{ env.TRICKY }}"},
			step.Step{Type: step.TypeText, Description: "x", Value: "{{ env.PASSWORD }}"}, nil},
	}
	for _, tt := range tests {
		got, secrets, err := Resolve(tt.in, vars, unique)
		if err != nil {
			t.Errorf("Resolve(%s): %v", tt.in, err)
			continue
		}
		if got != tt.want || !reflect.DeepEqual(secrets, tt.secrets) {
			t.Errorf("Resolve(%s) = %s %q, want %s %q", tt.in, got, secrets, tt.want, tt.secrets)
		}
	}
}

// TestResolveErrorsHideSecrets checks that resolution errors name the
// variable and never hold a value, even one resolved before the failure.
func TestResolveErrorsHideSecrets(t *testing.T) {
	vars := env(map[string]string{"PASSWORD": "hunter2", "USER": "alice"})
	tests := []struct {
		in   step.Step
		want string
	}{
		{step.Step{Type: step.TypeText, Description: "x", Value: "{{ secret.PASSWORD }} {{ env.MISSING }}"},
			"resolve value: env.MISSING is not set"},
		{step.Step{Type: step.TypeText, Description: "{{ secret.PASSWORD }} {{ secret.TOKEN }}", Value: "x"},
			"resolve description: secret.TOKEN is not set"},
		{step.Step{Type: step.TypeText, Description: "x", Value: "{{ secret.PASSWORD }} {{ bad }}"},
			`resolve value: unknown variable "bad"; use {{ env.NAME }}, {{ secret.NAME }} or {{ unique "prefix" }}`},
		{step.Step{Type: step.TypeText, Description: "x", Value: `{{ secret.PASSWORD }}{{ unique "u" }}`},
			`resolve value: {{ unique "u" }}: no generator for unique values`},
	}
	for _, tt := range tests {
		_, secrets, err := Resolve(tt.in, vars, nil)
		if err == nil {
			t.Errorf("Resolve(%s) succeeded", tt.in)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Resolve(%s): %q, want %q", tt.in, err, tt.want)
		}
		if strings.Contains(err.Error(), "hunter2") || secrets != nil {
			t.Errorf("Resolve(%s) leaks a secret: %q %q", tt.in, err, secrets)
		}
	}
	var unset *UnsetError
	_, _, err := Resolve(step.Step{Type: step.Click, Description: "{{ secret.TOKEN }}"}, vars, nil)
	if !errors.As(err, &unset) || unset.Var != (Var{Kind: VarSecret, Name: "TOKEN"}) {
		t.Errorf("got %v, want an *UnsetError for secret.TOKEN", err)
	}
}

func TestResolveString(t *testing.T) {
	got, secrets, err := ResolveString("/orgs/{{ env.ORG }}/{{ secret.K }}", env(map[string]string{"ORG": "acme", "K": "k3y"}), nil)
	if err != nil || got != "/orgs/acme/k3y" || !reflect.DeepEqual(secrets, []string{"k3y"}) {
		t.Errorf("ResolveString = %q %q %v", got, secrets, err)
	}
}

func TestRedact(t *testing.T) {
	tests := []struct {
		in      string
		secrets []string
		want    string
	}{
		{"typed hunter2 into the field", []string{"hunter2"}, "typed *** into the field"},
		{"hunter2hunter2", []string{"hunter2"}, "******"},
		{"abc and ab", []string{"ab", "abc"}, "*** and ***"},
		{"nothing here", []string{""}, "nothing here"},
		{"nothing here", nil, "nothing here"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in, tt.secrets); got != tt.want {
			t.Errorf("Redact(%q, %q) = %q, want %q", tt.in, tt.secrets, got, tt.want)
		}
	}
}

func TestSlots(t *testing.T) {
	uniques := map[string]string{"user-": "User 4711", "order-": "order-77"}
	for _, tt := range []struct{ in, want string }{
		{`the row "User 4711"`, `the row "{{ unique "user-" }}"`},
		{"/users/user-4711/edit", `/users/{{ unique "user-" | slug }}/edit`},
		{"/search?q=User+4711", `/search?q={{ unique "user-" | url }}`},
		{"order-77 and order-77", `{{ unique "order-" }} and {{ unique "order-" }}`}, // its slug is itself: the plain variable
		{"nothing here", "nothing here"},
	} {
		got := Slots(tt.in, uniques)
		if got != tt.want {
			t.Errorf("Slots(%q) = %q, want %q", tt.in, got, tt.want)
		}
		// A slotted text resolves back to the recorded one with the same
		// values, and to the next run's values with a fresh generator.
		back, _, err := ResolveString(got, nil, func(p string) string { return uniques[p] })
		if err != nil || back != tt.in {
			t.Errorf("%q resolves back to %q, %v", got, back, err)
		}
	}
}

// TestWhiteSpaceOnlySecretsAreRefused: a secret whose value is only white
// space cannot be redacted (pages collapse white space; every space of
// every text would be taken for it): resolving it fails with an error that
// names it and holds no value, and a secret with white space around
// something else resolves.
func TestWhiteSpaceOnlySecretsAreRefused(t *testing.T) {
	vars := env(map[string]string{"BLANK": " \t\r\n ", "NBSP": "\u00a0", "OK": " pass word\n", "EMPTY": ""})
	for _, name := range []string{"BLANK", "NBSP"} {
		st := step.Step{Type: step.TypeText, Description: "the password field", Value: "{{ secret." + name + " }}"}
		_, secrets, err := Resolve(st, vars, nil)
		var blank *BlankSecretError
		if !errors.As(err, &blank) || blank.Var != (Var{Kind: VarSecret, Name: name}) || secrets != nil {
			t.Fatalf("Resolve(%s) = %q, %v; want a *BlankSecretError for secret.%s", st, secrets, err, name)
		}
		if want := "resolve value: secret." + name + " is only white space"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error %q, want it to start %q", err, want)
		}
		if _, _, err := ResolveString("/u/{{ secret."+name+" }}", vars, nil); !errors.As(err, &blank) {
			t.Errorf("ResolveString: %v", err)
		}
	}
	// An env variable may be blank; a secret with something in it resolves.
	if got, _, err := ResolveString("[{{ env.BLANK }}]", vars, nil); err != nil || got != "[ \t\r\n ]" {
		t.Errorf("env.BLANK: %q %v", got, err)
	}
	if got, secrets, err := ResolveString("{{ secret.OK }}{{ secret.EMPTY }}", vars, nil); err != nil || got != " pass word\n" || len(secrets) != 1 {
		t.Errorf("secret.OK: %q %q %v", got, secrets, err)
	}
}
