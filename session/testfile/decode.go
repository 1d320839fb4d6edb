package testfile

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/e2e-dev/e2e/session/step"
)

// decoder walks a YAML syntax tree and collects every problem it finds,
// with its position, instead of stopping at the first.
type decoder struct {
	file  string
	src   []byte   // the source with "\n" line breaks
	lines []string // the lines of src
	errs  List
	// params are the parameters of the flow being read: {{ name }} names
	// one of them. nil in a test file.
	params []string
}

// newDecoder returns a decoder for src, named file in messages. YAML line
// breaks ("\r\n", "\r" and "\n") all become "\n", as YAML reads them, so
// that the parser's line numbers and the decoder's lines agree.
func newDecoder(file string, src []byte) *decoder {
	norm := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(src))
	return &decoder{file: file, src: []byte(norm), lines: strings.Split(norm, "\n")}
}

// document parses the source and returns the body of its single document,
// or nil when there is none or the YAML is malformed, in which case the
// problem has been recorded. what names the file's purpose, for messages.
// A source that nests deeper than MaxDepth is refused before parsing.
func (d *decoder) document(what string) ast.Node {
	if !d.checkDepth() {
		return nil
	}
	f, err := parser.ParseBytes(d.src, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		d.syntaxError(err)
		return nil
	}
	var body ast.Node
	for i, doc := range f.Docs {
		if doc.Body == nil {
			continue
		}
		if body != nil {
			d.errorAt(docStart(f.Docs[i]), 3, fmt.Sprintf("%s holds one YAML document; remove the second one", what))
			break
		}
		body = doc.Body
	}
	return body
}

// docStart returns the position of a document's "---", or of its body.
func docStart(doc *ast.DocumentNode) *token.Token {
	if doc.Start != nil {
		return doc.Start
	}
	return start(doc.Body)
}

// syntaxError records a YAML syntax error from the parser.
func (d *decoder) syntaxError(err error) {
	var yerr interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if !errors.As(err, &yerr) || yerr.GetToken() == nil || yerr.GetToken().Position == nil {
		d.errs = append(d.errs, &Error{File: d.file, Line: 1, Col: 1, Width: 1, Msg: "invalid YAML: " + err.Error(),
			Source: d.line(1)})
		return
	}
	tk := yerr.GetToken()
	msg := "invalid YAML: " + yerr.GetMessage()
	if src := d.line(tk.Position.Line); strings.Contains(src, "{{") && !strings.Contains(src, `"{{`) && !strings.Contains(src, `'{{`) {
		msg += `; put a value that holds {{ in quotes, such as "{{ env.USER }}"`
	}
	d.errorAt(tk, 1, msg)
}

// line returns the 1-based line n of the source, or "".
func (d *decoder) line(n int) string {
	if n < 1 || n > len(d.lines) {
		return ""
	}
	return d.lines[n-1]
}

// errorAt records msg at tk, underlining width characters.
func (d *decoder) errorAt(tk *token.Token, width int, msg string) {
	e := &Error{File: d.file, Line: 1, Col: 1, Msg: msg, Width: max(1, width)}
	if tk != nil && tk.Position != nil {
		e.Line, e.Col = tk.Position.Line, max(1, tk.Position.Column)
	}
	e.Source = d.line(e.Line)
	d.errs = append(d.errs, e)
}

// place is where node n is, as a problem with it would be reported (its
// line, column, source line and width), with no message.
func (d *decoder) place(n ast.Node) *Error {
	e := &Error{File: d.file, Line: 1, Col: 1, Width: max(1, d.width(n))}
	if tk := start(n); tk != nil && tk.Position != nil {
		e.Line, e.Col = tk.Position.Line, max(1, tk.Position.Column)
	}
	e.Source = d.line(e.Line)
	return e
}

// errorf records a problem with node n, underlining it.
func (d *decoder) errorf(n ast.Node, format string, args ...any) {
	d.errorAt(start(n), d.width(n), fmt.Sprintf(format, args...))
}

// errorOffset records a problem inside the scalar n, at byte offset off of
// its value, spanning width characters. It points at the scalar itself
// when the offset cannot be mapped to the source, as in a string with
// escapes or over several lines.
func (d *decoder) errorOffset(n ast.Node, off, width int, msg string) {
	tk := start(n)
	val, _ := scalar(n)
	if tk == nil || tk.Position == nil || off > len(val) {
		d.errorf(n, "%s", msg)
		return
	}
	src := []rune(d.line(tk.Position.Line))
	col := tk.Position.Column
	if tk.Type == token.DoubleQuoteType || tk.Type == token.SingleQuoteType {
		col++
	}
	rest := ""
	if col-1 <= len(src) {
		rest = string(src[col-1:])
	}
	if !strings.HasPrefix(rest, val) {
		d.errorf(n, "%s", msg)
		return
	}
	at := *tk
	pos := *tk.Position
	pos.Column = col + utf8.RuneCountInString(val[:off])
	at.Position = &pos
	d.errorAt(&at, width, msg)
}

// start returns the token where node n starts in the source.
func start(n ast.Node) *token.Token {
	switch n := n.(type) {
	case nil:
		return nil
	case *ast.MappingNode:
		if !n.IsFlowStyle && len(n.Values) > 0 {
			return start(n.Values[0])
		}
		return n.Start
	case *ast.MappingValueNode:
		return start(n.Key)
	case *ast.SequenceNode:
		return n.Start
	case *ast.LiteralNode:
		return n.Start
	case *ast.TagNode:
		return n.Start
	case *ast.AnchorNode:
		return n.Start
	case *ast.AliasNode:
		return n.Start
	case *ast.MappingKeyNode:
		return n.Start
	}
	return n.GetToken()
}

// lineOf returns the line where node n starts, or 0.
func lineOf(n ast.Node) int {
	if tk := start(n); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

// width returns how many characters of node n's first line to underline.
func (d *decoder) width(n ast.Node) int {
	tk := start(n)
	if tk == nil || tk.Position == nil {
		return 1
	}
	switch n := n.(type) {
	case *ast.MappingNode:
		if n.IsFlowStyle && n.End != nil && n.End.Position != nil && n.End.Position.Line == tk.Position.Line {
			return n.End.Position.Column - tk.Position.Column + 1
		}
		if !n.IsFlowStyle && len(n.Values) > 0 {
			return d.width(n.Values[0].Key)
		}
		return 1
	case *ast.SequenceNode:
		if n.IsFlowStyle && n.End != nil && n.End.Position != nil && n.End.Position.Line == tk.Position.Line {
			return n.End.Position.Column - tk.Position.Column + 1
		}
		return 1
	case *ast.MappingValueNode:
		return d.width(n.Key)
	case *ast.NullNode, *ast.LiteralNode:
		return 1
	}
	text, _, _ := strings.Cut(strings.TrimSpace(tk.Origin), "\n")
	text = strings.TrimSpace(text)
	src := []rune(d.line(tk.Position.Line))
	avail := len(src) - tk.Position.Column + 1
	return max(1, min(runeWidth(text), avail))
}

// describe names the shape of node n for messages: "text", "a list", "a mapping".
func describe(n ast.Node) string {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.NullNode, nil:
		return "nothing"
	case *ast.AliasNode:
		return "an alias"
	}
	return "text"
}

// unwrap returns the node under anchors and tags, and reports aliases,
// which test files do not support, returning nil for them.
func (d *decoder) unwrap(n ast.Node) ast.Node {
	for {
		switch v := n.(type) {
		case *ast.AnchorNode:
			if v.Value == nil {
				return n
			}
			n = v.Value
		case *ast.TagNode:
			if v.Value == nil {
				return n
			}
			n = v.Value
		case *ast.AliasNode:
			d.errorf(v, "YAML aliases are not supported; write the value out")
			return nil
		default:
			return n
		}
	}
}

// scalar returns the text of a scalar node as written: a number or a
// boolean is its source text, and a null is "". ok is false for lists,
// mappings and aliases.
func scalar(n ast.Node) (text string, ok bool) {
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.LiteralNode:
		if v.Value == nil {
			return "", true
		}
		return v.Value.Value, true
	case *ast.NullNode:
		return "", true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		return v.GetToken().Value, true
	case *ast.TagNode:
		if v.Value == nil {
			return "", true
		}
		return scalar(v.Value)
	case *ast.AnchorNode:
		if v.Value == nil {
			return "", true
		}
		return scalar(v.Value)
	}
	return "", false
}

// text returns the scalar text of n, recording a problem if n is not a
// scalar. what says what was expected, as in "a description".
func (d *decoder) text(n ast.Node, what string) (string, bool) {
	n = d.unwrap(n)
	if n == nil {
		return "", false
	}
	s, ok := scalar(n)
	if !ok {
		d.errorf(n, "expected %s, found %s", what, describe(n))
	}
	return s, ok
}

// texts returns the list of scalars at n, recording a problem for each
// entry that is not one.
func (d *decoder) texts(n ast.Node, what string) ([]string, bool) {
	n = d.unwrap(n)
	if n == nil {
		return nil, false
	}
	if _, null := n.(*ast.NullNode); null {
		return nil, true
	}
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		d.errorf(n, "expected a list of %s, found %s", what, describe(n))
		return nil, false
	}
	out := make([]string, 0, len(seq.Values))
	good := true
	for _, v := range seq.Values {
		s, ok := d.text(v, what)
		good = good && ok
		if ok {
			out = append(out, s)
		}
	}
	return out, good
}

// duration returns the Go duration at n, which must be positive.
func (d *decoder) duration(n ast.Node) (time.Duration, bool) {
	s, ok := d.text(n, "a duration such as 2s")
	if !ok {
		return 0, false
	}
	n = d.unwrap(n)
	s = strings.TrimSpace(s)
	dur, err := time.ParseDuration(s)
	if err != nil {
		if _, numErr := strconv.ParseFloat(s, 64); numErr == nil {
			d.errorf(n, "invalid duration %s; give a unit, such as %ss", quoted(s), s)
		} else {
			d.errorf(n, "invalid duration %s; use a duration such as 500ms, 2s or 1m", quoted(s))
		}
		return 0, false
	}
	if dur <= 0 {
		d.errorf(n, "duration %s is not positive", quoted(s))
		return 0, false
	}
	return dur, true
}

// entry is one key and value of a YAML mapping.
type entry struct {
	key   string
	keyN  ast.Node // the key node, for positions
	value ast.Node
}

// mapping returns the entries of the mapping at n, in source order. It
// records a problem, and leaves the entry out, for every key that is not in
// keys (with a "did you mean"), every key given twice and every key that is
// not plain text. guessed lists the keys suggested for unknown ones, so
// that callers need not also report them missing. what names the mapping,
// as in "a step". ok is false when n is not a mapping at all.
func (d *decoder) mapping(n ast.Node, what string, keys []string) (entries []entry, guessed []string, ok bool) {
	n = d.unwrap(n)
	if n == nil {
		return nil, nil, false
	}
	m, isMap := n.(*ast.MappingNode)
	if !isMap {
		if mv, single := n.(*ast.MappingValueNode); single {
			m = &ast.MappingNode{Values: []*ast.MappingValueNode{mv}}
		} else {
			d.errorf(n, "expected %s, found %s", what, describe(n))
			return nil, nil, false
		}
	}
	first := make(map[string]int, len(m.Values))
	for _, mv := range m.Values {
		keyN := d.unwrap(mv.Key)
		if keyN == nil {
			continue
		}
		k, isText := scalar(keyN)
		if !isText {
			d.errorf(keyN, "expected a key, found %s", describe(keyN))
			continue
		}
		if line, dup := first[k]; dup {
			d.errorf(keyN, "duplicate key %s (first at line %d)", quoted(k), line)
			continue
		}
		first[k] = lineOf(keyN)
		if !slices.Contains(keys, k) {
			msg := fmt.Sprintf("unknown key %s in %s", quoted(k), what)
			if hint := step.Closest(k, keys); hint != "" {
				msg += fmt.Sprintf("; did you mean %s?", hint)
				guessed = append(guessed, hint)
			} else {
				msg += fmt.Sprintf("; expected one of %s", strings.Join(keys, ", "))
			}
			d.errorf(keyN, "%s", msg)
			continue
		}
		entries = append(entries, entry{key: k, keyN: keyN, value: mv.Value})
	}
	return entries, guessed, true
}

// sorted returns the recorded problems in file order.
func (d *decoder) sorted() List {
	slices.SortStableFunc(d.errs, func(a, b *Error) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
	return d.errs
}
