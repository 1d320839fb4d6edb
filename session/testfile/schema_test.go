package testfile

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// The JSON schemas that editors use live in docs/schema. These tests check
// that they list exactly what the parsers accept, and that the sample files
// validate against them.

const (
	testSchemaFile   = "../../docs/schema/e2e-test.schema.json"
	configSchemaFile = "../../docs/schema/e2e-config.schema.json"
)

type schema = map[string]any

func loadSchema(t *testing.T, path string) schema {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s is not valid JSON: %v", path, err)
	}
	checkKeywords(t, s, s, "#")
	return s
}

// keywords are the schema keywords the validator below understands; the
// rest may only annotate.
var keywords = map[string]bool{
	"$ref": true, "type": true, "properties": true, "required": true, "additionalProperties": true,
	"items": true, "minItems": true, "minLength": true, "minProperties": true, "maxProperties": true,
	"oneOf": true, "pattern": true, "minimum": true, "const": true,
	"$schema": false, "title": false, "description": false, "definitions": false, "format": false,
}

// checkKeywords fails on keywords the validator would silently ignore and
// on references that lead nowhere.
func checkKeywords(t *testing.T, root, s schema, at string) {
	t.Helper()
	for k, v := range s {
		if _, known := keywords[k]; !known {
			t.Errorf("%s: keyword %q is not understood by the schema test", at, k)
		}
		switch k {
		case "properties", "definitions":
			for name, sub := range v.(map[string]any) {
				checkKeywords(t, root, sub.(map[string]any), at+"/"+k+"/"+name)
			}
		case "items":
			checkKeywords(t, root, v.(map[string]any), at+"/items")
		case "additionalProperties":
			if sub, ok := v.(map[string]any); ok {
				checkKeywords(t, root, sub, at+"/additionalProperties")
			}
		case "oneOf":
			for i, sub := range v.([]any) {
				checkKeywords(t, root, sub.(map[string]any), fmt.Sprintf("%s/oneOf/%d", at, i))
			}
		case "$ref":
			if resolveRef(root, v.(string)) == nil {
				t.Errorf("%s: dangling $ref %s", at, v)
			}
		case "pattern":
			if _, err := regexp.Compile(v.(string)); err != nil {
				t.Errorf("%s: %v", at, err)
			}
		}
	}
}

func resolveRef(root schema, ref string) schema {
	name, ok := strings.CutPrefix(ref, "#/definitions/")
	if !ok {
		return nil
	}
	defs, _ := root["definitions"].(map[string]any)
	s, _ := defs[name].(map[string]any)
	return s
}

// validate returns the ways v breaks schema s, for the subset of JSON
// Schema listed in keywords.
func validate(root, s schema, v any, at string) []string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, at+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		errs = append(errs, validate(root, resolveRef(root, ref), v, at)...)
	}
	if ty, ok := s["type"]; ok && !hasType(ty, v) {
		fail("want type %v, got %T", ty, v)
		return errs
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range list(s["required"]) {
			if _, ok := x[r]; !ok {
				fail("missing %s", r)
			}
		}
		for k, sub := range x {
			if ps, ok := props[k]; ok {
				errs = append(errs, validate(root, ps.(map[string]any), sub, at+"/"+k)...)
			} else if s["additionalProperties"] == false {
				fail("unknown key %s", k)
			} else if extra, ok := s["additionalProperties"].(map[string]any); ok {
				errs = append(errs, validate(root, extra, sub, at+"/"+k)...)
			}
		}
		if n, ok := s["minProperties"].(float64); ok && float64(len(x)) < n {
			fail("fewer than %v keys", n)
		}
		if n, ok := s["maxProperties"].(float64); ok && float64(len(x)) > n {
			fail("more than %v keys", n)
		}
	case []any:
		if n, ok := s["minItems"].(float64); ok && float64(len(x)) < n {
			fail("fewer than %v items", n)
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, item := range x {
				errs = append(errs, validate(root, items, item, fmt.Sprintf("%s/%d", at, i))...)
			}
		}
	case string:
		if n, ok := s["minLength"].(float64); ok && float64(len([]rune(x))) < n {
			fail("shorter than %v", n)
		}
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(x) {
			fail("%q does not match %s", x, p)
		}
	case float64:
		if n, ok := s["minimum"].(float64); ok && x < n {
			fail("%v is below %v", x, n)
		}
	}
	if c, ok := s["const"]; ok && c != v {
		fail("want %v, got %v", c, v)
	}
	if alts, ok := s["oneOf"].([]any); ok {
		matched := 0
		for _, a := range alts {
			if len(validate(root, a.(map[string]any), v, at)) == 0 {
				matched++
			}
		}
		if matched != 1 {
			fail("matches %d of the oneOf schemas, want 1", matched)
		}
	}
	return errs
}

func hasType(ty, v any) bool {
	for _, name := range list(ty) {
		switch x := v.(type) {
		case string:
			if name == "string" {
				return true
			}
		case bool:
			if name == "boolean" {
				return true
			}
		case float64:
			if name == "number" || name == "integer" && x == math.Trunc(x) {
				return true
			}
		case map[string]any:
			if name == "object" {
				return true
			}
		case []any:
			if name == "array" {
				return true
			}
		case nil:
			if name == "null" {
				return true
			}
		}
	}
	return false
}

// list returns a string or a list of strings as a list.
func list(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = e.(string)
		}
		return out
	}
	return nil
}

// yamlValue reads a YAML file as the JSON value an editor would validate.
func yamlValue(t *testing.T, src []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func propNames(s schema) []string {
	props, _ := s["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	sort.Strings(out)
	return out
}

// forms returns the schemas a value may follow: the alternatives of a
// oneOf, or the schema itself, with references resolved.
func forms(root, s schema) (object schema, scalar schema) {
	alts := []schema{s}
	if one, ok := s["oneOf"].([]any); ok && s["type"] == nil {
		alts = nil
		for _, a := range one {
			alts = append(alts, a.(map[string]any))
		}
	}
	for _, a := range alts {
		if ref, ok := a["$ref"].(string); ok {
			a = resolveRef(root, ref)
		}
		if a["type"] == "object" {
			object = a
		} else {
			scalar = a
		}
	}
	return object, scalar
}

// checkKind compares the schema of one kind with its entry in the parser's table.
func checkKind(t *testing.T, root, s schema, name string, spec kindSpec) {
	t.Helper()
	object, scalar := forms(root, s)
	if (spec.scalar != 0) != (scalar != nil) {
		t.Errorf("%s: the parser takes a plain value: %v; the schema: %v", name, spec.scalar != 0, scalar != nil)
	}
	if spec.sub != nil {
		if got, want := propNames(object), kindNames(spec.sub); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: schema lists %v, parser accepts %v", name, got, want)
		}
		props, _ := object["properties"].(map[string]any)
		for k, sub := range spec.sub {
			if ks, ok := props[string(k)].(map[string]any); ok {
				checkKind(t, root, ks, name+" "+string(k), sub)
			}
		}
		return
	}
	if (spec.keys != nil) != (object != nil) {
		t.Fatalf("%s: the parser takes a mapping: %v; the schema: %v", name, spec.keys != nil, object != nil)
	}
	if object == nil {
		return
	}
	if got, want := propNames(object), sortedCopy(keyNames(spec.keys)); !reflect.DeepEqual(got, want) {
		t.Errorf("%s: schema keys %v, parser keys %v", name, got, want)
	}
	var required []string
	for _, k := range spec.keys {
		if k.required {
			required = append(required, k.name)
		}
	}
	if got := list(object["required"]); !reflect.DeepEqual(sortedCopy(got), sortedCopy(required)) {
		t.Errorf("%s: schema requires %v, parser requires %v", name, got, required)
	}
	var oneOf []string
	for _, a := range asList(object["oneOf"]) {
		oneOf = append(oneOf, list(a.(map[string]any)["required"])...)
	}
	if !reflect.DeepEqual(sortedCopy(oneOf), sortedCopy(spec.oneOf)) {
		t.Errorf("%s: schema wants one of %v, parser one of %v", name, oneOf, spec.oneOf)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func TestTestSchemaMatchesParser(t *testing.T) {
	root := loadSchema(t, testSchemaFile)
	if got, want := propNames(root), sortedCopy(testKeys); !reflect.DeepEqual(got, want) {
		t.Errorf("schema top-level keys %v, parser keys %v", got, want)
	}
	if got := sortedCopy(list(root["required"])); !reflect.DeepEqual(got, []string{"name", "steps"}) {
		t.Errorf("schema requires %v", got)
	}
	stepSchema := resolveRef(root, "#/definitions/step")
	if got, want := propNames(stepSchema), sortedCopy(stepKeys()); !reflect.DeepEqual(got, want) {
		t.Errorf("schema step keys %v, parser keys %v", got, want)
	}
	var oneOf []string
	for _, a := range asList(stepSchema["oneOf"]) {
		oneOf = append(oneOf, list(a.(map[string]any)["required"])...)
	}
	if got, want := sortedCopy(oneOf), kindNamesWithUse(); !reflect.DeepEqual(got, want) {
		t.Errorf("schema step oneOf %v, parser kinds %v", got, want)
	}
	props := stepSchema["properties"].(map[string]any)
	for k, spec := range kinds {
		if ks, ok := props[string(k)].(map[string]any); ok {
			checkKind(t, root, ks, string(k), spec)
		}
	}
}

func TestTestSchemaValidatesSamples(t *testing.T) {
	root := loadSchema(t, testSchemaFile)
	files, _ := filepath.Glob("testdata/*" + Suffix)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if errs := validate(root, root, yamlValue(t, src), "#"); len(errs) > 0 {
			t.Errorf("%s:\n%s", f, strings.Join(errs, "\n"))
		}
	}
	// Files the parser rejects for their shape are rejected by the schema too.
	bad := []string{
		"steps:\n  - click: x\n",
		"name: t\nsteps: []\n",
		"name: t\nurll: /\nsteps:\n  - click: x\n",
		oneStep("clik: x"),
		oneStep("click: a\ntype: { into: b, text: c }"),
		oneStep("timeout: 2s"),
		oneStep("type: { into: x }"),
		oneStep("type: hello"),
		oneStep("wait: 2"),
		oneStep("press: { in: x }"),
		oneStep("expect: { visible: x, hidden: y }"),
		oneStep("expect: { text: { in: b } }"),
		oneStep("expect: { text: { in: b, is: x, contains: y } }"),
		oneStep("expect: { url: { matches: x } }"),
		oneStep("expect: the heading"),
		oneStep("click: [a]"),
		"name: t\nsession: [a]\nsteps:\n  - click: x\n",
	}
	for _, src := range bad {
		if _, err := Parse("t.e2e.yaml", []byte(src)); err == nil {
			t.Errorf("the parser accepts\n%s", src)
		}
		if errs := validate(root, root, yamlValue(t, []byte(src)), "#"); len(errs) == 0 {
			t.Errorf("the schema accepts\n%s", src)
		}
	}
}

// checkFields compares a config schema object with the parser's table.
func checkConfigFields(t *testing.T, s schema, fs []field, at string) {
	t.Helper()
	var names []string
	props, _ := s["properties"].(map[string]any)
	for _, f := range fs {
		if f.reject != "" {
			continue
		}
		names = append(names, f.name)
		sub, ok := props[f.name].(map[string]any)
		if !ok {
			continue
		}
		if f.sub != nil {
			checkConfigFields(t, sub, f.sub, at+"."+f.name)
		}
	}
	if got := propNames(s); !reflect.DeepEqual(got, sortedCopy(names)) {
		t.Errorf("%s: schema keys %v, parser keys %v", at, got, sortedCopy(names))
	}
	if s["additionalProperties"] != false {
		t.Errorf("%s: the schema allows unknown keys, the parser does not", at)
	}
}

func TestConfigSchema(t *testing.T) {
	root := loadSchema(t, configSchemaFile)
	checkConfigFields(t, root, configFields, "e2e.yaml")
	src, err := os.ReadFile("testdata/config/e2e.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if errs := validate(root, root, yamlValue(t, src), "#"); len(errs) > 0 {
		t.Errorf("sample config:\n%s", strings.Join(errs, "\n"))
	}
	for _, bad := range []string{
		"baseUrl: http://x\n",
		"model: { apiKey: sk-1 }\n",
		"timeouts: { step: 10 }\n",
		"browser: { headless: yes }\n",
		"browser: { viewport: { width: 0 } }\n",
		"allowedOrigins: [https://x.com/path]\n",
		"sessions: { signed in: { flow: sign in } }\n",
		"sessions: { signed in: { flow: sign in, check: { url: /a }, chek: 1 } }\n",
		"sessions: { signed in: { flow: sign in, check: { path: /a } } }\n",
		"sessions: [a]\n",
	} {
		if _, err := ParseConfig("e2e.yaml", []byte(bad)); err == nil {
			t.Errorf("the parser accepts %q", bad)
		}
		if errs := validate(root, root, yamlValue(t, []byte(bad)), "#"); len(errs) == 0 {
			t.Errorf("the schema accepts %q", bad)
		}
	}
}
