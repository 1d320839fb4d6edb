package step

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Error is a problem with a step command or a Step.
type Error struct {
	// Col is the 1-based column, counted in characters, of the offending
	// text in the command line; 0 when the problem is the step as a whole or
	// the step was not parsed from text.
	Col int
	// Flag is the flag at fault, such as "--value", when there is one.
	Flag string
	// Msg says what is wrong, without position or hint.
	Msg string
	// Hint suggests a fix, such as "did you mean --step-type?".
	Hint string
}

// Error returns the message, then " at column N" when the column is known,
// then "; " and the hint when there is one.
func (e *Error) Error() string {
	msg := e.Msg
	if e.Col > 0 {
		msg += fmt.Sprintf(" at column %d", e.Col)
	}
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// maxQuoted bounds how much of a user's text an error message repeats.
const maxQuoted = 40

// printable returns s as it may appear in a message: as is when it is a
// short run of printable characters without spaces, else quoted, and cut
// to maxQuoted characters.
func printable(s string) string {
	if utf8.RuneCountInString(s) > maxQuoted {
		r := []rune(s)
		return strconv.Quote(string(r[:maxQuoted])) + "…"
	}
	for _, r := range s {
		if r == utf8.RuneError || r <= ' ' || r == '"' || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	if s == "" {
		return `""`
	}
	return s
}
