package testfile

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/e2e-dev/e2e/session/plural"
)

// ErrNoTests is returned by Discover, wrapped, when an explicit path or
// pattern names no test files.
var ErrNoTests = errors.New("no test files")

// Error is one problem at a position in a test file or a config file.
type Error struct {
	File string
	Line int // 1-based
	Col  int // 1-based, counted in characters
	Msg  string
	// Source is the offending line of the file, without its line break; ""
	// when the line is unknown.
	Source string
	// Width is how many characters from Col the problem spans, at least 1.
	Width int
}

// Error returns "file:line:col: message", the message cut to maxMsg
// characters.
func (e *Error) Error() string {
	msg := e.Msg
	if utf8.RuneCountInString(msg) > maxMsg {
		msg = string([]rune(msg)[:maxMsg]) + "…"
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, msg)
}

// maxMsg bounds the length of a message, which may quote the parser.
const maxMsg = 400

// Excerpt returns the source line with its number and, under it, a caret
// line underlining the offending text, in the style of:
//
//	12 |   - clik: the Sign in button
//	   |     ^^^^
//
// A line longer than MaxExcerpt characters is cut to that many around the
// problem, with "…" where text is left out. It returns "" when the line is
// unknown.
func (e *Error) Excerpt() string {
	if e.Line <= 0 {
		return ""
	}
	num := fmt.Sprint(e.Line)
	gutter := strings.Repeat(" ", len(num))
	source, at, width := cutLine(e.Source, max(1, e.Col), max(1, e.Width))
	var under strings.Builder
	col := 1
	for _, r := range source {
		if col >= at {
			break
		}
		if r == '\t' {
			under.WriteByte('\t')
		} else {
			under.WriteByte(' ')
		}
		col++
	}
	for ; col < at; col++ {
		under.WriteByte(' ')
	}
	under.WriteString(strings.Repeat("^", width))
	return fmt.Sprintf("  %s | %s\n  %s | %s", num, source, gutter, under.String())
}

// cutLine returns at most MaxExcerpt characters of line around the span
// of width characters at column col, with "…" for what is left out on
// either side, and the span's column and width in the result.
func cutLine(line string, col, width int) (string, int, int) {
	n := utf8.RuneCountInString(line)
	if n <= MaxExcerpt {
		return line, col, width
	}
	rs := []rune(line)
	width = min(width, MaxExcerpt/2)
	// show some context before the span, and the span itself
	from := max(0, min(col-1-(MaxExcerpt-width)/3, n-MaxExcerpt))
	to := min(n, from+MaxExcerpt)
	width = max(1, min(width, to-(col-1)))
	var b strings.Builder
	at := col - from
	if from > 0 {
		b.WriteString("…")
		at++
	}
	b.WriteString(string(rs[from:to]))
	if to < n {
		b.WriteString("…")
	}
	return b.String(), at, width
}

// List is every problem found in one or more files, in file order. A
// non-empty List is the error that Parse, ParseConfig and LoadConfig return.
type List []*Error

// Error returns the first MaxShown problems, each as "file:line:col:
// message" followed by its excerpt, separated by blank lines, and then how
// many more there are, as in "… and 1234 more problems".
func (l List) Error() string {
	var b strings.Builder
	shown := l.Write(&b, MaxShown)
	if more := len(l) - shown; more > 0 {
		b.WriteString("\n\n")
		b.WriteString(More(more))
	}
	return b.String()
}

// Write writes at most limit problems of l to b as Error does, without
// the count of the rest, and returns how many it wrote.
func (l List) Write(b *strings.Builder, limit int) int {
	n := min(len(l), max(0, limit))
	for i, e := range l[:n] {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(e.Error())
		if x := e.Excerpt(); x != "" {
			b.WriteByte('\n')
			b.WriteString(x)
		}
	}
	return n
}

// More says that n more problems were left out: "… and 12 more problems".
func More(n int) string {
	return "… and " + plural.Count(n, "more problem")
}

// Unwrap returns the problems, so errors.As can find one.
func (l List) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// UnsetError reports a variable with no value at run time. It names the
// variable and never holds its value.
type UnsetError struct {
	Var Var
}

func (e *UnsetError) Error() string {
	return fmt.Sprintf("%s.%s is not set", e.Var.Kind, e.Var.Name)
}

// BlankSecretError reports a {{ secret.NAME }} whose value is only white
// space (spaces, tabs, line breaks: see redact.IsBlank). Pages collapse and
// trim white space, so such a value cannot be told apart from the white
// space of any text and could not be kept out of what is printed or
// stored; it is refused before it is used. It never holds the value.
type BlankSecretError struct {
	Var Var
}

func (e *BlankSecretError) Error() string {
	return fmt.Sprintf("%s.%s is only white space: a secret must hold more than spaces, tabs and line breaks, which pages collapse and so could not be redacted", e.Var.Kind, e.Var.Name)
}

// VarError reports a malformed variable in a string.
type VarError struct {
	Offset int // byte offset of the problem in the string
	Width  int // characters the problem spans, at least 1
	Msg    string
}

func (e *VarError) Error() string { return e.Msg }

// runeWidth returns the number of characters in s, at least 1.
func runeWidth(s string) int {
	return max(1, utf8.RuneCountInString(s))
}
