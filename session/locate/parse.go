package locate

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word of a description, or one quoted string.
type token struct {
	text   string // as written; for a quoted token, the text between the quotes
	low    string
	quoted bool
	upper  bool // the word starts with an upper-case letter
}

// closers pairs opening quote characters with the ones that may close them.
var closers = map[rune]string{
	'"': "\"”“", '“': "”\"", '”': "”\"", '„': "“”\"", '«': "»", '\'': "'’", '‘': "’'", '’': "’'", '`': "`",
}

// tokenize splits a description into words and quoted strings. A single
// quote opens a string only at the start of a word and closes one only at
// the end of a word, so that "Alice's row" stays two words.
func tokenize(s string) []token {
	var out []token
	var word strings.Builder
	flush := func() {
		if word.Len() == 0 {
			return
		}
		w := trimWord(word.String())
		word.Reset()
		if w == "" {
			return
		}
		r, _ := utf8.DecodeRuneInString(w)
		out = append(out, token{text: w, low: strings.ToLower(w), upper: unicode.IsUpper(r)})
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if cl, ok := closers[r]; ok && word.Len() == 0 {
			if j := closingQuote(rs, i, cl, r == '\'' || r == '‘' || r == '’'); j > 0 {
				text := strings.Join(strings.Fields(string(rs[i+1:j])), " ")
				if text != "" {
					out = append(out, token{text: text, low: strings.ToLower(text), quoted: true})
				}
				i = j
				continue
			}
		}
		if unicode.IsSpace(r) {
			flush()
			continue
		}
		word.WriteRune(r)
	}
	flush()
	return out
}

// closingQuote finds the quote that closes the one at rs[i], or -1. For
// single quotes, the closing one must end a word.
func closingQuote(rs []rune, i int, cl string, single bool) int {
	for j := i + 1; j < len(rs); j++ {
		if !strings.ContainsRune(cl, rs[j]) {
			continue
		}
		if single {
			if j+1 < len(rs) && !unicode.IsSpace(rs[j+1]) && !unicode.IsPunct(rs[j+1]) {
				continue // an apostrophe inside a word
			}
		}
		if j == i+1 {
			return -1
		}
		return j
	}
	return -1
}

// trimWord drops punctuation around a word and a possessive ending.
func trimWord(w string) string {
	w = strings.TrimLeft(w, ",;:!?()[]{}\"'“”‘’«»`")
	w = strings.TrimRight(w, ",;:!?()[]{}.\"'“”‘’«»`")
	for _, suf := range []string{"'s", "’s"} {
		if len(w) > len(suf) && strings.HasSuffix(strings.ToLower(w), suf) {
			w = w[:len(w)-len(suf)]
		}
	}
	return w
}

// query is a parsed description.
type query struct {
	desc    string
	role    *roleDef
	name    nameSpec
	color   string // a colour class, e.g. "blue"
	ordinal int    // 1-based; negative counts from the end; 0 none
	clauses []clause
	ignored []string // words noticed and not judged (sizes)

	// modifiers says an ordinal or colour word was read as such; modUpper
	// that one of them was capitalised mid-sentence (so perhaps a name).
	modifiers bool
	modUpper  bool
	keywords  bool // a relation keyword started a clause
	roleUpper bool // the role word was capitalised ("Menu")
	action    bool // the description starts with an action ("click the …"): only interactable nodes fit
	anchorOf  bool // the anchor of a position clause: text on screen counts as a landmark
}

// empty says the query asks for nothing at all.
func (q *query) empty() bool {
	return q.role == nil && q.name.empty() && q.color == "" && len(q.clauses) == 0
}

// nameSpec is the name a description gives.
type nameSpec struct {
	phrase string   // as written, for an exact comparison
	words  []string // normalised words, for word-by-word comparison
	quoted bool
}

func (n nameSpec) empty() bool { return n.phrase == "" }

// clause is one related element of a description.
type clause struct {
	kind    kwKind
	rel     string   // "in", "for", "with", "has", "next to", "above", "below", "left of", "right of"
	role    *roleDef // the container (in) or descendant (has) role; nil for any
	name    nameSpec // the container's name (in/for/with), or the descendant's (has)
	roleTok string   // the container role word as written, for "cookie banner"
	full    nameSpec // name and role word together: "cookie banner"
	nested  *roleDef // "the row menu": the name is itself a container role word
	ordinal int      // "in the second row"
	anchor  *query   // spatial: the element it is placed against; has: the descendant
	text    string   // the clause as written
}

// mode chooses how ambiguous words are read.
type mode struct {
	modifiersAsName bool // ordinal and colour words are name words
	roleAsName      bool // the role word is a name word
	noClauses       bool // relation keywords are name words
}

// parse reads a description.
func parse(desc string, m mode) *query {
	toks := tokenize(desc)
	q := &query{desc: desc}
	if n := actionAt(toks); n > 0 {
		q.action, toks = true, toks[n:]
	}
	target, clauses := split(toks, m)
	parseTarget(q, target, m)
	for _, c := range clauses {
		if c.anchor != nil {
			parseTarget(c.anchor, c.anchorToks, mode{modifiersAsName: m.modifiersAsName, noClauses: true})
			c.anchor.anchorOf = c.kind == kwSpatial
		}
		q.clauses = append(q.clauses, c.clause)
		q.keywords = true
	}
	return q
}

type rawClause struct {
	clause
	anchorToks []token
}

// actionAt returns how many tokens an action at the start of a description
// spans ("click", "click on", "type into"), or 0. Verbs that are also names
// or role words ("select", "check", "open") count only when an article or a
// preposition follows: "Select all checkbox" is a name, "select the First
// option" an action.
func actionAt(toks []token) int {
	if len(toks) < 2 || toks[0].quoted {
		return 0
	}
	v := toks[0].low
	n := 0
	if actionVerbs[v] {
		n = 1
	} else if len(toks) > 2 && !toks[1].quoted && actionVerbs[v+" "+toks[1].low] {
		n = 2 // "double click", "fill in", "scroll to"
	} else if weakVerbs[v] && !toks[1].quoted && (articles[toks[1].low] || actionPreps[toks[1].low]) {
		n = 1
	} else {
		return 0
	}
	if n < len(toks)-1 && !toks[n].quoted && actionPreps[toks[n].low] {
		n++
	}
	if n >= len(toks) {
		return 0
	}
	return n
}

// keywordAt returns the keyword that starts at toks[i], if any.
func keywordAt(toks []token, i int) (keyword, bool) {
	if toks[i].quoted {
		return keyword{}, false
	}
	// "next to last" and "second to last" are ordinals, not relations.
	if n, l := ordinalAt(toks, i); n != 0 && l > 1 {
		return keyword{}, false
	}
	if i > 0 {
		if n, l := ordinalAt(toks, i-1); n != 0 && l > 1 {
			return keyword{}, false
		}
	}
	if introducerAt(toks, i) > 0 {
		return keyword{}, false // "with the text …"
	}
	for _, k := range keywords {
		if i+len(k.words) > len(toks) {
			continue
		}
		ok := true
		for j, w := range k.words {
			if toks[i+j].quoted || toks[i+j].low != w {
				ok = false
				break
			}
		}
		if ok {
			return k, true
		}
	}
	return keyword{}, false
}

// split cuts the tokens into the target phrase and its clauses. A keyword
// starts a clause only when what follows reads as one ("in the Alice row"
// does, "Sign in button" does not); otherwise it is part of the name.
func split(toks []token, m mode) ([]token, []rawClause) {
	if m.noClauses {
		return toks, nil
	}
	type hit struct {
		at int
		k  keyword
	}
	var hits []hit
	for i := 1; i < len(toks); i++ {
		if k, ok := keywordAt(toks, i); ok {
			hits = append(hits, hit{i, k})
			i += len(k.words) - 1
		}
	}
	// Right to left, find where each keyword's clause ends: at the nearest
	// later keyword that starts a clause of its own, else further on
	// ("in the Log in dialog", "above the Sign in button").
	ends := make([]int, len(hits))
	clauses := make([]rawClause, len(hits))
	for h := len(hits) - 1; h >= 0; h-- {
		ends[h] = -1
		start := hits[h].at + len(hits[h].k.words)
		var stops []int
		for e := h + 1; e < len(hits); e++ {
			if ends[e] >= 0 {
				stops = append(stops, hits[e].at)
			}
		}
		stops = append(stops, len(toks))
		for _, end := range stops {
			if end <= start {
				continue
			}
			if rc, ok := readClause(hits[h].k, toks[start:end]); ok {
				rc.text = joinText(toks[hits[h].at:end])
				ends[h], clauses[h] = end, rc
				break
			}
		}
	}
	var target []token
	var out []rawClause
	pos := 0 // tokens before pos are used
	for h := range hits {
		if hits[h].at < pos || ends[h] < 0 {
			continue // swallowed by an earlier clause, or part of a name
		}
		target = append(target, toks[pos:hits[h].at]...)
		out = append(out, clauses[h])
		pos = ends[h]
	}
	// Words that formed no clause belong to the target, most likely its name.
	target = append(target, toks[pos:]...)
	if len(target) == 0 || onlyArticles(target) {
		// Nothing before the first clause: read everything as the target.
		return toks, nil
	}
	return target, out
}

func onlyArticles(toks []token) bool {
	for _, t := range toks {
		if t.quoted || !articles[t.low] {
			return false
		}
	}
	return true
}

func joinText(toks []token) string {
	parts := make([]string, len(toks))
	for i, t := range toks {
		if t.quoted {
			parts[i] = strconv.Quote(t.text)
		} else {
			parts[i] = t.text
		}
	}
	return strings.Join(parts, " ")
}

// roleSpan is a role word or phrase found in a run of tokens.
type roleSpan struct {
	at, n int
	def   roleDef
}

// roleAt returns the longest role phrase starting at toks[i].
func roleAt(toks []token, i int) (roleSpan, bool) {
	for n := 3; n >= 1; n-- {
		if i+n > len(toks) {
			continue
		}
		parts := make([]string, n)
		ok := true
		for j := 0; j < n; j++ {
			if toks[i+j].quoted {
				ok = false
				break
			}
			parts[j] = toks[i+j].low
		}
		if !ok {
			continue
		}
		if d, found := roleWords[strings.Join(parts, " ")]; found {
			return roleSpan{i, n, d}, true
		}
	}
	return roleSpan{}, false
}

// rightmostRole finds the last role phrase in toks (the head noun).
func rightmostRole(toks []token) (roleSpan, bool) {
	var best roleSpan
	found := false
	for i := 0; i < len(toks); i++ {
		if r, ok := roleAt(toks, i); ok {
			if !found || r.at+r.n >= best.at+best.n {
				best, found = r, true
			}
			i += r.n - 1
		}
	}
	return best, found
}

// readClause checks that the words after a keyword read as a clause of
// that kind and parses them.
func readClause(k keyword, toks []token) (rawClause, bool) {
	body := stripArticles(toks)
	if len(body) == 0 {
		return rawClause{}, false
	}
	role, hasRole := rightmostRole(body)
	lowerNonContainer := false
	for i := 0; i < len(body); i++ {
		if r, ok := roleAt(body, i); ok {
			if !r.def.container && !body[i].upper {
				lowerNonContainer = true
			}
			i += r.n - 1
		}
	}
	kind := k.kind
	if kind == kwSpatial && k.words[0] == "under" && hasRole && role.def.container && role.def.strong[0] != "heading" {
		kind = kwIn // "under the Settings menu"
	}
	switch kind {
	case kwIn:
		if !hasRole || !role.def.container || lowerNonContainer {
			return rawClause{}, false
		}
		return containerClause("in", body, role), true
	case kwFor:
		if lowerNonContainer {
			return rawClause{}, false
		}
		if hasRole && role.def.container {
			return containerClause("in", body, role), true
		}
		return rawClause{clause: clause{kind: kwFor, rel: "for", name: makeName(body)}}, true
	case kwWith:
		if hasRole {
			anchor := &query{desc: joinText(toks)}
			return rawClause{clause: clause{kind: kwWith, rel: "has", anchor: anchor}, anchorToks: body}, true
		}
		return rawClause{clause: clause{kind: kwFor, rel: "for", name: makeName(body)}}, true
	case kwSpatial:
		anchor := &query{desc: joinText(toks)}
		return rawClause{clause: clause{kind: kwSpatial, rel: k.rel, anchor: anchor}, anchorToks: body}, true
	}
	return rawClause{}, false
}

// containerClause builds an "in" clause from its words: an optional
// ordinal, the container's name and its role word.
func containerClause(rel string, body []token, role roleSpan) rawClause {
	c := clause{kind: kwIn, rel: rel}
	def := role.def
	c.role = &def
	c.roleTok = joinText(body[role.at : role.at+role.n])
	var rest []token
	for i := 0; i < len(body); i++ {
		if i == role.at {
			i += role.n - 1
			continue
		}
		if c.ordinal == 0 {
			if n, l := ordinalAt(body, i); n != 0 {
				c.ordinal = n
				i += l - 1
				continue
			}
		}
		rest = append(rest, body[i])
	}
	c.name = makeName(rest)
	c.full = makeName(append(append([]token(nil), rest...), body[role.at:role.at+role.n]...))
	if len(rest) == 1 && !rest[0].quoted && !rest[0].upper {
		if d, ok := roleWords[rest[0].low]; ok && d.container {
			c.nested = &d
		}
	}
	return rawClause{clause: c}
}

// stripArticles drops articles, and filler words written in lower case,
// from both ends.
func stripArticles(toks []token) []token {
	drop := func(t token) bool {
		return !t.quoted && (articles[t.low] || filler[t.low] && !t.upper)
	}
	for len(toks) > 0 && drop(toks[0]) {
		toks = toks[1:]
	}
	for len(toks) > 0 && drop(toks[len(toks)-1]) {
		toks = toks[:len(toks)-1]
	}
	return toks
}

// ordinalAt reads an ordinal at toks[i]: "second", "2nd", "#2", "last",
// "second to last", "next to last", "second last", "last but one".
// It returns the ordinal and the number of tokens it spans.
func ordinalAt(toks []token, i int) (int, int) {
	t := toks[i]
	if t.quoted {
		return 0, 0
	}
	low := func(j int) string {
		if j < len(toks) && !toks[j].quoted {
			return toks[j].low
		}
		return ""
	}
	if (t.low == "second" || t.low == "next") && low(i+1) == "to" && low(i+2) == "last" {
		return -2, 3
	}
	if t.low == "third" && low(i+1) == "to" && low(i+2) == "last" {
		return -3, 3
	}
	if t.low == "second" && low(i+1) == "last" {
		return -2, 2
	}
	if t.low == "last" && low(i+1) == "but" && low(i+2) == "one" {
		return -2, 3
	}
	if n, ok := ordinalWords[t.low]; ok {
		return n, 1
	}
	if strings.HasPrefix(t.low, "#") {
		if n, err := strconv.Atoi(t.low[1:]); err == nil && n > 0 && n < 100000 {
			return n, 1
		}
	}
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if strings.HasSuffix(t.low, suf) {
			if n, err := strconv.Atoi(strings.TrimSuffix(t.low, suf)); err == nil && n > 0 && n < 100000 {
				return n, 1
			}
		}
	}
	return 0, 0
}

// parseTarget reads the phrase that describes the element itself (or an
// anchor): ordinal, colour, role word and name.
func parseTarget(q *query, toks []token, m mode) {
	var kept []token
	mid := false // past the first word: a capital there may be part of a name
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.quoted && !m.modifiersAsName {
			if q.ordinal == 0 {
				if n, l := ordinalAt(toks, i); n != 0 {
					q.ordinal, q.modifiers = n, true
					if t.upper && mid {
						q.modUpper = true
					}
					i += l - 1
					mid = true
					continue
				}
			}
			if c, ok := colorWords[t.low]; ok && q.color == "" {
				q.color, q.modifiers = c, true
				if t.upper && mid {
					q.modUpper = true
				}
				// "dark blue": drop the shade before it; "blue colored": the suffix after.
				if len(kept) > 0 && shades[kept[len(kept)-1].low] {
					kept = kept[:len(kept)-1]
				}
				if i+1 < len(toks) && !toks[i+1].quoted && isColoredWord(toks[i+1].low) {
					i++
				}
				mid = true
				continue
			}
		}
		if !t.quoted && sizeWords[t.low] {
			q.ignored = append(q.ignored, t.text)
			mid = true
			continue
		}
		if !t.quoted && (strings.HasSuffix(t.low, "-colored") || strings.HasSuffix(t.low, "-coloured")) {
			base := t.low[:strings.IndexByte(t.low, '-')]
			if c, ok := colorWords[base]; ok && !m.modifiersAsName && q.color == "" {
				q.color, q.modifiers = c, true
				mid = true
				continue
			}
		}
		mid = true
		kept = append(kept, t)
	}
	// An introducer ("labeled", "that says") puts the name after it and the
	// role before it.
	roleToks, nameToks := kept, []token(nil)
	intro := -1
	introLen := 0
	for i := 0; i < len(kept) && intro < 0; i++ {
		if l := introducerAt(kept, i); l > 0 && i+l < len(kept) {
			intro, introLen = i, l
		}
	}
	if intro >= 0 {
		roleToks, nameToks = kept[:intro], kept[intro+introLen:]
	}
	if !m.roleAsName {
		if r, ok := rightmostRole(roleToks); ok {
			def := r.def
			q.role = &def
			q.roleUpper = roleToks[r.at].upper
			if intro < 0 {
				nameToks = append(append([]token(nil), roleToks[:r.at]...), roleToks[r.at+r.n:]...)
			}
		} else if intro < 0 {
			nameToks = roleToks
		}
	} else if intro < 0 {
		nameToks = roleToks
	} else {
		nameToks = append(append([]token(nil), roleToks...), nameToks...)
	}
	q.name = makeName(nameToks)
}

// introducerAt returns the length of the introducer at toks[i], or 0.
func introducerAt(toks []token, i int) int {
	for _, in := range introducers {
		if i+len(in) > len(toks) {
			continue
		}
		ok := true
		for j, w := range in {
			if toks[i+j].quoted || toks[i+j].low != w {
				ok = false
				break
			}
		}
		if ok {
			return len(in)
		}
	}
	return 0
}

func isColoredWord(s string) bool {
	return s == "colored" || s == "coloured" || s == "color" || s == "colour" || s == "-colored" || s == "ish"
}

// makeName builds a name from the tokens left once role, ordinal and colour
// words are gone.
func makeName(toks []token) nameSpec {
	toks = stripArticles(toks)
	if len(toks) == 0 {
		return nameSpec{}
	}
	if len(toks) == 1 && toks[0].quoted {
		return nameSpec{phrase: toks[0].text, words: words(toks[0].text), quoted: true}
	}
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = t.text
	}
	phrase := strings.Join(parts, " ")
	var ws []string
	for _, w := range words(phrase) {
		if !filler[w] && !articles[w] {
			ws = append(ws, w)
		}
	}
	return nameSpec{phrase: phrase, words: ws}
}

// words splits text into normalised comparison words: lower case, letters
// and digits only, stopwords dropped, simple plurals folded.
func words(s string) []string {
	var out []string
	start := -1
	s = strings.ToLower(s)
	emit := func(w string) {
		if w == "" || stopwords[w] {
			return
		}
		out = append(out, stem(w))
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			emit(s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		emit(s[start:])
	}
	return out
}

// wordJoins says, for each word of s as words reads it, whether it is
// joined to the next word into one token, with no space between (see
// joiner): "Diaz-Ortega" is one name and "cara.diaz@example.com" one
// address, so "Cara Diaz" is a run of the words of neither (see wholeRun).
// A stopword words leaves out inside a token keeps the join
// ("Jean-de-Luc").
func wordJoins(s string) []bool {
	type run struct {
		w          string
		start, end int
	}
	var runs []run
	start := -1
	s = strings.ToLower(s)
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			runs = append(runs, run{s[start:i], start, i})
			start = -1
		}
	}
	if start >= 0 {
		runs = append(runs, run{s[start:], start, len(s)})
	}
	var out []bool
	last := -1 // the run of the last word kept
	for k, r := range runs {
		if stopwords[r.w] {
			continue
		}
		if last >= 0 {
			joined := true
			for j := last; j < k && joined; j++ {
				joined = joiner(s[runs[j].end:runs[j+1].start])
			}
			out[len(out)-1] = joined
		}
		out = append(out, false)
		last = k
	}
	return out
}

// joiner says sep, the text between two words, makes them one token: a
// hyphen ("Diaz-Ortega"), a dot ("1.5", "cara.diaz"), an at sign or an
// underscore, alone. An apostrophe does not: "Alice's" is Alice.
func joiner(sep string) bool {
	switch sep {
	case "-", "\u2010", "\u2011", ".", "@", "_":
		return true
	}
	return false
}

// stem folds a plural ending so that "items" matches "item".
func stem(w string) string {
	if len(w) > 4 && strings.HasSuffix(w, "ies") {
		return w[:len(w)-3] + "y"
	}
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
		return w[:len(w)-1]
	}
	return w
}
