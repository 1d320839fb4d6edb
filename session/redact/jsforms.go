package redact

import (
	"fmt"
	"strings"
)

// The forms a value takes in TypeScript that `e2e export playwright`
// writes (session/export, quote.go): the inside of a single-quoted string
// literal, the text of a template literal and the source of a regular
// expression that matches the value. The export is a boundary where text
// leaves the program, and a name read off the page can hold a secret
// ('Copy it\'s-…'). session/export's tests check that these stay the
// export's own forms.

// jsSingleQuoted is v inside a single-quoted string literal.
func jsSingleQuoted(v string) string {
	var b strings.Builder
	for _, r := range v {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		default:
			jsRune(&b, r)
		}
	}
	return b.String()
}

// jsTemplate is v as the text of a template literal.
func jsTemplate(v string) string {
	var b strings.Builder
	for _, r := range v {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '`':
			b.WriteString("\\`")
		case '$':
			b.WriteString(`\$`)
		default:
			jsRune(&b, r)
		}
	}
	return b.String()
}

// jsRegexp is the source of a regular expression literal that matches v.
func jsRegexp(v string) string {
	var b strings.Builder
	for _, r := range v {
		if r < 0x80 && strings.ContainsRune(`\^$.|?*+()[]{}/`, r) {
			b.WriteByte('\\')
			b.WriteRune(r)
			continue
		}
		jsRune(&b, r)
	}
	return b.String()
}

func jsRune(b *strings.Builder, r rune) {
	switch {
	case r == '\n':
		b.WriteString(`\n`)
	case r == '\r':
		b.WriteString(`\r`)
	case r == '\t':
		b.WriteString(`\t`)
	case r < 0x20, 0x7f <= r && r <= 0x9f, r == 0x2028, r == 0x2029, r == 0x200e, r == 0x200f, r == 0x061c, r == 0xfeff,
		0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		b.WriteRune(r)
	}
}
