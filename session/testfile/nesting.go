package testfile

import (
	"strconv"
	"strings"
)

// The YAML parser's time and memory grow with the square of how deeply
// flow collections ([ and {) are nested: 200 KB of "[" took 24 s and 15 GB.
// tooDeep finds deep nesting before the parser sees the file, in one pass
// whose memory is bounded by the depth limit.
//
// It reads the source the way the parser's scanner (goccy/go-yaml) splits
// it into tokens, so that a "[" or "{" inside a quoted string, a comment, a
// block scalar (| or >), a tag or the middle of plain text is not counted,
// while every one the scanner turns into a collection is. Block nesting
// (indentation, "- " entries, "key:" mappings) counts too, and so do the
// implicit one-pair mappings of flow sequences ([a: b], [[k]: v]) and
// flow collections used as keys. Where the source is ambiguous the scan
// counts a level too many rather than one too few: FuzzNesting checks that
// it never counts fewer levels than the parsed tree has.

// blockLevel is an open block collection: its column (as the scanner
// counts columns) and whether it is a sequence, else a mapping.
type blockLevel struct {
	col int
	seq bool
}

// flowLevel is an open flow collection.
type flowLevel struct {
	kind rune // '[' or '{'
	// pair is set while the current entry of a flow sequence is an
	// implicit one-pair mapping, after its ":".
	pair bool
	// dashes counts the "- " in the current entry: the scanner takes each
	// for a block sequence entry even in a flow collection, and the parser
	// nests a sequence there.
	dashes int
	// entryMax is the deepest nesting below this collection in its
	// current entry, counting the nested collections (not this one nor the
	// pair), and entryAt where it is; all and allAt are the same over the
	// entries already ended.
	entryMax, all  int
	entryAt, allAt pos
	at             pos // where the collection opens
}

// pos is a 1-based line and column in characters.
type pos struct{ line, col int }

// closedFlow is a flow collection at block level that has just closed,
// kept in case a ":" makes it a mapping key.
type closedFlow struct {
	depth int // its nesting, counting itself
	deep  pos // where its deepest collection opens
	col   int // the scanner's column where it opens
}

// nestScan is the state of one scan; see tooDeep.
type nestScan struct {
	src  []rune
	i    int
	line int // of src[i]
	col  int // of src[i], in characters
	gcol int // of src[i], as the scanner counts (tabs may not count)
	max  int

	block []blockLevel
	flow  []flowLevel
	pairs int // implicit levels in flow collections: pairs and dashes

	// The scanner's state that decides what a character means.
	seqNum, mapNum int  // open [ and { as the scanner counts them
	buf            bool // plain text is being read
	bufCol         int  // the scanner's column where it started
	lastDelim      int  // the scanner's column of the last key or "- "
	firstOnLine    bool // nothing but indentation read on this line yet
	anchor         bool // reading an anchor or alias name
	directive      bool // reading a % directive line
	afterValue     bool // the last token was a ":"
	quoteCol       int  // the scanner's column of the last token if it was a quoted scalar
	// plainCol is the scanner's column of the plain text just ended by a
	// line to its left or a comment, or of a block scalar just read, which
	// a ":" after it makes a key.
	plainCol     int
	closed       *closedFlow
	blockFlowCol int // the scanner's column of the open block-level flow collection
	// nodeOpen is set after a "- ", an anchor or a tag with nothing after
	// it yet on its line, emptyLine when such a line ended, and valueLine
	// is the next line, where the scanner may read what starts the line,
	// even at the same column, as the value of that node: the scan then
	// ends no collection at the line's start and counts one more level.
	nodeOpen, emptyLine bool
	valueLine           int
	// propCol is the scanner's column of the first tag or anchor before
	// the node being read on this line: a key after them makes a mapping
	// that starts there.
	propCol int
	// lineI is the index of the first character on the line that is not
	// indentation.
	lineI int

	hit   bool
	hitAt pos
	depth int // the depth reached at hitAt
}

// tooDeep reports where src, a YAML source with "\n" line breaks, first
// nests lists and mappings more than max levels deep: the line and column
// and the depth reached there. ok is false when it never does.
func tooDeep(src []rune, max int) (line, col, depth int, ok bool) {
	s := &nestScan{src: src, line: 1, col: 1, gcol: 1, max: max, firstOnLine: true}
	s.run()
	return s.hitAt.line, s.hitAt.col, s.depth, s.hit
}

// check records that nesting reaches depth at p, if that is past the
// limit.
func (s *nestScan) check(depth int, p pos) {
	if depth > s.max && !s.hit {
		s.hit, s.depth, s.hitAt = true, depth, p
	}
}

// level is the nesting at the current point: open block collections, open
// flow collections and implicit pairs.
func (s *nestScan) level() int { return len(s.block) + len(s.flow) + s.pairs }

func (s *nestScan) here() pos { return pos{s.line, s.col} }

func (s *nestScan) flowMode() bool { return s.seqNum > 0 || s.mapNum > 0 }

// peek returns the character k places ahead, or 0 past the end.
func (s *nestScan) peek(k int) rune {
	if s.i+k < len(s.src) {
		return s.src[s.i+k]
	}
	return 0
}

// step moves past one character, counting lines and columns; it does not
// change what the scanner expects next.
func (s *nestScan) step() {
	if s.src[s.i] == '\n' {
		s.line++
		s.col, s.gcol = 1, 1
	} else {
		s.col++
		s.gcol++
	}
	s.i++
}

// property starts a tag or an anchor.
func (s *nestScan) property() {
	col := s.propCol
	if col == 0 {
		col = s.gcol
	}
	s.token()
	s.propCol = col
}

// newLine moves past a line break outside a token.
func (s *nestScan) newLine() {
	s.propCol = 0
	if s.nodeOpen || s.anchor {
		s.emptyLine = true
	}
	s.nodeOpen = false
	s.step()
	s.firstOnLine = true
	s.anchor, s.directive = false, false
}

func isBlank(r rune) bool { return r == ' ' || r == '\t' }

func isBreakOrBlank(r rune) bool { return r == 0 || r == ' ' || r == '\t' || r == '\n' }

// token resets the state after a token that is not plain text.
func (s *nestScan) token() {
	s.buf = false
	s.afterValue = false
	s.quoteCol = 0
	s.closed = nil
	s.nodeOpen = false
	s.plainCol = 0
	s.propCol = 0
}

func (s *nestScan) run() {
	for s.i < len(s.src) && !s.hit {
		c := s.src[s.i]
		if s.firstOnLine && c != '\n' && c != ' ' && c != '\t' {
			s.firstOnLine = false
			s.lineStart()
		}
		switch c {
		case '\n':
			if s.anchor || s.directive {
				s.buf = false
			}
			s.newLine()
			continue
		case ' ':
			if !s.firstOnLine && (s.anchor || s.directive) {
				s.buf = false
				if s.anchor {
					s.anchor = false
					s.nodeOpen = true
				}
			}
			s.step()
			continue
		case '\t':
			s.tab()
			continue
		case '[', '{':
			if !s.buf || s.flowMode() {
				s.open(c)
				continue
			}
		case ']':
			if !s.buf || s.seqNum > 0 {
				s.close(c)
				continue
			}
		case '}':
			if s.mapNum > 0 {
				s.close(c)
				continue
			}
		case ',':
			if s.flowMode() {
				s.entry()
				continue
			}
		case ':':
			if s.mapDelim() {
				continue
			}
		case '-':
			if s.docMarker('-') {
				continue
			}
			if !s.buf && isBreakOrBlank(s.peek(1)) {
				s.dash()
				continue
			}
		case '.':
			if s.docMarker('.') {
				continue
			}
		case '?':
			if !s.buf && isBlank(s.peek(1)) {
				s.explicitKey()
				continue
			}
		case '|', '>':
			if !s.buf {
				s.blockScalar()
				continue
			}
		case '!':
			if !s.buf && !s.directive {
				s.tag()
				continue
			}
		case '%':
			if !s.buf && s.gcol == 1 {
				s.token()
				s.directive = true
				s.step()
				continue
			}
		case '&', '*':
			if !s.buf {
				s.property()
				s.anchor = true
				s.step()
				continue
			}
		case '#':
			if !s.buf || (s.i > 0 && (isBlank(s.src[s.i-1]) || s.src[s.i-1] == '\n')) {
				s.comment()
				continue
			}
		case '"', '\'':
			if !s.buf {
				s.quoted(c)
				continue
			}
		}
		if !s.buf { // plain text starts
			s.buf, s.bufCol = true, s.gcol
			s.afterValue, s.quoteCol, s.closed, s.nodeOpen, s.plainCol = false, 0, nil, false, 0
		}
		s.step()
	}
}

// lineStart handles the first character of a line that is not
// indentation: a line at or left of the last key or "- " ends the plain
// text being read, and the block collections right of it end.
func (s *nestScan) lineStart() {
	s.lineI = s.i
	s.valueLine = 0
	if s.emptyLine {
		s.valueLine, s.emptyLine = s.line, false
	}
	if s.lastDelim != 0 && s.gcol <= s.lastDelim && s.buf {
		s.buf = false
		s.plainCol = s.bufCol
	}
	if len(s.flow) == 0 && s.valueLine != s.line {
		for len(s.block) > 0 && s.block[len(s.block)-1].col > s.gcol {
			s.block = s.block[:len(s.block)-1]
		}
	}
}

// tab moves past a tab, which the scanner does not always count as a
// column.
func (s *nestScan) tab() {
	counts := !(s.buf && s.lastDelim == 0) && !(s.lastDelim < s.gcol)
	s.i++
	s.col++
	if counts {
		s.gcol++
	}
}

// push opens the block collection at col that a key or "- " there
// implies, unless it is open already.
func (s *nestScan) push(col int, seq bool) {
	if s.valueLine == s.line {
		s.valueLine = 0
		s.block = append(s.block, blockLevel{col: col, seq: seq})
		s.check(s.level(), s.here())
		return
	}
	if n := len(s.block); n > 0 && !seq {
		if top := s.block[n-1]; top.col == col && top.seq {
			s.block = s.block[:n-1] // a key at a sequence's column ends it
		}
	}
	if n := len(s.block); n > 0 {
		top := s.block[n-1]
		if top.col == col && top.seq == seq {
			return
		}
		if top.col > col {
			return
		}
	}
	s.block = append(s.block, blockLevel{col: col, seq: seq})
	s.check(s.level(), s.here())
}

// open reads a "[" or "{".
func (s *nestScan) open(c rune) {
	at := s.here()
	if len(s.flow) == 0 {
		s.blockFlowCol = s.gcol
	}
	if c == '[' {
		s.seqNum++
	} else {
		s.mapNum++
	}
	s.flow = append(s.flow, flowLevel{kind: c, at: at})
	s.token()
	s.step()
	s.check(s.level(), at)
}

// close reads a "]" or "}".
func (s *nestScan) close(c rune) {
	if c == ']' {
		s.seqNum--
	} else {
		s.mapNum--
	}
	s.token()
	open := '['
	if c == '}' {
		open = '{'
	}
	n := len(s.flow)
	if n == 0 || s.flow[n-1].kind != open {
		// unbalanced, which the parser refuses: keep what is open counted
		s.step()
		return
	}
	f := s.flow[n-1]
	s.flow = s.flow[:n-1]
	s.pairs -= f.implicit()
	d, deep := f.deepest()
	d++ // the collection itself
	if n > 1 {
		parent := &s.flow[n-2]
		if d > parent.entryMax {
			parent.entryMax, parent.entryAt = d, deep
		}
	} else {
		s.closed = &closedFlow{depth: d, deep: deep, col: s.blockFlowCol}
	}
	s.step()
}

// deepest returns the nesting below f over all its entries, and where it
// is; f's own position when nothing is nested in it.
func (f *flowLevel) deepest() (int, pos) {
	d, at := f.entryMax+f.implicit(), f.entryAt
	if f.all > d {
		d, at = f.all, f.allAt
	}
	if at.line == 0 {
		at = f.at
	}
	return d, at
}

// entry reads a "," in a flow collection.
func (s *nestScan) entry() {
	s.token()
	if n := len(s.flow); n > 0 {
		f := &s.flow[n-1]
		d := f.entryMax + f.implicit()
		s.pairs -= f.implicit()
		f.pair, f.dashes = false, 0
		if d > f.all {
			f.all, f.allAt = d, f.entryAt
		}
		f.entryMax, f.entryAt = 0, pos{}
	}
	s.step()
}

// mapDelim reads a ":" if the scanner takes it for a mapping value, and
// reports whether it did.
func (s *nestScan) mapDelim() bool {
	nc := s.peek(1)
	switch {
	case s.directive || s.anchor:
		return false
	case s.mapNum <= 0 && !isBreakOrBlank(nc):
		return false
	case s.mapNum > 0 && (nc == '/' || s.afterValue):
		return false
	}
	keyCol := s.gcol
	switch {
	case s.buf:
		keyCol = s.bufCol
		s.lastDelim = s.bufCol
	case s.quoteCol != 0:
		keyCol = s.quoteCol
		s.lastDelim = s.quoteCol
	case s.closed != nil:
		keyCol = s.closed.col
	case s.plainCol != 0:
		keyCol = s.plainCol
	}
	if s.propCol != 0 && (s.buf || s.quoteCol != 0) {
		keyCol = min(keyCol, s.propCol)
	}
	closed := s.closed
	if len(s.flow) == 0 && s.i == s.lineI && !s.buf {
		// a ":" starting a line makes a key of what came before, which the
		// parser may nest as a mapping inside the value before it
		s.valueLine = s.line
	}
	if len(s.flow) == 0 {
		s.push(keyCol, false)
		if closed != nil { // a flow collection as a key
			s.check(len(s.block)+closed.depth, closed.deep)
		}
	} else if f := &s.flow[len(s.flow)-1]; f.kind == '[' && !f.pair {
		f.pair = true
		s.pairs++
		at := f.entryAt
		if at.line == 0 {
			at = s.here()
		}
		s.check(s.level()+f.entryMax, at)
	}
	s.token()
	s.afterValue = true
	s.step()
	return true
}

// dash reads a "- " sequence entry.
func (s *nestScan) dash() {
	s.lastDelim = s.gcol
	if len(s.flow) == 0 {
		s.push(s.gcol, true)
	} else {
		s.flow[len(s.flow)-1].dashes++
		s.pairs++
		s.check(s.level(), s.here())
	}
	s.token()
	s.nodeOpen = true
	s.step()
}

// implicit is how many levels the current entry of f adds besides f.
func (f *flowLevel) implicit() int {
	n := f.dashes
	if f.pair {
		n++
	}
	return n
}

// explicitKey reads a "? " mapping key.
func (s *nestScan) explicitKey() {
	s.lastDelim = s.gcol
	if len(s.flow) == 0 {
		s.push(s.gcol, false)
	} else if f := &s.flow[len(s.flow)-1]; f.kind == '[' && !f.pair {
		f.pair = true
		s.pairs++
		s.check(s.level(), s.here())
	}
	s.token()
	s.step()
}

// docMarker reads a "---" or "..." at the start of a line, if there is
// one, and reports whether there was.
func (s *nestScan) docMarker(c rune) bool {
	if s.gcol != 1 || s.col != 1 {
		return false
	}
	n := 0
	for s.i+n < len(s.src) && s.src[s.i+n] == c {
		n++
	}
	if n != 3 || (c == '-' && !isBreakOrBlank(s.peek(3))) {
		return false
	}
	s.token()
	if c == '-' {
		s.block = s.block[:0]
		s.lastDelim = 0
	}
	for range 3 {
		s.step()
	}
	return true
}

// blockScalar skips a literal (|) or folded (>) scalar: its header and the
// lines the scanner reads as its content. Content ends at a line that
// starts at or left of the last key or "- ", or, once the first content
// line is seen (or given by an indentation indicator such as |2), left of
// the content's column.
func (s *nestScan) blockScalar() {
	if s.gcol == 1 {
		s.lastDelim = 1
	}
	s.token()
	// a ":" after the scalar makes it a key
	defer func(col int) { s.plainCol = col }(s.gcol)
	s.step() // the | or >
	var header []rune
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		header = append(header, s.src[s.i])
		s.step()
	}
	if s.i >= len(s.src) {
		return
	}
	s.step()   // the header's line break
	first := 0 // the content's column
	if n := headerIndent(header); n > 0 {
		first = s.lastDelim + n
	}
	for s.i < len(s.src) {
		// s is at the start of a content line
		start, line := s.i, s.line
		j, col := s.i, 1
		for j < len(s.src) && isBlank(s.src[j]) {
			j++
			col++
		}
		if j >= len(s.src) {
			break
		}
		if s.src[j] != '\n' {
			if s.separatorAt(start) || (s.lastDelim != 0 && col <= s.lastDelim) {
				break
			}
			if first == 0 {
				first = col
			}
			if first > 1 {
				s.lastDelim = first - 1
			}
		}
		for j < len(s.src) && s.src[j] != '\n' {
			j++
		}
		if j < len(s.src) {
			j++
			line++
		}
		s.i, s.line = j, line
	}
	s.col, s.gcol = 1, 1
	s.firstOnLine = true
	s.anchor, s.directive = false, false
}

// headerIndent returns the indentation indicator of a block scalar header
// (what follows | or > on its line), read as the scanner reads it, or 0.
func headerIndent(header []rune) int {
	opt := strings.TrimRight(string(header), " ")
	if i := strings.Index(opt, "#"); i > 0 {
		opt = opt[:i]
	}
	opt = strings.TrimRight(opt, " \t")
	opt = strings.TrimPrefix(opt, "-")
	opt = strings.TrimPrefix(opt, "+")
	opt = strings.TrimSuffix(opt, "-")
	opt = strings.TrimSuffix(opt, "+")
	n, err := strconv.Atoi(opt)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// separatorAt reports whether a "---" or "..." document marker starts at
// index i, as the scanner finds one inside a block scalar.
func (s *nestScan) separatorAt(i int) bool {
	rest := s.src[i:]
	if len(rest) < 3 {
		return false
	}
	m := string(rest[:3])
	if m != "---" && m != "..." {
		return false
	}
	return len(rest) == 3 || isBreakOrBlank(rest[3])
}

// tag reads a "!tag".
func (s *nestScan) tag() {
	s.property()
	s.step()
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == ' ':
			s.step()
			s.nodeOpen = true
			return
		case c == '\n', c == ',' && s.flowMode(), c == '{', c == '}':
			// ("{" and "}" make the scanner fail; counting them is safe)
			s.nodeOpen = true
			return
		}
		s.step()
	}
}

// comment skips a comment and its line break.
func (s *nestScan) comment() {
	open, plain := s.nodeOpen, s.plainCol
	if s.buf {
		plain = s.bufCol
	}
	s.token()
	s.nodeOpen, s.plainCol = open, plain
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		s.step()
	}
	if s.i < len(s.src) {
		s.newLine()
	}
}

// quoted skips a quoted scalar, ending where the scanner ends it.
func (s *nestScan) quoted(q rune) {
	col := s.gcol
	prop := s.propCol
	s.token()
	s.propCol = prop
	startLine := s.line
	s.step()
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == q && q == '\'' && s.peek(1) == '\'':
			s.step()
			s.step()
			continue
		case c == q:
			s.step()
			s.quoteCol = col
			if s.line != startLine {
				// the scanner reads on as if at the start of a line
				s.firstOnLine = true
			}
			return
		case c == '\\' && q == '"' && s.i+1 < len(s.src):
			for range s.escapeLen() {
				s.step()
			}
			continue
		}
		s.step()
	}
}

// escapeLen is how many characters the scanner takes for the escape
// sequence at s.i, the backslash included.
func (s *nestScan) escapeLen() int {
	rest := s.src[s.i:]
	switch rest[1] {
	case 'x':
		if len(rest) > 3 {
			return 4
		}
	case 'u':
		if len(rest) > 5 {
			if code := hexValue(rest[2:6]); code >= 0xD800 && code <= 0xDBFF && len(rest) > 11 {
				return 12
			}
			return 6
		}
	case 'U':
		if len(rest) > 9 {
			return 10
		}
	}
	return 2
}

// hexValue reads hex digits as the scanner does, without checking them.
func hexValue(rs []rune) int {
	n := 0
	for _, r := range rs {
		v := int(r) - '0'
		switch {
		case r >= 'A' && r <= 'F':
			v = int(r) - 'A' + 10
		case r >= 'a' && r <= 'f':
			v = int(r) - 'a' + 10
		}
		n = n*16 + v
	}
	return n
}
