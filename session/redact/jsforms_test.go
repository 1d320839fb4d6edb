package redact

import (
	"strings"
	"testing"
)

// TestRedactsTheExportsForms: a secret in the forms the Playwright export
// writes it in (a page-derived name in a single-quoted string, template
// text, a regular expression) is redacted whole, and the code around it
// stays.
func TestRedactsTheExportsForms(t *testing.T) {
	for _, c := range []struct{ secret, code, want string }{
		{`it's-s3cret`, `page.getByRole('button', { name: 'Copy it\'s-s3cret' })`, `page.getByRole('button', { name: 'Copy ***' })`},
		{"line\u2028s3cret", `getByText('line\u2028s3cret')`, `getByText('***')`},
		{`c:\s3cret`, `getByLabel('c:\\s3cret')`, `getByLabel('***')`},
		{"s3c`ret${x}", "fill(`a s3c\\`ret\\${x} b`)", "fill(`a *** b`)"},
		{"s3cret.*(1)/", `toHaveTitle(/s3cret\.\*\(1\)\//)`, `toHaveTitle(/***/)`},
	} {
		r := New(c.secret)
		if got := r.String(c.code); got != c.want {
			t.Errorf("%q in %s: %s, want %s", c.secret, c.code, got, c.want)
		}
		if !strings.Contains(c.code, jsSingleQuoted(c.secret)) && !strings.Contains(c.code, jsTemplate(c.secret)) && !strings.Contains(c.code, jsRegexp(c.secret)) {
			t.Errorf("%s holds none of the export's forms of %q", c.code, c.secret)
		}
	}
}
