// Package redact hides secret values in text on its way out of the process:
// the console, the store, reports, model requests and file names.
//
// A secret rarely leaves in the form it was typed. An error quotes it
// (%q turns hunter2"q into hunter2\"q), a page copies it into a URL
// (?pw=hunter2%22q), a report escapes it for JSON, XML or HTML. A
// [Redactor] knows, for every value it was given, each form the value takes
// under these encoders, and nested once (a JSON report of a Go-quoted
// error):
//
//   - raw;
//   - Go-quoted: the inner text of strconv.Quote and strconv.QuoteToASCII
//     (what %q and %+q print);
//   - JSON-escaped: encoding/json with and without HTML escaping
//     (\u003c, \u0026, \u003e), and html/template's JavaScript string escaping;
//   - URL-encoded: url.QueryEscape, url.PathEscape, JavaScript's
//     encodeURIComponent and encodeURI, form encoding (URLSearchParams:
//     space as +), what Chromium's URL parser escapes in a query and a path,
//     and html/template's URL escaping; each with upper- and lower-case hex;
//   - HTML- and XML-escaped: html.EscapeString, html/template in text and
//     attribute context (&#34;, &#39;, &#43;), encoding/xml.EscapeText
//     (&#x9;, &#xA;, &#xD;) and the named entities &quot; and &apos;;
//   - all of these for the value as pages show its white space: every run
//     of spaces, tabs and line breaks one space (innerText, and so the page
//     text a step's error quotes; the snapshot's names, which collapse
//     no-break spaces and control characters too), surrounding white space
//     trimmed, each line break a space (typed or pasted into an <input>) or
//     removed (an <input>'s value set), CR LF and CR as LF (a <textarea>),
//     spaces around line breaks removed (white-space: pre-line); and these
//     applied one after another.
//
// Every occurrence of any form is replaced by "***" ([Marker]). Occurrences
// that overlap are replaced as one, so no part of either shows. A match that
// begins or ends inside an escape sequence (\u00e4, %C3, &amp;) is widened to
// cover it, so redacting JSON, XML, HTML or a URL never leaves half an escape
// behind.
//
// Values are matched exactly, bytes for bytes: a value of one character
// redacts every occurrence of that character, and a value that is also
// ordinary page text (a user's name) is redacted wherever that text
// appears. That is deliberate: a secret is never shown to save some
// unrelated text. Empty values are ignored, and so are values made only of
// white space ([IsBlank]): every text's white space would be taken for
// them (a test's {{ secret.X }} holding one is refused before it is used).
//
// A Redactor is safe for concurrent use; values can be added while others
// redact (secrets are discovered as steps resolve). A nil *Redactor redacts
// nothing.
package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"sync"
	"sync/atomic"
)

// Marker is what a redacted value is replaced with.
const Marker = "***"

// Redactor replaces every form of a set of secret values. The zero value is
// not usable: call [New].
type Redactor struct {
	mu     sync.Mutex          // serialises Add
	values map[string]bool     // the values added
	forms  map[string]bool     // every form of every value
	m      atomic.Pointer[set] // what String and friends match against; nil: nothing
}

// New returns a Redactor that knows values (empty ones and those made only
// of white space are ignored).
func New(values ...string) *Redactor {
	r := &Redactor{values: map[string]bool{}, forms: map[string]bool{}}
	r.Add(values...)
	return r
}

// Add makes r redact values too, from now on. Empty values, values made
// only of white space ([IsBlank]) and values r already knows are ignored. Add is safe to call while other goroutines
// redact with r; they see either the old or the new set of values.
func (r *Redactor) Add(values ...string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	changed := false
	for _, v := range values {
		if IsBlank(v) || r.values[v] {
			continue
		}
		r.values[v] = true
		for _, f := range Forms(v) {
			if !r.forms[f] {
				r.forms[f] = true
				changed = true
			}
		}
	}
	if changed {
		all := make([]string, 0, len(r.forms))
		for f := range r.forms {
			all = append(all, f)
		}
		slices.Sort(all)
		r.m.Store(compile(all))
	}
}

// Len is how many distinct values r redacts.
func (r *Redactor) Len() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.values)
}

func (r *Redactor) set() *set {
	if r == nil {
		return nil
	}
	return r.m.Load()
}

// String returns s with every form of every value replaced by [Marker]. It
// returns s itself when nothing matches.
func (r *Redactor) String(s string) string {
	m := r.set()
	if m == nil || len(s) == 0 {
		return s
	}
	spans := find(m, s)
	if len(spans) == 0 {
		return s
	}
	return string(apply(nil, s, spans))
}

// Bytes is [Redactor.String] for a byte slice. It returns b itself when
// nothing matches, else a new slice; b is never modified.
func (r *Redactor) Bytes(b []byte) []byte {
	m := r.set()
	if m == nil || len(b) == 0 {
		return b
	}
	spans := find(m, b)
	if len(spans) == 0 {
		return b
	}
	return apply(nil, b, spans)
}

// JSON redacts the string values of a JSON document and keeps it valid JSON:
// each string (not object keys, which are structure) is decoded, redacted as
// [Redactor.String] does, and encoded again when it changed; a string whose
// value is itself a JSON document (a tool call's arguments) is redacted as
// JSON. Numbers, literals and layout are left as they are. Text that is not
// valid JSON is redacted with [Redactor.Bytes].
func (r *Redactor) JSON(b []byte) []byte {
	m := r.set()
	if m == nil || len(b) == 0 {
		return b
	}
	if !json.Valid(b) {
		return r.Bytes(b)
	}
	return jsonStrings(m, b, 0)
}

// Value redacts a string or byte slice as stored: a valid JSON object or
// array with [Redactor.JSON], other text with [Redactor.String] or
// [Redactor.Bytes]. Anything else is returned as it is.
func (r *Redactor) Value(v any) any {
	if r.set() == nil {
		return v
	}
	switch x := v.(type) {
	case string:
		if looksJSON(x) && json.Valid([]byte(x)) {
			return string(r.JSON([]byte(x)))
		}
		return r.String(x)
	case []byte:
		if looksJSON(x) {
			return r.JSON(x)
		}
		return r.Bytes(x)
	}
	return v
}

func looksJSON[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}

// jsonStrings rewrites the string values of the valid JSON document b.
func jsonStrings(m *set, b []byte, depth int) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j, escaped := i+1, false
		for j < len(b) && b[j] != '"' {
			if b[j] == '\\' {
				escaped = true
				j++
			}
			j++
		}
		if j >= len(b) {
			break // cannot happen in valid JSON
		}
		lit := b[i : j+1]
		k := j + 1
		for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r') {
			k++
		}
		if k >= len(b) || b[k] != ':' { // a value, not a key
			if repl, ok := jsonLiteral(m, lit, escaped, depth); ok {
				out = append(out, b[last:i]...)
				out = append(out, repl...)
				last = j + 1
			}
		}
		i = j
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// jsonLiteral redacts one JSON string literal (quotes included); ok is
// false when nothing in it is secret.
func jsonLiteral(m *set, lit []byte, escaped bool, depth int) ([]byte, bool) {
	inner := lit[1 : len(lit)-1]
	if !escaped && !looksJSON(inner) {
		// No escapes: the literal's bytes are its value.
		spans := find(m, inner)
		if len(spans) == 0 {
			return nil, false
		}
		out := append([]byte{'"'}, apply(nil, inner, spans)...)
		return append(out, '"'), true
	}
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return nil, false
	}
	var red string
	if depth < 4 && looksJSON(s) && json.Valid([]byte(s)) {
		red = string(jsonStrings(m, []byte(s), depth+1))
	} else if spans := find(m, s); len(spans) > 0 {
		red = string(apply(nil, s, spans))
	} else {
		return nil, false
	}
	if red == s {
		return nil, false
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(red); err != nil {
		return nil, false
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), true
}

// Writer returns a writer that redacts what it passes to w. A value split
// over two writes is still redacted: the writer holds back the end of a
// write for as long as it could be the start of a secret form, so call
// Flush when done. It is safe for concurrent use.
func (r *Redactor) Writer(w io.Writer) *Writer {
	return &Writer{r: r, w: w}
}

// Writer redacts what is written to it; see [Redactor.Writer].
type Writer struct {
	r       *Redactor
	w       io.Writer
	mu      sync.Mutex
	pending []byte
}

// Write redacts p and writes what can be written for sure to the
// underlying writer. It reports len(p) written unless that writer fails.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.r.set()
	if m == nil && len(w.pending) == 0 {
		return w.w.Write(p)
	}
	w.pending = append(w.pending, p...)
	if m == nil {
		return len(p), w.flushLocked()
	}
	spans := find(m, w.pending)
	cut := m.heldFrom(w.pending)
	for i := len(spans) - 1; i >= 0; i-- { // never cut through a match
		if spans[i].a < cut && cut < spans[i].b {
			cut = spans[i].a
		}
	}
	var keep []span
	for _, s := range spans {
		if s.b <= cut {
			keep = append(keep, s)
		}
	}
	out := apply(nil, w.pending[:cut], keep)
	rest := copy(w.pending, w.pending[cut:])
	w.pending = w.pending[:rest]
	if len(out) > 0 {
		if _, err := w.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes, redacted, what Write held back.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.flushLocked()
}

func (w *Writer) flushLocked() error {
	if len(w.pending) == 0 {
		return nil
	}
	out := w.r.Bytes(w.pending)
	w.pending = w.pending[:0]
	_, err := w.w.Write(out)
	return err
}

// Unwrap returns the writer w writes to (to ask whether it is a terminal).
func (w *Writer) Unwrap() io.Writer { return w.w }

// Cut is [Redactor.String] for text that was cut short: besides every whole
// form, a trailing piece of s that is the start of a form (the text was cut
// inside a secret: "pw hun" of "pw hunter2") is replaced by [Marker] too,
// the longest such piece. Use it on the kept part of cut text only; on
// whole text it would hide innocent endings.
func (r *Redactor) Cut(s string) string {
	s = r.String(s)
	if r == nil || s == "" {
		return s
	}
	r.mu.Lock()
	forms := make([]string, 0, len(r.forms))
	for f := range r.forms {
		forms = append(forms, f)
	}
	r.mu.Unlock()
	longest := 0
	for _, f := range forms {
		for k := min(len(f)-1, len(s)); k > longest; k-- {
			if s[len(s)-k:] == f[:k] {
				longest = k
				break
			}
		}
	}
	if longest == 0 {
		return s
	}
	return s[:len(s)-longest] + Marker
}
