package testfile

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session/step"
)

// Line is s as one step of a test file on one line, the form the docs
// teach: "click: the Buy now button", "type: { into: the From field, text:
// Paris }", "expect: { text: { in: the banner, contains: Saved } }". A
// step with its own timeout is a flow mapping: "{ click: the Save button,
// timeout: 5s }". ParseLine reads it back to s, its cache id aside (a
// cache id is not part of a test file). Variables are printed as written
// ({{ secret.NAME }}): Line never sees a secret's value unless s holds it.
// A step whose type no kind of test file has is printed in the command
// form (step.Step.String).
func Line(s step.Step) string {
	k, spec, ok := kindFor(s)
	if !ok {
		s.CacheID = ""
		return s.String()
	}
	body := string(k) + ": " + value(s, spec)
	if spec.sub != nil {
		sk, sub, _ := subKindFor(s, spec)
		body = string(k) + ": { " + string(sk) + ": " + value(s, sub) + " }"
	}
	if s.Timeout > 0 && !(s.Type == step.Wait && s.Description == "") {
		return "{ " + body + ", timeout: " + s.Timeout.String() + " }"
	}
	return body
}

// ParseLine reads one step written as in a test file, on one line (the
// form Line prints). Its error is the first problem, with a "did you mean"
// or an example as the parser gives it.
func ParseLine(line string) (step.Step, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return step.Step{}, errors.New("empty step; write one such as click: the Sign in button")
	}
	if strings.ContainsAny(line, "\n\r") {
		return step.Step{}, errors.New("a step is one line")
	}
	t, err := Parse("step", []byte("name: step\nsteps:\n  - "+line+"\n"))
	if err != nil {
		if list, ok := errors.AsType[List](err); ok && len(list) > 0 {
			return step.Step{}, errors.New(list[0].Msg)
		}
		return step.Step{}, err
	}
	if len(t.Steps) != 1 {
		return step.Step{}, fmt.Errorf("expected one step, found %d", len(t.Steps))
	}
	return t.Steps[0].Step, nil
}

// kindFor is the kind of test-file step that s is.
func kindFor(s step.Step) (Kind, kindSpec, bool) {
	for _, k := range Kinds() {
		if spec := kinds[k]; slices.Contains(spec.types(), s.Type) {
			if spec.sub != nil {
				if _, _, ok := subKindFor(s, spec); !ok {
					return "", kindSpec{}, false
				}
			}
			return k, spec, true
		}
	}
	return "", kindSpec{}, false
}

func subKindFor(s step.Step, spec kindSpec) (Kind, kindSpec, bool) {
	for _, k := range sortedKinds(spec.sub) {
		if sub := spec.sub[k]; sub.expect == s.Expect {
			return k, sub, true
		}
	}
	return "", kindSpec{}, false
}

// value is the YAML value of a step of kind spec: the scalar form when the
// step's fields fit it, else the mapping form.
func value(s step.Step, spec kindSpec) string {
	if spec.scalar != 0 {
		switch spec.scalar {
		case toDescription:
			if s.Value == "" && s.Match == step.MatchExact {
				return plain(s.Description)
			}
		case toValue:
			if s.Description == "" && s.Match == step.MatchExact {
				return plain(s.Value)
			}
		case toDuration:
			if s.Description == "" {
				return s.Timeout.String()
			}
		case toPick:
			if s.Description == "" && s.Value == "" {
				return spec.pickFor(s.Type)
			}
		}
	}
	var parts []string
	for _, k := range spec.keys {
		if t, ok := spec.picks[k.name]; ok && t != s.Type {
			continue // a key that picks another type
		}
		var v string
		switch k.to {
		case toYes:
			v = "true"
		case toDescription:
			if s.Description == "" {
				continue
			}
			v = plain(s.Description)
		case toValue:
			if s.Match == step.MatchContains && k.name == "is" {
				continue
			}
			if s.Value == "" && !k.required {
				continue
			}
			v = plain(s.Value)
		case toContains:
			if s.Match != step.MatchContains {
				continue
			}
			v = plain(s.Value)
		case toFiles:
			var fs []string
			for _, f := range strings.Split(s.Value, "\n") {
				fs = append(fs, plain(f))
			}
			v = "[" + strings.Join(fs, ", ") + "]"
		}
		parts = append(parts, k.name+": "+v)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

// plain is text as a YAML scalar inside a flow mapping: as it is when YAML
// reads it back the same, else double-quoted.
func plain(text string) string {
	if text == "" || text != strings.TrimSpace(text) || strings.ContainsAny(text, ",[]{}#\n\r\t\\") ||
		strings.Contains(text, ": ") || strings.HasSuffix(text, ":") || strings.ContainsAny(text[:1], "-?:&*!|>%@`'\"") {
		return strconv.Quote(text)
	}
	switch strings.ToLower(text) {
	case "true", "false", "yes", "no", "on", "off", "null", "~", "y", "n":
		return strconv.Quote(text)
	}
	if _, err := strconv.ParseFloat(text, 64); err == nil {
		return strconv.Quote(text)
	}
	return text
}
