package redact_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"html/template"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/e2e-dev/e2e/session/redact"
)

// nasty are secrets that quoting, escaping and URL encoding all change.
var nasty = []string{
	`hunter2"q`,
	`back\slash`,
	"tab\there",
	"new\nline",
	"cr\rlf",
	"a&b=c",
	"100%sure",
	"<script>x",
	"with spaces here",
	"pässwörd✓",
	"🔑key",
	"it's",
	"plus+sign",
	"Alice", // also ordinary page text
	`mix "of" <all> & 'sorts' \ 50% ü`,
}

var lowerHexRE = regexp.MustCompile(`%[0-9A-F]{2}`)

// encodeURIComponent is JavaScript's, from its specification: everything
// but A–Z a–z 0–9 - _ . ! ~ * ' ( ) as %XX of the UTF-8 bytes.
func encodeURIComponent(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func tmpl(t *testing.T, src string, v any) string {
	t.Helper()
	var b strings.Builder
	if err := template.Must(template.New("").Parse(src)).Execute(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func jsonNoHTML(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSpace(b.String())
}

func xmlAttr(t *testing.T, s string) string {
	t.Helper()
	b, err := xml.Marshal(struct {
		XMLName xml.Name `xml:"failure"`
		Message string   `xml:"message,attr"`
		Text    string   `xml:",chardata"`
	}{Message: s, Text: s})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// encodings are the ways a secret leaves the process, each written with the
// library that writes it (not with the redactor's own tables).
func encodings(t *testing.T) map[string]func(string) string {
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return map[string]func(string) string{
		"raw":                 func(s string) string { return s },
		"%q":                  func(s string) string { return fmt.Sprintf("got %q", s) },
		"%+q":                 func(s string) string { return fmt.Sprintf("got %+q", s) },
		"%#q":                 func(s string) string { return fmt.Sprintf("got %#q", s) },
		"json":                js,
		"json no HTML escape": jsonNoHTML,
		"query":               func(s string) string { return "/p?pw=" + url.QueryEscape(s) + "&x=1" },
		"query lower hex":     func(s string) string { return lowerHexRE.ReplaceAllStringFunc(url.QueryEscape(s), strings.ToLower) },
		"url.Values":          func(s string) string { return (url.Values{"pw": {s}, "u": {"me"}}).Encode() },
		"path":                func(s string) string { return "/u/" + url.PathEscape(s) + "/x" },
		"url.URL": func(s string) string {
			return (&url.URL{Scheme: "http", Host: "h", Path: "/" + s, RawQuery: "pw=" + url.QueryEscape(s)}).String()
		},
		"encodeURIComponent":    func(s string) string { return "?pw=" + encodeURIComponent(s) },
		"html.EscapeString":     html.EscapeString,
		"html/template text":    func(s string) string { return tmpl(t, `<p>{{.}}</p>`, s) },
		"html/template attr":    func(s string) string { return tmpl(t, `<img alt="{{.}}">`, s) },
		"html/template js":      func(s string) string { return tmpl(t, `<script>const v = {{.}};</script>`, s) },
		"html/template href":    func(s string) string { return tmpl(t, `<a href="/x?pw={{.}}">`, s) },
		"xml":                   func(s string) string { return xmlAttr(t, s) },
		"json of %q":            func(s string) string { return js(fmt.Sprintf("got %q", s)) },
		"xml of %q":             func(s string) string { return xmlAttr(t, fmt.Sprintf("got %q", s)) },
		"html/template of %q":   func(s string) string { return tmpl(t, `<p>{{.}}</p>`, fmt.Sprintf("got %q", s)) },
		"json of query":         func(s string) string { return js("http://h/?pw=" + url.QueryEscape(s)) },
		"%q of encodeURI…":      func(s string) string { return fmt.Sprintf("%q", "http://h/?pw="+encodeURIComponent(s)) },
		"json of json":          func(s string) string { return js(js(s)) },
		"html/template of json": func(s string) string { return tmpl(t, `<pre>{{.}}</pre>`, js(s)) },
	}
}

// leaks says which form of secret is still in out, or "".
func leaks(secret, out string) string {
	for _, f := range redact.Forms(secret) {
		if strings.Contains(out, f) {
			return f
		}
	}
	return ""
}

func TestEveryEncodingOfEveryNastySecretIsRedacted(t *testing.T) {
	r := redact.New(nasty...)
	for name, enc := range encodings(t) {
		for _, secret := range nasty {
			in := "before " + enc(secret) + " after"
			out := r.String(in)
			if f := leaks(secret, out); f != "" {
				t.Errorf("%s of %q: form %q is left in %q", name, secret, f, out)
			}
			if !strings.Contains(out, redact.Marker) {
				t.Errorf("%s of %q: nothing redacted in %q", name, secret, out)
			}
			if !strings.HasPrefix(out, "before ") || !strings.HasSuffix(out, " after") {
				t.Errorf("%s of %q: redacted too much: %q", name, secret, out)
			}
			if b := r.Bytes([]byte(in)); string(b) != out {
				t.Errorf("%s of %q: Bytes %q, String %q", name, secret, b, out)
			}
		}
	}
}

// TestOnlyTheSecretIsRedacted: what surrounds a secret stays, and text with
// no secret comes back as it was.
func TestOnlyTheSecretIsRedacted(t *testing.T) {
	r := redact.New(`hunter2"q`, "Alice")
	cases := map[string]string{
		`step 2: got "hunter2\"q", want "x"`:   `step 2: got "***", want "x"`,
		"Alice Smith (alice@example.com)":      "*** Smith (alice@example.com)",
		"/login?pw=hunter2%22q&user=alice":     "/login?pw=***&user=alice",
		"nothing secret here: hunter2 q Alic":  "nothing secret here: hunter2 q Alic",
		"AliceAlice":                           "******",
		`{"error":"got \"hunter2\\\"q\""}`:     `{"error":"got \"***\""}`,
		"<td>hunter2&#34;q</td><td>Alice</td>": "<td>***</td><td>***</td>",
	}
	for in, want := range cases {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
	plain := "no secrets"
	if got := r.String(plain); got != plain {
		t.Errorf("String(%q) = %q", plain, got)
	}
}

// TestOverlappingSecretsAreRedactedWhole: where two secrets overlap, neither
// shows in part.
func TestOverlappingSecretsAreRedactedWhole(t *testing.T) {
	r := redact.New("hunter2", "2pass")
	if got := r.String("x hunter2pass y"); got != "x *** y" {
		t.Errorf("got %q", got)
	}
}

// TestRedactingKeepsEscapesWhole: a short secret that is part of an escape
// sequence takes the whole sequence, so JSON and XML stay well-formed.
func TestRedactingKeepsEscapesWhole(t *testing.T) {
	r := redact.New("n", "amp", "2")
	cases := map[string]string{
		`"a\nb"`:     `"a***b"`,
		`x &amp; y`:  `x *** y`,
		`%22`:        `***`,
		`"\u0022"`:   `"***"`,
		`a\\nb`:      `a\\***b`,
		`&#x2F;`:     `***`,
		`"tab\tend"`: `"tab\te***d"`,
	}
	for in, want := range cases {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJSONStaysValidAndKeepsKeys(t *testing.T) {
	r := redact.New(nasty...)
	for _, secret := range nasty {
		args, _ := json.Marshal(map[string]any{"steps": []string{fmt.Sprintf("--step-type TYPE --value %q", secret)}})
		doc, err := json.Marshal(map[string]any{
			"messages": []map[string]string{{"role": "user", "content": "page: " + secret + " url: /x?pw=" + url.QueryEscape(secret)}},
			"tool":     map[string]string{"arguments": string(args)},
			"error":    fmt.Sprintf("got %q", secret),
			secret:     1, // a key stays: keys are structure
		})
		if err != nil {
			t.Fatal(err)
		}
		out := r.JSON(doc)
		if !json.Valid(out) {
			t.Fatalf("%q: invalid JSON %s", secret, out)
		}
		var v struct {
			Messages []map[string]string
			Tool     struct{ Arguments string }
			Error    string
		}
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		decoded := v.Messages[0]["content"] + "\n" + v.Tool.Arguments + "\n" + v.Error
		if f := leaks(secret, decoded); f != "" {
			t.Errorf("%q: form %q is left in %s", secret, f, decoded)
		}
		if !json.Valid([]byte(v.Tool.Arguments)) {
			t.Errorf("%q: the arguments are no longer JSON: %s", secret, v.Tool.Arguments)
		}
		if v.Messages[0]["role"] != "user" {
			t.Errorf("%q: %s", secret, out)
		}
	}
	// Numbers and literals are structure too; text that is not JSON is text.
	if got := string(redact.New("12").JSON([]byte(`{"n":12,"s":"12"}`))); got != `{"n":12,"s":"***"}` {
		t.Errorf("got %s", got)
	}
	if got := string(redact.New("x").JSON([]byte(`{not json x`))); got != `{not json ***` {
		t.Errorf("got %s", got)
	}
}

func TestXMLStaysWellFormed(t *testing.T) {
	r := redact.New(append(nasty, "amp", "t", "&")...)
	for _, secret := range nasty {
		doc := xmlAttr(t, fmt.Sprintf("got %q at /x?pw=%s & more", secret, url.QueryEscape(secret)))
		out := r.String(doc)
		var v struct {
			Message string `xml:"message,attr"`
			Text    string `xml:",chardata"`
		}
		if err := xml.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("%q: %v in %s", secret, err, out)
		}
	}
}

// TestWhatATextFieldKeeps: a secret with a line break or surrounding space
// (from an env file) is also hidden as an input field keeps it.
func TestWhatATextFieldKeeps(t *testing.T) {
	r := redact.New("hunter2\n", "pass\nword")
	for in, want := range map[string]string{
		`got "hunter2"`:       `got "***"`,
		"value=password.":     "value=***.",
		`got "pass\nword"`:    `got "***"`,
		"/x?pw=pass%0Aword&y": "/x?pw=***&y",
	} {
		if got := r.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNilAndEmptyRedactNothing(t *testing.T) {
	var r *redact.Redactor
	r.Add("x")
	if r.String("x") != "x" || string(r.Bytes([]byte("x"))) != "x" || string(r.JSON([]byte(`"x"`))) != `"x"` {
		t.Error("a nil Redactor redacted")
	}
	var b bytes.Buffer
	w := r.Writer(&b)
	fmt.Fprint(w, "x")
	if err := w.Flush(); err != nil || b.String() != "x" {
		t.Errorf("nil writer: %q %v", b.String(), err)
	}
	e := redact.New("", "")
	if e.Len() != 0 || e.String("anything") != "anything" {
		t.Error("empty values redact")
	}
	// A one-character secret still redacts: security before legibility.
	if got := redact.New("a").String("banana"); got != "b***n***n***" {
		t.Errorf("got %q", got)
	}
}

// TestWriterRedactsAcrossWrites: a secret split over writes is still hidden,
// and what is held back comes out on Flush.
func TestWriterRedactsAcrossWrites(t *testing.T) {
	r := redact.New(`hunter2"q`)
	var b bytes.Buffer
	w := r.Writer(&b)
	for _, part := range []string{"line 1: got \"hun", "ter2\\", "\"q\" and hunter", "2\"q\nthe end h"} {
		if _, err := w.Write([]byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if strings.HasSuffix(b.String(), "h") {
		t.Errorf("the possible start of a secret was written: %q", b.String())
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := "line 1: got \"***\" and ***\nthe end h"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestAddWhileRedacting: values added from one goroutine are used by others
// (run with -race).
func TestAddWhileRedacting(t *testing.T) {
	r := redact.New()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 50 {
				v := fmt.Sprintf("secret-%d-%d", i, j)
				r.Add(v)
				if got := r.String("x " + v + " y"); got != "x *** y" {
					t.Errorf("got %q", got)
					return
				}
			}
		})
	}
	wg.Wait()
	if r.Len() != 200 {
		t.Errorf("%d values", r.Len())
	}
}

func TestValueRedactsStoredText(t *testing.T) {
	r := redact.New(`hunter2"q`)
	if got := r.Value(`{"a":"hunter2\"q"}`); got != `{"a":"***"}` {
		t.Errorf("JSON string: %v", got)
	}
	if got := r.Value([]byte(`got "hunter2\"q"`)); string(got.([]byte)) != `got "***"` {
		t.Errorf("bytes: %s", got)
	}
	if got := r.Value(int64(7)); got != int64(7) {
		t.Errorf("int: %v", got)
	}
}
