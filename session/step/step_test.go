package step

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"strings"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want Step
	}{
		{`--step-type CLICK --description "the destination field labeled Where to" --cache-id db9a12`,
			Step{Type: Click, Description: "the destination field labeled Where to", CacheID: "db9a12"}},
		{`--step-type TYPE --description "the destination input" --value "Dulles"`,
			Step{Type: TypeText, Description: "the destination input", Value: "Dulles"}},
		{`--step-type NAVIGATE --value /users`, Step{Type: Navigate, Value: "/users"}},
		{`--step-type navigate --value=https://example.com/a?b=c`, Step{Type: Navigate, Value: "https://example.com/a?b=c"}},
		{`--step-type=click --description="the Menu button in the Alice row"`,
			Step{Type: Click, Description: "the Menu button in the Alice row"}},
		{`--description 'the "Save" button' --step-type CLICK`, Step{Type: Click, Description: `the "Save" button`}},
		{`--step-type SELECT --description "the country" --value France`,
			Step{Type: Select, Description: "the country", Value: "France"}},
		{`--step-type PRESS --value Enter`, Step{Type: Press, Value: "Enter"}},
		{`--step-type PRESS --value Control+A --description "the notes field"`,
			Step{Type: Press, Value: "Control+A", Description: "the notes field"}},
		{`--step-type PRESS --value -`, Step{Type: Press, Value: "-"}},
		{`--step-type HOVER --description avatar`, Step{Type: Hover, Description: "avatar"}},
		{`--step-type CLEAR --description "the Email field"`, Step{Type: Clear, Description: "the Email field"}},
		{`--step-type ACCEPT`, Step{Type: Accept}},
		{`--step-type ACCEPT --value Ann`, Step{Type: Accept, Value: "Ann"}},
		{`--step-type DISMISS`, Step{Type: Dismiss}},
		{`--step-type EXPECT --expect dialog --match contains --value draft`, Step{Type: Expect, Expect: ExpectDialog, Match: MatchContains, Value: "draft"}},
		{`--step-type CHECK --description "Remember me"`, Step{Type: Check, Description: "Remember me"}},
		{`--step-type UNCHECK --description "Remember me"`, Step{Type: Uncheck, Description: "Remember me"}},
		{`--step-type SCROLL --description "the footer"`, Step{Type: Scroll, Description: "the footer"}},
		{`--step-type WAIT --timeout 2s`, Step{Type: Wait, Timeout: 2 * time.Second}},
		{`--step-type WAIT --description "the results table" --timeout 1m30s`,
			Step{Type: Wait, Description: "the results table", Timeout: 90 * time.Second}},
		{`--step-type EXPECT --expect visible --description "the Users heading"`,
			Step{Type: Expect, Expect: ExpectVisible, Description: "the Users heading"}},
		{`--step-type EXPECT --expect HIDDEN --description "the Alice row"`,
			Step{Type: Expect, Expect: ExpectHidden, Description: "the Alice row"}},
		{`--step-type EXPECT --expect text --match contains --description "the banner" --value "Saved"`,
			Step{Type: Expect, Expect: ExpectText, Match: MatchContains, Description: "the banner", Value: "Saved"}},
		{`--step-type EXPECT --expect value --match is --description "the email field" --value a@b.c`,
			Step{Type: Expect, Expect: ExpectValue, Description: "the email field", Value: "a@b.c"}},
		{`--step-type EXPECT --expect url --value "/users/*"`, Step{Type: Expect, Expect: ExpectURL, Value: "/users/*"}},
		{`--step-type EXPECT --expect title --value "Users · Admin"`, Step{Type: Expect, Expect: ExpectTitle, Value: "Users · Admin"}},
		{`--step-type ASSERT --description "the table lists three users"`,
			Step{Type: Assert, Description: "the table lists three users"}},
		{`--step-type ACT --description "search flights from SFO to Dulles, one way" --timeout 2m`,
			Step{Type: Act, Description: "search flights from SFO to Dulles, one way", Timeout: 2 * time.Minute}},
		{"\t--step-type  TYPE\n--description \"notes\" --value \"line one\\nline \\\"two\\\"\\t\\\\end\"  ",
			Step{Type: TypeText, Description: "notes", Value: "line one\nline \"two\"\t\\end"}},
		{`--step-type TYPE --description "the password field" --value "{{ secret.PASSWORD }}"`,
			Step{Type: TypeText, Description: "the password field", Value: "{{ secret.PASSWORD }}"}},
		{`--step-type TYPE --description C:\dir --value C:\dir\file`,
			Step{Type: TypeText, Description: `C:\dir`, Value: `C:\dir\file`}},
		{`--step-type CLICK --description "Save" --cache-id d7546922-5cb1-484c-b50c-7acde472231f`,
			Step{Type: Click, Description: "Save", CacheID: "d7546922-5cb1-484c-b50c-7acde472231f"}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("Parse(%q) = %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestString(t *testing.T) {
	tests := []struct {
		in   Step
		want string
	}{
		{Step{Type: Click, Description: "the destination field labeled Where to", CacheID: "db9a12"},
			`--step-type CLICK --description "the destination field labeled Where to" --cache-id db9a12`},
		{Step{Type: TypeText, Description: "the destination input", Value: "Dulles"},
			`--step-type TYPE --description "the destination input" --value "Dulles"`},
		{Step{Type: Expect, Expect: ExpectText, Match: MatchContains, Description: "the banner", Value: `say "hi"`},
			`--step-type EXPECT --expect text --match contains --description "the banner" --value "say \"hi\""`},
		{Step{Type: Wait, Timeout: 1500 * time.Millisecond}, `--step-type WAIT --timeout 1.5s`},
		{Step{Type: TypeText, Description: "notes", Value: "a\nb\\c\td\r"},
			`--step-type TYPE --description "notes" --value "a\nb\\c\td\r"`},
	}
	for _, tt := range tests {
		if got := tt.in.String(); got != tt.want {
			t.Errorf("String() = %s, want %s", got, tt.want)
		}
	}
}

// TestRoundTrip checks that every valid step reads back from its string.
func TestRoundTrip(t *testing.T) {
	awkward := []string{
		"plain", "two words", `a "quoted" word`, `it's`, `back\slash`, "new\nline", "tab\there",
		"cr\rhere", "--looks-like-a-flag", "-", "=", "a=b", `\"`, `""`, "''", "ünïcødé ✓", "\x00\xff",
		"{{ env.E2E_USER }}", " leading and trailing ", "\v\f",
	}
	var steps []Step
	for _, v := range awkward {
		steps = append(steps,
			Step{Type: Click, Description: v + "x", CacheID: "id-1"},
			Step{Type: TypeText, Description: "field " + v, Value: v + "!"},
			Step{Type: Navigate, Value: "x" + v},
			Step{Type: Press, Value: v + "k", Description: v + "d"},
			Step{Type: Expect, Expect: ExpectText, Match: MatchContains, Description: "x" + v, Value: "y" + v},
			Step{Type: Act, Description: "goal " + v, Timeout: time.Hour + time.Nanosecond},
		)
	}
	for tp, spec := range Types {
		s := Step{Type: tp, Timeout: 3 * time.Second, CacheID: "c.1:x_y"}
		if spec.Description != Forbidden {
			s.Description = "the thing"
		}
		if spec.Value != Forbidden {
			s.Value = "v"
		}
		if spec.Expect {
			for k, es := range Expectations {
				e := s
				e.Expect = k
				if es.Description != Forbidden {
					e.Description = "the thing"
				}
				if es.Value != Forbidden {
					e.Value = "v"
				}
				steps = append(steps, e)
			}
			continue
		}
		steps = append(steps, s)
	}
	for _, s := range steps {
		if err := s.Validate(); err != nil {
			t.Errorf("%#v: Validate: %v", s, err)
			continue
		}
		got, err := Parse(s.String())
		if err != nil {
			t.Errorf("Parse(%s): %v", s, err)
			continue
		}
		if got != s {
			t.Errorf("Parse(%s) = %#v, want %#v", s, got, s)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`--stepp-type CLICK`, "unknown flag --stepp-type at column 1; did you mean --step-type?"},
		{`-step-type CLICK`, "unknown flag -step-type at column 1; did you mean --step-type?"},
		{`--step-type CLICK --desc "x"`, "unknown flag --desc at column 19; did you mean --description?"},
		{`--step-type CLICK --bogus x`, "unknown flag --bogus at column 19"},
		{`--step-type TYPE --description "the destination input --value x`, "unterminated quote at column 32"},
		{`--step-type TYPE --description 'x`, "unterminated quote at column 32"},
		{`--step-type TYPE --description "x\`, "unterminated quote at column 32"},
		{`--description "the Save button"`, "missing --step-type"},
		{``, "missing --step-type"},
		{`--step-type CLIK --description x`, "unknown step type CLIK at column 13; did you mean CLICK?"},
		{`--step-type NAVIGAET --value /`, "unknown step type NAVIGAET at column 13; did you mean NAVIGATE?"},
		{`--step-type FLY`, "unknown step type FLY at column 13"},
		{`--step-type CLICK`, "CLICK needs --description (the element to click)"},
		{`--step-type CLICK --description "   "`, "CLICK needs --description (the element to click)"},
		{`--step-type TYPE`, "TYPE needs --description (the field to type into) and --value (the text to type)"},
		{`--step-type TYPE --description x`, "TYPE needs --value (the text to type)"},
		{`--step-type NAVIGATE`, "NAVIGATE needs --value (the URL to open, absolute or relative to the base URL)"},
		{`--step-type NAVIGATE --value / --description x`, "NAVIGATE takes no --description at column 32"},
		{`--step-type CLICK --description x --value y`, "CLICK takes no --value at column 35"},
		{`--step-type CLEAR --description x --value y`, "CLEAR takes no --value at column 35"},
		{`--step-type DISMISS --value y`, "DISMISS takes no --value at column 21"},
		{`--step-type ACCEPT --description x`, "ACCEPT takes no --description at column 20"},
		{`--step-type EXPECT --expect dialog`, "EXPECT dialog needs --value (the expected message)"},
		{`--step-type CLICK --description x --expect visible`, "CLICK takes no --expect at column 35"},
		{`--step-type EXPECT --description x`, "EXPECT needs --expect (one of dialog, hidden, text, title, url, value, visible)"},
		{`--step-type EXPECT --expect visibel --description x`, "unknown --expect visibel at column 29; did you mean visible?"},
		{`--step-type EXPECT --expect shown --description x`, "unknown --expect shown at column 29; use one of dialog, hidden, text, title, url, value, visible"},
		{`--step-type EXPECT --expect text --description x`, "EXPECT text needs --value (the expected text)"},
		{`--step-type EXPECT --expect url`, "EXPECT url needs --value (the expected URL or path; * matches any characters)"},
		{`--step-type EXPECT --expect url --value / --description x`, "EXPECT url takes no --description at column 43"},
		{`--step-type EXPECT --expect visible --description x --match contains`, "EXPECT visible takes no --match at column 53"},
		{`--step-type EXPECT --expect text --description x --value y --match regex`, "unknown --match regex at column 68; use --match contains, or leave it out for an exact match"},
		{`--step-type WAIT`, "WAIT needs --description (the element to wait for) or --timeout (the time to wait)"},
		{`--step-type WAIT --timeout 2`, "invalid --timeout 2 at column 28; use a duration such as 500ms, 10s or 1m"},
		{`--step-type WAIT --timeout -1s`, "--timeout -1s is not positive at column 28"},
		{`--step-type WAIT --timeout`, "flag --timeout needs a value at column 18"},
		{`--step-type CLICK --description --value x`, "flag --description needs a value at column 19"},
		{`--step-type CLICK --description x --description y`, "repeated flag --description at column 35"},
		{`--step-type CLICK --description x extra`, `unexpected extra at column 35; a value follows its flag, in double quotes if it holds spaces`},
		{`--step-type CLICK --description the Save button`, `unexpected Save at column 37; a value follows its flag, in double quotes if it holds spaces`},
		{`--step-type CLICK --description "the "Save" button"`, `missing space after the closing quote at column 39; write \" for a quote inside a value`},
		{`--step-type CLICK --description Alice's`, `unexpected ' inside a value at column 38; put the whole value in double quotes and write \" for a quote`},
		{`--step-type CLICK --description "a\qb"`, `unknown escape \q at column 35; use \" \\ \n \r or \t`},
		{`--step-type CLICK --description x --cache-id "a b"`, `invalid --cache-id "a b" at column 46; a cache id is letters, digits and . _ : - and starts with a letter or digit`},
		{`--step-type CLICK --description "é ü" --valeu x`, "unknown flag --valeu at column 39; did you mean --value?"},
		{`--step-type"CLICK"`, `unexpected quote in a flag name at column 12; write --name "value"`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want %q", tt.in, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Parse(%q)\n got %q\nwant %q", tt.in, err.Error(), tt.want)
		}
	}
}

// TestTablesComplete checks that every Type and ExpectKind constant declared
// in step.go has an entry in its table, and that the entries are complete.
func TestTablesComplete(t *testing.T) {
	consts := declaredConsts(t, "step.go")
	if len(consts["Type"]) == 0 || len(consts["ExpectKind"]) == 0 {
		t.Fatalf("found no constants: %v", consts)
	}
	for _, v := range consts["Type"] {
		spec, ok := Types[Type(v)]
		if !ok {
			t.Errorf("Types has no entry for %s", v)
			continue
		}
		if spec.Summary == "" {
			t.Errorf("%s has no summary", v)
		}
		checkFields(t, v, spec.Fields)
		if spec.Expect && (spec.Description != Forbidden || spec.Value != Forbidden) {
			t.Errorf("%s takes its fields from Expectations but sets them too", v)
		}
	}
	if len(Types) != len(consts["Type"]) {
		t.Errorf("Types has %d entries for %d constants", len(Types), len(consts["Type"]))
	}
	for _, v := range consts["ExpectKind"] {
		spec, ok := Expectations[ExpectKind(v)]
		if !ok {
			t.Errorf("Expectations has no entry for %s", v)
			continue
		}
		if spec.Summary == "" {
			t.Errorf("%s has no summary", v)
		}
		checkFields(t, v, spec.Fields)
	}
	if len(Expectations) != len(consts["ExpectKind"]) {
		t.Errorf("Expectations has %d entries for %d constants", len(Expectations), len(consts["ExpectKind"]))
	}
	for _, m := range matches {
		if m != MatchExact && m != MatchContains {
			t.Errorf("matches maps to unknown Match %q", m)
		}
	}
}

func checkFields(t *testing.T, name string, f Fields) {
	t.Helper()
	if f.Description != Forbidden && f.DescriptionDoc == "" {
		t.Errorf("%s takes a description but does not say what it is", name)
	}
	if f.Value != Forbidden && f.ValueDoc == "" {
		t.Errorf("%s takes a value but does not say what it is", name)
	}
	if f.Element && f.Description == Forbidden {
		t.Errorf("%s targets an element but takes no description", name)
	}
}

// declaredConsts returns the string values of the typed constants declared
// in file, by type name.
func declaredConsts(t *testing.T, file string) map[string][]string {
	t.Helper()
	f, err := parser.ParseFile(gotoken.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != gotoken.CONST {
			continue
		}
		for _, s := range gd.Specs {
			vs := s.(*ast.ValueSpec)
			id, ok := vs.Type.(*ast.Ident)
			if !ok {
				continue
			}
			for _, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == gotoken.STRING {
					out[id.Name] = append(out[id.Name], strings.Trim(lit.Value, `"`))
				}
			}
		}
	}
	return out
}

func TestTargetsElement(t *testing.T) {
	tests := []struct {
		s    Step
		want bool
	}{
		{Step{Type: Click, Description: "x"}, true},
		{Step{Type: Press, Value: "Enter"}, false},
		{Step{Type: Press, Value: "Enter", Description: "the field"}, true},
		{Step{Type: Wait, Timeout: time.Second}, false},
		{Step{Type: Expect, Expect: ExpectVisible, Description: "x"}, true},
		{Step{Type: Expect, Expect: ExpectURL, Value: "/"}, false},
		{Step{Type: Act, Description: "log in"}, false},
		{Step{Type: Assert, Description: "logged in"}, false},
		{Step{Type: "BOGUS", Description: "x"}, false},
	}
	for _, tt := range tests {
		if got := tt.s.TargetsElement(); got != tt.want {
			t.Errorf("%s: TargetsElement() = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	candidates := []string{"--step-type", "--description", "--value", "--expect", "--match", "--timeout", "--cache-id"}
	tests := []struct{ word, want string }{
		{"--stepp-type", "--step-type"},
		{"--steptype", "--step-type"},
		{"--Step-Type", "--step-type"},
		{"--desc", "--description"},
		{"--vaule", "--value"},
		{"--cacheid", "--cache-id"},
		{"--frobnicate", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.word, candidates); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
	if got := Closest("titel", []string{"text", "title"}); got != "title" {
		t.Errorf("Closest(titel) = %q, want title", got)
	}
}

func TestFlagNamesMatchFlags(t *testing.T) {
	want := []string{flagType, flagDescription, flagValue, flagExpect, flagMatch, flagTimeout, flagCacheID}
	got := FlagNames()
	if len(got) != len(want) {
		t.Fatalf("FlagNames() = %v, want the %d flags %v", got, len(want), want)
	}
	for _, w := range want {
		if _, ok := lookupFlag(w); !ok {
			t.Errorf("flag %s has no entry in flags", w)
		}
	}
}

// FuzzRoundTrip checks that Parse never panics, and that every step it
// accepts prints to a command that parses back to the same step and prints
// the same again.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{
		`--step-type CLICK --description "the destination field labeled Where to" --cache-id db9a12`,
		`--step-type TYPE --description "x" --value "a\nb\"c\\"`,
		`--step-type EXPECT --expect text --match contains --description 'x' --value=y`,
		`--step-type WAIT --timeout 1m30s`,
		`--step-type=navigate --value=`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(in)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("Parse(%q) error %T, want *Error", in, err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("Parse(%q) returned an invalid step: %v", in, err)
		}
		out := s.String()
		s2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(%q) = %#v, but Parse(%q): %v", in, s, out, err)
		}
		if s2 != s {
			t.Fatalf("Parse(%q) = %#v, Parse(%q) = %#v", in, s, out, s2)
		}
		if out2 := s2.String(); out2 != out {
			t.Fatalf("String() not stable: %q then %q", out, out2)
		}
	})
}
