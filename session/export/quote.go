package export

import (
	"fmt"
	"strings"
)

// The export writes text that comes from outside the program (file names,
// test names, descriptions, typed text, URLs, names read off the page,
// variables) into TypeScript in four contexts, each through one function
// here and nowhere else:
//
//	quote         a single-quoted string literal, quotes included
//	templateText  the text of a template literal (between ` and `, outside ${})
//	comment       the text of a // line comment
//	regexpText    the source of a regular expression literal that matches the text itself
//
// Whatever the text holds, what they return stays inside its context: no line
// terminator (LF, CR, U+2028, U+2029) is written raw, nor a quote, backtick,
// $ or slash that could end the literal, nor a control character or a
// bidirectional-text control that would make the code read otherwise than it
// runs. A string or template literal evaluates to the text; a regular
// expression matches it (invalid UTF-8 becomes U+FFFD first).

// quote is a single-quoted TypeScript string literal whose value is s.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		default:
			writeRune(&b, r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// templateText is the text of a template literal whose value is s. Every $
// is escaped, so that no ${ forms even where two pieces of text meet.
func templateText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case '`':
			b.WriteString("\\`")
		case '$':
			b.WriteString(`\$`)
		default:
			writeRune(&b, r)
		}
	}
	return b.String()
}

// comment is s as the text of a // line comment: it ends at the end of the
// comment's line. Line breaks and other control characters show as their
// escapes (\n, \u2028).
func comment(s string) string {
	var b strings.Builder
	for _, r := range s {
		writeRune(&b, r)
	}
	return b.String()
}

// regexpText is the source of a JavaScript regular expression literal
// (/…/, no flags) that matches s and only s: every character with a meaning
// in a pattern is escaped, and so is the slash that would end the literal.
func regexpText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune(`\^$.|?*+()[]{}/`, r) {
			b.WriteByte('\\')
			b.WriteRune(r)
			continue
		}
		writeRune(&b, r)
	}
	return b.String()
}

// writeRune writes r as it is, or as its escape when it is a line
// terminator, a control character or a bidirectional-text control: \n, \r,
// \t or \uXXXX, which string, template and regular expression literals all
// read as r, and a comment shows as text.
func writeRune(b *strings.Builder, r rune) {
	switch r {
	case '\n':
		b.WriteString(`\n`)
	case '\r':
		b.WriteString(`\r`)
	case '\t':
		b.WriteString(`\t`)
	default:
		if unsafeRune(r) {
			fmt.Fprintf(b, `\u%04x`, r)
			return
		}
		b.WriteRune(r)
	}
}

// unsafeRune reports whether r is written as an escape: C0 and C1 controls,
// DEL, the line and paragraph separators (line terminators in JavaScript),
// the bidirectional-text controls ("Trojan Source") and the byte order mark.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, 0x7f <= r && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r == 0x200e, r == 0x200f, r == 0x061c, r == 0xfeff:
		return true
	case 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}
