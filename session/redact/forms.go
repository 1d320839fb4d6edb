package redact

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"html"
	"html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Forms returns the distinct non-empty forms of v that a Redactor replaces
// (see the package documentation), v itself first. They include the forms
// of v as pages show its white space (collapsed, trimmed, a line break as a
// field keeps it: see spaceForms). It returns nil for "" and for a value
// made only of white space ([IsBlank]).
func Forms(v string) []string {
	bases := spaceForms(v)
	if bases == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	// A URL encoding first (or none), then a string escaper, then another:
	// a JSON report of a Go-quoted error of a URL.
	var inner []string
	innerSeen := map[string]bool{}
	var urls []string
	for _, b := range bases {
		urls = append(urls, urlForms(b)...)
	}
	for _, u := range urls {
		for _, e := range escapers {
			if f := e(u); f != "" && !innerSeen[f] {
				innerSeen[f] = true
				inner = append(inner, f)
			}
		}
	}
	for _, f := range inner {
		for _, e := range escapers {
			add(e(f))
		}
	}
	return out
}

// urlForms are v and its URL encodings, with upper- and lower-case hex.
func urlForms(v string) []string {
	fs := []string{
		v,
		url.QueryEscape(v),
		strings.ReplaceAll(url.QueryEscape(v), "+", "%20"),
		url.PathEscape(v),
		percent(v, keepURIComponent, false),
		percent(v, keepURI, false),
		percent(v, keepForm, true),
		percent(v, keepChromeQuery, false),
		percent(v, keepChromePath, false),
		templateURL(v),
	}
	n := len(fs)
	for _, f := range fs[:n] {
		fs = append(fs, lowerHex(f))
	}
	slices.Sort(fs)
	return slices.Compact(fs)
}

// percent escapes every byte of v that keep does not keep as %XX; space is
// + when plus is set.
func percent(v string, keep func(byte) bool, plus bool) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == ' ' && plus:
			b.WriteByte('+')
		case keep(c):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		}
	}
	return b.String()
}

func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// JavaScript's encodeURIComponent keeps A–Z a–z 0–9 - _ . ! ~ * ' ( ).
func keepURIComponent(c byte) bool { return alnum(c) || strings.IndexByte("-_.!~*'()", c) >= 0 }

// encodeURI also keeps ; , / ? : @ & = + $ #.
func keepURI(c byte) bool { return keepURIComponent(c) || strings.IndexByte(";,/?:@&=+$#", c) >= 0 }

// application/x-www-form-urlencoded (URLSearchParams) keeps A–Z a–z 0–9 * - . _.
func keepForm(c byte) bool { return alnum(c) || strings.IndexByte("*-._", c) >= 0 }

// What Chromium's URL parser escapes when a page sets a query or a path
// raw: controls, space, " # < > and ' (query) or ? ` { } (path), and every
// non-ASCII byte.
func keepChromeQuery(c byte) bool {
	return c > 0x20 && c < 0x7f && strings.IndexByte("\"#<>'", c) < 0
}

func keepChromePath(c byte) bool {
	return c > 0x20 && c < 0x7f && strings.IndexByte("\"#<>?`{}", c) < 0
}

// lowerHex is f with the hex digits of its %XX escapes in lower case.
func lowerHex(f string) string {
	if !strings.Contains(f, "%") {
		return f
	}
	b := []byte(f)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' && isHex(b[i+1]) && isHex(b[i+2]) {
			b[i+1], b[i+2] = lower(b[i+1]), lower(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// escapers turn a string into the form it takes inside some output.
var escapers = []func(string) string{
	func(s string) string { return s },
	func(s string) string { q := strconv.Quote(s); return q[1 : len(q)-1] },
	func(s string) string { q := strconv.QuoteToASCII(s); return q[1 : len(q)-1] },
	func(s string) string { return jsonInner(s, true) },
	func(s string) string { return jsonInner(s, false) },
	html.EscapeString,
	func(s string) string { return templateExec(tmplText, s) },
	func(s string) string { return templateExec(tmplAttr, s) },
	func(s string) string { return templateExec(tmplJS, s) },
	xmlText,
	namedEntities.Replace,
	jsSingleQuoted, // the export's TypeScript (jsforms.go)
	jsTemplate,
	jsRegexp,
}

var namedEntities = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;", "\u00a0", "&nbsp;")

func jsonInner(s string, escapeHTML bool) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(s); err != nil {
		return ""
	}
	b := bytes.TrimRight(buf.Bytes(), "\n")
	return string(b[1 : len(b)-1])
}

func xmlText(s string) string {
	var b strings.Builder
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		return ""
	}
	return b.String()
}

// html/template's own escaping, by context: text, a quoted attribute, a
// JavaScript string and a URL's query.
var (
	tmplText = mustTemplate(`{{.}}`)
	tmplAttr = mustTemplate(`<a title="{{.}}">`)
	tmplJS   = mustTemplate(`<script>var x = "{{.}}";</script>`)
	tmplURL  = mustTemplate(`<a href="/p?q={{.}}">`)
)

// mustTemplate parses a constant template; a template that does not parse
// yields nil, and its escaper then adds no form (the encoding table of the
// tests would catch that).
func mustTemplate(src string) *template.Template {
	t, err := template.New("").Parse(src)
	if err != nil {
		return nil
	}
	return t
}

// templateExec is what t writes for s, without the template's own text.
func templateExec(t *template.Template, s string) string {
	if t == nil {
		return ""
	}
	var b strings.Builder
	if err := t.Execute(&b, s); err != nil {
		return ""
	}
	out := b.String()
	switch t {
	case tmplAttr:
		out = strings.TrimSuffix(strings.TrimPrefix(out, `<a title="`), `">`)
	case tmplJS:
		out = strings.TrimSuffix(strings.TrimPrefix(out, `<script>var x = "`), `";</script>`)
	case tmplURL:
		out = strings.TrimSuffix(strings.TrimPrefix(out, `<a href="/p?q=`), `">`)
	}
	return out
}

// templateURL is v as html/template writes it into a URL's query.
func templateURL(v string) string { return templateExec(tmplURL, v) }
