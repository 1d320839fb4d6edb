package step

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// The flags of a step command.
const (
	flagType        = "--step-type"
	flagDescription = "--description"
	flagValue       = "--value"
	flagExpect      = "--expect"
	flagMatch       = "--match"
	flagTimeout     = "--timeout"
	flagCacheID     = "--cache-id"
)

// flagSpec says how a flag sets and prints its field.
type flagSpec struct {
	name string
	// set stores the flag's value in s. Its error is an *Error without a
	// column; Parse adds the column of the value.
	set func(s *Step, v string) error
	// get returns the text to print, "" when the flag is left out.
	get func(s Step) string
	// text is set for free text, which String always quotes.
	text bool
}

// flags lists every flag in the order String prints them.
var flags = []flagSpec{
	{name: flagType, set: setType, get: func(s Step) string { return string(s.Type) }},
	{name: flagExpect, set: setExpect, get: func(s Step) string { return string(s.Expect) }},
	{name: flagMatch, set: setMatch, get: func(s Step) string { return string(s.Match) }},
	{name: flagDescription, text: true,
		set: func(s *Step, v string) error { s.Description = v; return nil },
		get: func(s Step) string { return s.Description }},
	{name: flagValue, text: true,
		set: func(s *Step, v string) error { s.Value = v; return nil },
		get: func(s Step) string { return s.Value }},
	{name: flagTimeout, set: setTimeout, get: func(s Step) string {
		if s.Timeout == 0 {
			return ""
		}
		return s.Timeout.String()
	}},
	{name: flagCacheID, set: setCacheID, get: func(s Step) string { return s.CacheID }},
}

// FlagNames returns the flags of a step command in the order String prints them.
func FlagNames() []string {
	names := make([]string, len(flags))
	for i, f := range flags {
		names[i] = f.name
	}
	return names
}

func lookupFlag(name string) (flagSpec, bool) {
	for _, f := range flags {
		if f.name == name {
			return f, true
		}
	}
	return flagSpec{}, false
}

func setType(s *Step, v string) error {
	t := Type(strings.ToUpper(v))
	if _, ok := Types[t]; !ok {
		return &Error{Flag: flagType, Msg: fmt.Sprintf("unknown step type %s", printable(v)),
			Hint: didYouMean(v, TypeNames())}
	}
	s.Type = t
	return nil
}

func setExpect(s *Step, v string) error {
	k := ExpectKind(strings.ToLower(v))
	if _, ok := Expectations[k]; !ok {
		hint := didYouMean(v, ExpectNames())
		if hint == "" {
			hint = "use one of " + strings.Join(ExpectNames(), ", ")
		}
		return &Error{Flag: flagExpect, Msg: fmt.Sprintf("unknown --expect %s", printable(v)), Hint: hint}
	}
	s.Expect = k
	return nil
}

func setMatch(s *Step, v string) error {
	m, ok := matches[strings.ToLower(v)]
	if !ok {
		return &Error{Flag: flagMatch, Msg: fmt.Sprintf("unknown --match %s", printable(v)),
			Hint: "use --match contains, or leave it out for an exact match"}
	}
	s.Match = m
	return nil
}

func setTimeout(s *Step, v string) error {
	d, err := time.ParseDuration(v)
	if err != nil {
		return &Error{Flag: flagTimeout, Msg: fmt.Sprintf("invalid --timeout %s", printable(v)),
			Hint: "use a duration such as 500ms, 10s or 1m"}
	}
	if d <= 0 {
		return &Error{Flag: flagTimeout, Msg: fmt.Sprintf("--timeout %s is not positive", printable(v))}
	}
	s.Timeout = d
	return nil
}

func setCacheID(s *Step, v string) error {
	if !validCacheID(v) {
		return &Error{Flag: flagCacheID, Msg: fmt.Sprintf("invalid --cache-id %s", printable(v)),
			Hint: "a cache id is letters, digits and . _ : - and starts with a letter or digit"}
	}
	s.CacheID = v
	return nil
}

// Parse reads one step command and returns the valid Step it describes.
//
// Flags are --step-type, --description, --value, --expect, --match,
// --timeout (a Go duration) and --cache-id, each followed by its value
// after a space or an "=". A value holding spaces or quotes is written in
// double quotes, where \" \\ \n \r and \t are escapes, or in single quotes,
// which hold text verbatim. Step types are upper-cased and expectation kinds
// lower-cased; --match is or exact is the default and is dropped.
//
// The error is an *[Error] naming the column of the offending text when it
// has one: an unknown or repeated flag, a flag without a value, an
// unterminated quote, an unknown step type, or a step that [Step.Validate]
// rejects.
func Parse(line string) (Step, error) {
	toks, err := lex(line)
	if err != nil {
		return Step{}, err
	}
	var s Step
	seen := make(map[string]int, len(toks))
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.flag {
			if strings.HasPrefix(t.text, "-") && !t.quoted {
				return Step{}, &Error{Col: t.col, Msg: fmt.Sprintf("unknown flag %s", printable(t.text)),
					Hint: didYouMean(t.text, FlagNames())}
			}
			return Step{}, &Error{Col: t.col, Msg: fmt.Sprintf("unexpected %s", printable(t.text)),
				Hint: "a value follows its flag, in double quotes if it holds spaces"}
		}
		f, ok := lookupFlag(t.text)
		if !ok {
			return Step{}, &Error{Col: t.col, Msg: fmt.Sprintf("unknown flag %s", printable(t.text)),
				Hint: didYouMean(t.text, FlagNames())}
		}
		if _, dup := seen[f.name]; dup {
			return Step{}, &Error{Col: t.col, Flag: f.name, Msg: fmt.Sprintf("repeated flag %s", f.name)}
		}
		seen[f.name] = t.col
		if i+1 == len(toks) || toks[i+1].flag {
			return Step{}, &Error{Col: t.col, Flag: f.name, Msg: fmt.Sprintf("flag %s needs a value", f.name)}
		}
		i++
		if err := f.set(&s, toks[i].text); err != nil {
			var e *Error
			if errors.As(err, &e) {
				e.Col = toks[i].col
			}
			return Step{}, err
		}
	}
	if err := s.Validate(); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Flag != "" {
			e.Col = seen[e.Flag]
		}
		return Step{}, err
	}
	return s, nil
}

// String prints s as a step command in canonical form: flags in a fixed
// order, empty fields left out, descriptions and values in double quotes.
// For every valid Step, Parse(s.String()) returns s.
func (s Step) String() string {
	var b strings.Builder
	for _, f := range flags {
		v := f.get(s)
		if v == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(f.name)
		b.WriteByte(' ')
		if f.text || needsQuote(v) {
			b.WriteString(quote(v))
		} else {
			b.WriteString(v)
		}
	}
	return b.String()
}

// token is one word of a step command.
type token struct {
	text   string // the word with quotes and escapes removed
	col    int    // column of its first character
	flag   bool   // the word is a flag: it starts with an unquoted "--"
	quoted bool
}

// isSpace reports whether c separates words.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// escapes maps the character after a backslash in double quotes to what it stands for.
var escapes = map[byte]byte{'"': '"', '\\': '\\', 'n': '\n', 'r': '\r', 't': '\t'}

// columns converts byte offsets in line to 1-based character columns.
// Offsets are mostly asked for in increasing order, which it makes cheap.
type columns struct {
	line     string
	off, col int // col is the column of byte offset off
}

func (c *columns) at(off int) int {
	if off < c.off {
		c.off, c.col = 0, 1
	}
	c.col += utf8.RuneCountInString(c.line[c.off:off])
	c.off = off
	return c.col
}

// lex splits line into words. A flag written --name=value yields two words.
func lex(line string) ([]token, error) {
	var toks []token
	cols := &columns{line: line, col: 1}
	i := 0
	for {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			return toks, nil
		}
		if strings.HasPrefix(line[i:], "--") {
			start := i
			for i < len(line) && !isSpace(line[i]) && line[i] != '=' && line[i] != '"' && line[i] != '\'' {
				i++
			}
			toks = append(toks, token{text: line[start:i], col: cols.at(start), flag: true})
			if i == len(line) || isSpace(line[i]) {
				continue
			}
			if line[i] != '=' {
				return nil, &Error{Col: cols.at(i), Msg: "unexpected quote in a flag name",
					Hint: "write --name \"value\""}
			}
			i++
			t, next, err := word(line, i, cols)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = next
			continue
		}
		t, next, err := word(line, i, cols)
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		i = next
	}
}

// word reads the value word at line[i:], which may be empty when
// line[i] is a space or the end, and returns it with the offset after it.
func word(line string, i int, cols *columns) (token, int, error) {
	t := token{col: cols.at(i)}
	if i == len(line) || isSpace(line[i]) {
		return t, i, nil
	}
	q := line[i]
	if q != '"' && q != '\'' {
		start := i
		for i < len(line) && !isSpace(line[i]) {
			if line[i] == '"' || line[i] == '\'' {
				return t, 0, &Error{Col: cols.at(i), Msg: fmt.Sprintf("unexpected %c inside a value", line[i]),
					Hint: "put the whole value in double quotes and write \\\" for a quote"}
			}
			i++
		}
		t.text = line[start:i]
		return t, i, nil
	}
	open := i
	t.quoted = true
	i++
	var b strings.Builder
	for {
		if i == len(line) {
			return t, 0, &Error{Col: cols.at(open), Msg: "unterminated quote"}
		}
		c := line[i]
		if c == q {
			i++
			break
		}
		if c == '\\' && q == '"' {
			if i+1 == len(line) {
				return t, 0, &Error{Col: cols.at(open), Msg: "unterminated quote"}
			}
			e, ok := escapes[line[i+1]]
			if !ok {
				r, _ := utf8.DecodeRuneInString(line[i+1:])
				return t, 0, &Error{Col: cols.at(i), Msg: fmt.Sprintf("unknown escape %s", printable(`\`+string(r))),
					Hint: `use \" \\ \n \r or \t`}
			}
			b.WriteByte(e)
			i += 2
			continue
		}
		b.WriteByte(c)
		i++
	}
	if i < len(line) && !isSpace(line[i]) {
		return t, 0, &Error{Col: cols.at(i), Msg: "missing space after the closing quote",
			Hint: `write \" for a quote inside a value`}
	}
	t.text = b.String()
	return t, i, nil
}

// needsQuote reports whether v must be quoted to read back as one value word.
func needsQuote(v string) bool {
	if v == "" || v[0] == '-' {
		return true
	}
	for i := 0; i < len(v); i++ {
		if isSpace(v[i]) || v[i] == '"' || v[i] == '\'' || v[i] == '\\' {
			return true
		}
	}
	return false
}

// quote returns v in double quotes, escaping what Parse unescapes.
func quote(v string) string {
	var b strings.Builder
	b.Grow(len(v) + 2)
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
