package redact

import (
	"strings"
	"unicode"
)

// What pages do to the white space of a value. A page does not show a
// value's white space as it was typed: its text (innerText, and so a
// step's "got …" error) collapses every run of spaces, tabs and line
// breaks to one space; the snapshot's names collapse every run of white
// space (no-break spaces and control characters too) and trim the ends; a
// single-line field (<input>) keeps each line break typed or pasted into
// it as a space, dropping those at the end, and removes them when its
// value is set; a multi-line field (<textarea>) keeps CR LF and CR as LF;
// white-space: pre-line keeps line breaks but collapses the spaces and
// tabs around them. A Redactor knows each of these forms of a value, and
// the forms they make of each other ([spaceForms]), as it knows the value
// itself.

// maxSpaceForms bounds how many white-space forms one value has (there are
// far fewer in practice; the bound keeps a pathological value cheap).
const maxSpaceForms = 32

// spaceForms returns v and every distinct form pages make of its white
// space (see above), applied in any order: v first, then the others. Forms
// that are empty or only white space are left out. It returns nil when v is
// empty or only white space: such a value cannot be told apart from the
// white space of any text, and is not redacted.
func spaceForms(v string) []string {
	if IsBlank(v) {
		return nil
	}
	out := []string{v}
	if strings.IndexFunc(v, isPageSpace) < 0 {
		return out // nothing to transform: the common case
	}
	seen := map[string]bool{v: true}
	for i := 0; i < len(out) && len(out) < maxSpaceForms; i++ {
		for _, f := range spaceTransforms {
			g := f(out[i])
			if !seen[g] && !IsBlank(g) {
				seen[g] = true
				out = append(out, g)
				if len(out) == maxSpaceForms {
					break
				}
			}
		}
	}
	return out
}

// spaceTransforms are what pages do to a value's white space, one thing
// each; spaceForms combines them.
var spaceTransforms = []func(string) string{
	trimPageSpace,
	strings.NewReplacer("\r", "", "\n", "").Replace, // an <input>'s value set by a script
	inputInsert, // an <input> a value was typed or pasted into
	strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace,     // a <textarea>'s value
	func(s string) string { return collapse(s, isCSSSpace) },  // innerText
	func(s string) string { return collapse(s, isPageSpace) }, // the snapshot's names
	preLine,
}

// IsBlank reports whether s is empty or made only of white space as pages
// see it: Unicode white space, the byte order mark and control characters
// (the snapshot reads every one of them as a space). A secret like that
// cannot be redacted meaningfully: [Forms] has none for it and a Redactor
// ignores it.
func IsBlank(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !isPageSpace(r) }) < 0
}

// isPageSpace is white space to the snapshot (JavaScript's \s and the
// control characters) or to Go (unicode.IsSpace).
func isPageSpace(r rune) bool {
	return r < 0x20 || unicode.IsSpace(r) || r == '\ufeff'
}

// isCSSSpace is the white space CSS collapses (white-space: normal).
func isCSSSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
}

func trimPageSpace(s string) string { return strings.TrimFunc(s, isPageSpace) }

// collapse is s with every run of runes that space holds replaced by one
// space.
func collapse(s string, space func(rune) bool) string {
	var b strings.Builder
	b.Grow(len(s))
	in := false
	for _, r := range s {
		if space(r) {
			if !in {
				b.WriteByte(' ')
			}
			in = true
			continue
		}
		in = false
		b.WriteRune(r)
	}
	return b.String()
}

// inputInsert is what Chromium makes of text typed or pasted into a
// single-line field: line breaks at the end dropped, each other CR LF, CR
// or LF a space.
func inputInsert(s string) string {
	s = strings.TrimRight(s, "\r\n")
	return strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
}

// preLine is s as white-space: pre-line renders it: line breaks kept (CR
// LF and CR as LF), the spaces and tabs around them removed, other runs of
// spaces and tabs one space.
func preLine(s string) string {
	s = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = collapse(strings.Trim(l, " \t"), func(r rune) bool { return r == ' ' || r == '\t' })
	}
	return strings.Join(lines, "\n")
}
