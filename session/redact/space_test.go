package redact_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/redact"
)

// spaceSecrets are secrets holding white space, each with the text pages
// make of it, written out by hand: innerText (and so the page text a step's
// error quotes) collapses runs of spaces, tabs and line breaks to one
// space; the snapshot's names collapse them and trim the ends; an <input>
// keeps a typed or pasted line break as a space (dropping those at the end)
// and removes it when its value is set; a <textarea> keeps CR LF as LF;
// white-space: pre-line keeps line breaks and drops the spaces around them.
var spaceSecrets = []struct {
	secret string
	shown  []string
}{
	{"tab\there", []string{"tab here"}},
	{"two  spaces", []string{"two spaces"}},
	{"line\nbreak", []string{"line break", "linebreak"}},
	{"crlf\r\nbreak", []string{"crlf break", "crlfbreak", "crlf\nbreak"}},
	{"  lead and trail  ", []string{" lead and trail ", "lead and trail"}},
	{"mixed \t\n\r\n  run", []string{"mixed run", "mixed \t    run", "mixed \t  run", "mixed \t\n\n  run", "mixed\n\nrun"}},
	{"end\n", []string{"end"}},
	{"no\u00a0break  space", []string{"no break space", "no\u00a0break space"}},
	{"ctrl\x01char", []string{"ctrl char"}},
	{"pem\nAbC+/\nxYz=\n", []string{"pem AbC+/ xYz=", "pemAbC+/xYz=", "pem AbC+/ xYz= "}},
}

// TestWhiteSpaceFormsAreRedacted: every form pages make of a secret's white
// space is redacted as the secret is, raw and quoted (a step's error), in
// JSON (a report, a model request), and what surrounds it stays.
func TestWhiteSpaceFormsAreRedacted(t *testing.T) {
	var all []string
	for _, c := range spaceSecrets {
		all = append(all, c.secret)
	}
	r := redact.New(all...)
	for _, c := range spaceSecrets {
		for _, shown := range append([]string{c.secret}, c.shown...) {
			j, _ := json.Marshal("You typed: " + shown + ".")
			for what, in := range map[string]string{
				"page text": "You typed: " + shown + ".",
				"error":     fmt.Sprintf("got %q, want %q", "You typed: "+shown+".", "nothing"),
				"JSON":      string(j),
			} {
				out := r.String(in)
				if !strings.Contains(out, redact.Marker) {
					t.Errorf("%q shown as %q, in %s: nothing redacted in %q", c.secret, shown, what, out)
				}
				for _, word := range strings.Fields(c.secret) {
					if strings.Contains(out, word) && !strings.Contains(strings.ReplaceAll(in, shown, ""), word) {
						t.Errorf("%q shown as %q, in %s: %q shows in %q", c.secret, shown, what, word, out)
					}
				}
				if !strings.Contains(out, "You typed") {
					t.Errorf("%q shown as %q, in %s: redacted too much: %q", c.secret, shown, what, out)
				}
			}
		}
	}
}

// TestWhiteSpaceOnlySecretsAreIgnored: a value made only of white space has
// no forms and is not redacted (it would hide every space of every text);
// a test file refuses it before it is used (package testfile).
func TestWhiteSpaceOnlySecretsAreIgnored(t *testing.T) {
	for _, v := range []string{" ", "  ", "\t", "\n", "\r\n", " \t\n ", "\u00a0", "\u3000", "\x01", "\ufeff"} {
		if !redact.IsBlank(v) {
			t.Errorf("IsBlank(%q) = false", v)
		}
		if f := redact.Forms(v); f != nil {
			t.Errorf("Forms(%q) = %q, want none", v, f)
		}
		r := redact.New(v)
		if r.Len() != 0 {
			t.Errorf("New(%q) knows %d values", v, r.Len())
		}
		if in := "a b\tc\nd"; r.String(in) != in {
			t.Errorf("New(%q) redacted %q to %q", v, in, r.String(in))
		}
	}
	for _, v := range []string{"x", " x ", "\tx\n", ".", "\u00a0x"} {
		if redact.IsBlank(v) {
			t.Errorf("IsBlank(%q) = true", v)
		}
	}
	// No form of a secret holding white space is only white space.
	for _, c := range spaceSecrets {
		for _, f := range redact.Forms(c.secret) {
			if redact.IsBlank(f) {
				t.Errorf("Forms(%q) holds the blank %q", c.secret, f)
			}
		}
	}
}
