package testfile

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
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

// Error returns "file:line:col: message".
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Excerpt returns the source line with its number and, under it, a caret
// line underlining the offending text, in the style of:
//
//	12 |   - clik: the Sign in button
//	   |     ^^^^
//
// It returns "" when the line is unknown.
func (e *Error) Excerpt() string {
	if e.Line <= 0 {
		return ""
	}
	num := fmt.Sprint(e.Line)
	gutter := strings.Repeat(" ", len(num))
	var under strings.Builder
	col := 1
	for _, r := range e.Source {
		if col >= e.Col {
			break
		}
		if r == '\t' {
			under.WriteByte('\t')
		} else {
			under.WriteByte(' ')
		}
		col++
	}
	for ; col < e.Col; col++ {
		under.WriteByte(' ')
	}
	under.WriteString(strings.Repeat("^", max(1, e.Width)))
	return fmt.Sprintf("  %s | %s\n  %s | %s", num, e.Source, gutter, under.String())
}

// List is every problem found in one or more files, in file order. A
// non-empty List is the error that Parse, ParseConfig and LoadConfig return.
type List []*Error

// Error returns every problem, each as "file:line:col: message" followed by
// its excerpt, separated by blank lines.
func (l List) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(e.Error())
		if x := e.Excerpt(); x != "" {
			b.WriteByte('\n')
			b.WriteString(x)
		}
	}
	return b.String()
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
