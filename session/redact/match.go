package redact

import "sort"

// set matches many patterns in one pass: a byte trie of their first
// trieDepth bytes, entered only at bytes that begin some pattern; a longer
// pattern hangs whole at its trie node and is compared there.
type set struct {
	first  [256]bool
	root   [256]int32 // child of the root by byte; 0: none
	nodes  []node     // nodes[0] is unused (0 means "no node")
	maxLen int
}

type node struct {
	keys []byte
	kids []int32
	term bool     // a pattern ends here
	long []string // patterns longer than trieDepth whose first trieDepth bytes lead here
}

// trieDepth bounds the trie, and so its memory, for long secrets (a key
// file): beyond it, patterns are compared whole.
const trieDepth = 32

func (n *node) child(c byte) int32 {
	for i, k := range n.keys {
		if k == c {
			return n.kids[i]
		}
	}
	return 0
}

// compile builds the set of patterns; nil when there are none.
func compile(patterns []string) *set {
	m := &set{nodes: make([]node, 1, 64)}
	for _, p := range patterns {
		if p == "" {
			continue
		}
		m.first[p[0]] = true
		m.maxLen = max(m.maxLen, len(p))
		cur := m.root[p[0]]
		if cur == 0 {
			m.nodes = append(m.nodes, node{})
			cur = int32(len(m.nodes) - 1)
			m.root[p[0]] = cur
		}
		for i := 1; i < min(len(p), trieDepth); i++ {
			next := m.nodes[cur].child(p[i])
			if next == 0 {
				m.nodes = append(m.nodes, node{})
				next = int32(len(m.nodes) - 1)
				m.nodes[cur].keys = append(m.nodes[cur].keys, p[i])
				m.nodes[cur].kids = append(m.nodes[cur].kids, next)
			}
			cur = next
		}
		if len(p) > trieDepth {
			m.nodes[cur].long = append(m.nodes[cur].long, p)
		} else {
			m.nodes[cur].term = true
		}
	}
	if m.maxLen == 0 {
		return nil
	}
	return m
}

// longest is the length of the longest pattern at s[i:], or 0.
func longest[T string | []byte](m *set, s T, i int) int {
	cur := m.root[s[i]]
	best := 0
	for j := i + 1; cur != 0; j++ {
		n := &m.nodes[cur]
		if n.term {
			best = j - i
		}
		for _, p := range n.long {
			if len(p) > best && hasPrefix(s[i:], p) {
				best = len(p)
			}
		}
		if j >= len(s) {
			break
		}
		cur = m.nodes[cur].child(s[j])
	}
	return best
}

// span is a redacted range [a, b) of bytes.
type span struct{ a, b int }

// find returns the ranges to redact in s, sorted and disjoint: every
// occurrence of every pattern, overlapping ones merged, each widened to
// whole escape sequences.
func find[T string | []byte](m *set, s T) []span {
	var spans []span
	for i := 0; i < len(s); i++ {
		if !m.first[s[i]] {
			continue
		}
		n := longest(m, s, i)
		if n == 0 {
			continue
		}
		a, b := widen(s, i, i+n)
		spans = append(spans, span{a, b})
	}
	if len(spans) < 2 {
		return spans
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].a < spans[j].a })
	out := spans[:1]
	for _, sp := range spans[1:] {
		last := &out[len(out)-1]
		if sp.a < last.b {
			last.b = max(last.b, sp.b)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// apply appends s to dst with each span replaced by Marker.
func apply[T string | []byte](dst []byte, s T, spans []span) []byte {
	last := 0
	for _, sp := range spans {
		dst = append(dst, s[last:sp.a]...)
		dst = append(dst, Marker...)
		last = sp.b
	}
	return append(dst, s[last:]...)
}

// heldFrom is where the tail of b that could begin a pattern starts (len(b)
// when none could): a writer holds those bytes back until more arrive.
func (m *set) heldFrom(b []byte) int {
	for i := max(0, len(b)-m.maxLen+1); i < len(b); i++ {
		if !m.first[b[i]] {
			continue
		}
		cur, j := m.root[b[i]], i+1
		for j < len(b) {
			next := m.nodes[cur].child(b[j])
			if next == 0 {
				break
			}
			cur, j = next, j+1
		}
		n, rest := &m.nodes[cur], b[i:]
		if j == len(b) && (len(n.keys) > 0 || len(n.long) > 0) {
			return i // all of rest is in the trie, and patterns go on
		}
		if len(n.keys) == 0 { // the trie ends here: compare the long ones whole
			for _, p := range n.long {
				if len(p) > len(rest) && p[:len(rest)] == string(rest) {
					return i
				}
			}
		}
	}
	return len(b)
}

// widen moves a back and b forward to the edges of any escape sequence
// (a backslash escape, %XX or an HTML entity) that a or b falls inside.
func widen[T string | []byte](s T, a, b int) (int, int) {
	if ts, _, ok := token(s, a); ok && ts < a {
		a = ts
	}
	if _, te, ok := token(s, b-1); ok && te > b {
		b = te
	}
	return a, b
}

// token returns the escape sequence [ts, te) holding byte p, if any.
func token[T string | []byte](s T, p int) (ts, te int, ok bool) {
	// A backslash escape: the nearest backslash at or before p that is not
	// itself escaped, and what it escapes.
	for j := p; j >= 0 && j > p-10; j-- {
		if s[j] != '\\' {
			continue
		}
		run := 0
		for k := j - 1; k >= 0 && k > j-64 && s[k] == '\\'; k-- {
			run++
		}
		if run%2 == 1 {
			continue // s[j] is escaped by s[j-1]: look at that one
		}
		if end := escapeEnd(s, j); p < end {
			return j, end, true
		}
		break
	}
	// %XX
	for j := max(0, p-2); j <= p; j++ {
		if s[j] == '%' && j+2 < len(s) && isHex(s[j+1]) && isHex(s[j+2]) && p < j+3 {
			return j, j + 3, true
		}
	}
	// &name; &#N; &#xH;
	for j := p; j >= 0 && j > p-12; j-- {
		c := s[j]
		if c == '&' {
			for k := j + 1; k < len(s) && k < j+12; k++ {
				if s[k] == ';' {
					if k > j+1 && p <= k {
						return j, k + 1, true
					}
					break
				}
				if !isEntityByte(s[k]) {
					break
				}
			}
			break
		}
		if !isEntityByte(c) && !(j == p && c == ';') {
			break
		}
	}
	return 0, 0, false
}

// escapeEnd is where the backslash escape that begins at s[j] ends.
func escapeEnd[T string | []byte](s T, j int) int {
	if j+1 >= len(s) {
		return len(s)
	}
	n := 0
	switch s[j+1] {
	case 'u':
		n = 4
	case 'U':
		n = 8
	case 'x':
		n = 2
	}
	end := j + 2
	for k := 0; k < n && end < len(s) && isHex(s[end]); k++ {
		end++
	}
	return end
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isEntityByte(c byte) bool {
	return c == '#' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func hasPrefix[T string | []byte](s T, p string) bool {
	return len(s) >= len(p) && string(s[:len(p)]) == p
}
