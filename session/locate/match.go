package locate

import (
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/e2e-dev/e2e/session/ax"
)

// Weights of the parts of a score. A name that matches exactly is worth 1.
const (
	wRoleStrong  = 0.5  // the role word names the node's role
	wRoleWeak    = 0.15 // the role word loosely fits ("button" for a link)
	wInteractive = 0.3  // no role word: prefer what can be acted on
	wName        = 1.0  // × name quality (exact 1, same words 0.92, starts with 0.65, contains 0.45–0.6, partial < 0.3)
	wColor       = 0.5  // × 1 for the colour's own class, 0.4 for a near one
	wContainer   = 1.0  // × container quality (first cell or exact 1, contains 0.45–0.6)
	wHas         = 0.5  // × quality of the descendant it has
	wSpatial     = 1.0  // × closeness to the anchor, 1 for the nearest

	// threshold is the least score a target needs; margin is how far ahead
	// of the next candidate it must be. Candidates within margin of the best
	// are indistinguishable: an ambiguity, or the set an ordinal counts in.
	threshold = 0.5
	margin    = 0.25

	// minNameQuality is the least name quality a fallback reading of a
	// description needs (all its words in the name).
	minNameQuality = 0.45

	maxCandidates = 5
	textCap       = 300 // characters of descendant text used as a name
)

// entry is one node of the snapshot in document order.
type entry struct {
	n      *ax.Node
	parent int
	end    int // one past the last node of its subtree
	words  []string
	wdone  bool
	text   string
	tcut   bool // text ends where the snapshot's text caps cut a run, or at textCap
	tdone  bool
}

// index is a snapshot flattened for matching, with caches that live for one
// Locate or Check call.
type index struct {
	e          []entry
	containers map[*clause]map[int]float64
	nth        map[*clause][]int
	own        map[ownKey]ownEntry // ownText, for the few nodes asked
	syn        map[nameSpecKey]synSpec
	exact      map[exactKey]bool
}

func newIndex(s *ax.Snapshot) *index {
	ix := &index{containers: map[*clause]map[int]float64{}, nth: map[*clause][]int{}}
	if s == nil {
		return ix
	}
	ix.e = make([]entry, 0, countNodes(s.Root))
	type frame struct {
		ns     []*ax.Node
		i      int
		parent int
	}
	stack := []frame{{ns: s.Root, parent: -1}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i >= len(f.ns) {
			if f.parent >= 0 {
				ix.e[f.parent].end = len(ix.e)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		n := f.ns[f.i]
		f.i++
		if n == nil {
			continue
		}
		parent := f.parent
		ix.e = append(ix.e, entry{n: n, parent: parent, end: len(ix.e) + 1})
		if len(n.Children) > 0 {
			stack = append(stack, frame{ns: n.Children, parent: len(ix.e) - 1})
		}
	}
	return ix
}

func countNodes(ns []*ax.Node) int {
	k := len(ns)
	for _, n := range ns {
		if n != nil {
			k += countNodes(n.Children)
		}
	}
	return k
}

// find returns the index of a node, or -1.
func (ix *index) find(n *ax.Node) int {
	for i := range ix.e {
		if ix.e[i].n == n {
			return i
		}
	}
	return -1
}

// ancestors returns the chain of a node's ancestors, nearest last (as
// ax.Snapshot.Walk gives them).
func (ix *index) ancestors(i int) []*ax.Node {
	var out []*ax.Node
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		out = append(out, ix.e[p].n)
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}

func (ix *index) isAncestor(a, i int) bool {
	return a < i && i < ix.e[a].end
}

func (ix *index) nameWords(i int) []string {
	e := &ix.e[i]
	if !e.wdone {
		if kept, ok := cutString(e.n, e.n.Name); ok {
			e.words = keptWords(kept)
		} else {
			e.words = words(e.n.Name)
		}
		e.wdone = true
	}
	return e.words
}

// nameJoins is wordJoins of the name nameWords reads (the part kept of
// a cut name).
func (ix *index) nameJoins(i int) []bool {
	n := ix.e[i].n
	if kept, ok := cutString(n, n.Name); ok {
		return wordJoins(kept)
	}
	return wordJoins(n.Name)
}

// cutString says whether s, a name, text or value of n, was cut by the
// snapshot's text caps, and returns the part kept.
func cutString(n *ax.Node, s string) (string, bool) {
	if !n.Cut {
		return "", false
	}
	kept, _, ok := ax.CutPrefix(s)
	return kept, ok
}

// keptWords are the words of the part kept of a cut string that are surely
// words of the whole: all but the last, which the cut may have split.
func keptWords(kept string) []string {
	w := words(kept)
	if len(w) > 0 {
		w = w[:len(w)-1]
	}
	return w
}

// keptText is the part kept of a cut string up to its last whole word.
func keptText(kept string) string {
	if i := strings.LastIndexByte(strings.TrimSpace(kept), ' '); i >= 0 {
		return kept[:i]
	}
	return ""
}

// text is a node's descendant text (text runs and the names of named
// leaves), capped, for nodes without a name. tcut is set when the text is
// not all of it: a run the snapshot cut, or more text than textCap.
func (ix *index) text(i int) string {
	e := &ix.e[i]
	if e.tdone {
		return e.text
	}
	var b strings.Builder
	if e.n.Role == "text" {
		// a text run's text is its own
		t := e.n.Text
		if kept, cut := cutString(e.n, t); cut {
			t, e.tcut = keptText(kept), true
		}
		b.WriteString(t)
	}
	for j := i + 1; j < e.end; j++ {
		n := ix.e[j].n
		t := ""
		if n.Role == "text" {
			t = n.Text
		} else if len(n.Children) == 0 {
			t = n.Name
		}
		kept, cut := cutString(n, t)
		if cut {
			// what follows is not what came next on the page
			t = keptText(kept)
		}
		if t = strings.TrimSpace(t); t != "" {
			if b.Len() >= textCap {
				e.tcut = true
				break
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t)
		}
		if cut {
			e.tcut = true
			break
		}
	}
	e.text, e.tdone = collapse(b.String()), true
	if len(e.text) > textCap {
		e.text, e.tcut = e.text[:textCap], true
	}
	return e.text
}

// ownText is what a person reads in node i as a container, the text that
// names an item or card with no accessible name: its text runs, the names
// of its other leaves and its headings' names, capped, leaving out the
// labels of the controls inside it (a "Mark done" or "Delete" button, a
// checkbox named after the item) and items of its own role nested in it.
// Links and clickable text stay: a card's title is often a link. With
// values, the text in its fields counts too (an item being edited in place
// reads what its field holds). cut says the text is not all of it (a run
// the snapshot cut, or the cap); a cut text ends on a whole word.
func (ix *index) ownText(i int, values bool) (string, bool) {
	key := ownKey{i, values}
	if o, ok := ix.own[key]; ok {
		return o.text, o.cut
	}
	e := &ix.e[i]
	// the names of its controls: a label beside a control, shown as a run
	// of text of its own ("Toggle Todo" beside the checkbox it names), is
	// the control's label, not the item's text, when the item has text
	// besides (a checkbox labelled "oat milk" by the item's only text
	// leaves it the item's)
	var labels []string
	for j := i + 1; j < e.end; j++ {
		if n := ix.e[j].n; n.States.Interactive && n.Role != "link" && n.Role != "generic" && n.Name != "" {
			labels = append(labels, collapse(n.Name))
		}
	}
	s, cut := ix.ownTextOf(i, values, labels)
	if s == "" && len(labels) > 0 {
		s, cut = ix.ownTextOf(i, values, nil)
	}
	if ix.own == nil {
		ix.own = map[ownKey]ownEntry{}
	}
	ix.own[key] = ownEntry{s, cut}
	return s, cut
}

// ownReads says node i's own text, with or without its fields' values,
// holds the phrase as a run of whole words (see wholeRun).
func (ix *index) ownReads(i int, spec nameSpec) bool {
	for _, values := range []bool{false, true} {
		if t, _ := ix.ownText(i, values); t != "" && wholeRun(words(t), wordJoins(t), spec.words) {
			return true
		}
	}
	return false
}

// ownTextOf is ownText leaving out the text runs that read as one of
// labels.
func (ix *index) ownTextOf(i int, values bool, labels []string) (string, bool) {
	e := &ix.e[i]
	role := e.n.Role
	var b strings.Builder
	cut := false
	for j := i + 1; j < e.end; {
		n := ix.e[j].n
		t, skip := "", false
		switch {
		case n.Role == "text" && len(labels) > 0 && slices.Contains(labels, collapse(n.Text)):
			// a control's label
		case n.Role == role && role != "generic" && role != "":
			skip = true // an item of its own
		case n.States.Interactive && n.Role != "link" && n.Role != "generic":
			skip = true // a control: its label is not the item's text
			if values && fieldRoles[n.Role] {
				t = n.States.Value
			}
		case n.Role == "text":
			t = n.Text
		case n.Role == "heading" && n.Name != "":
			t, skip = n.Name, true
		case len(n.Children) == 0:
			t = n.Name
		}
		kept, c := cutString(n, t)
		if c {
			t = keptText(kept)
		}
		if t = strings.TrimSpace(t); t != "" {
			if b.Len() >= textCap {
				cut = true
				break
			}
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(t)
		}
		if c {
			cut = true
			break
		}
		if skip {
			j = ix.e[j].end
		} else {
			j++
		}
	}
	s := collapse(b.String())
	if len(s) > textCap {
		s, cut = keptText(s[:textCap]), true
	}
	return s, cut
}

type nameSpecKey struct {
	phrase string
	quoted bool
}

// synonyms is synonymWords of a description's name, read once per call.
func (ix *index) synonyms(spec nameSpec) synSpec {
	k := nameSpecKey{spec.phrase, spec.quoted}
	if s, ok := ix.syn[k]; ok {
		return s
	}
	if ix.syn == nil {
		ix.syn = map[nameSpecKey]synSpec{}
	}
	s := synonymWords(spec)
	ix.syn[k] = s
	return s
}

// fieldRoles are the controls whose value is text a person reads.
var fieldRoles = map[string]bool{"textbox": true, "searchbox": true, "combobox": true}

type ownKey struct {
	i      int
	values bool
}

type ownEntry struct {
	text string
	cut  bool
}

// exactKey memoises exactBox for one call. A phrase and whether it was
// quoted make its words (see makeName and relationSpec).
type exactKey struct {
	phrase string
	quoted bool
	role   string
}

// exactHow says a quality comes from a whole match: the phrase is all of
// the name or text, not its start or a part of it.
func exactHow(how string) bool {
	return how == "exact" || how == "same words" || how == "first cell" || how == "title"
}

// title is the name of the first heading in node a, not in an item, card
// or row nested in it, or "": a card is called by its title. A role-less
// repeated entry (role "item") with no heading is called by its first run of
// text, outside its controls, as a row is by its first cell (a card reading
// "Pro", "$12 / month" is the Pro card, the one reading "Pro Plus" not);
// so is a role-less section (role "section").
func (ix *index) title(a int) string {
	first := ""
	for j := a + 1; j < ix.e[a].end; {
		n := ix.e[j].n
		if textBoxes[n.Role] {
			j = ix.e[j].end
			continue
		}
		if n.Role == "heading" {
			if _, cut := cutString(n, n.Name); cut {
				return ""
			}
			return n.Name
		}
		if first == "" && n.Role == "text" && (ix.e[a].n.Role == "item" || ix.e[a].n.Role == "section" || isBox(ix.e[a].n)) && !ix.inControl(j, a) {
			if _, cut := cutString(n, n.Text); cut {
				return ""
			}
			first = n.Text
		}
		j++
	}
	return first
}

// inControl says node j sits in a control below node a.
func (ix *index) inControl(j, a int) bool {
	for p := ix.e[j].parent; p > a; p = ix.e[p].parent {
		if ix.e[p].n.States.Interactive {
			return true
		}
	}
	return false
}

// boxQuality compares a phrase with what names node a as a container: its
// accessible name (a row's first cell, …) or, when it has none, its own
// text (see ownText) at 0.85. A phrase inside a text must sit on word
// boundaries as a run of words ("oat milk" in "fresh oat milk", never in
// "milk with oat"); a cut text never reads exactly as a phrase.
func (ix *index) boxQuality(a int, spec nameSpec) (float64, string) {
	if ix.e[a].n.Role == "section" {
		return ix.sectionQuality(a, spec)
	}
	q, how, src := ix.nodeName(a, spec, false)
	if (how == "contains" || how == "starts with") && src == "name" && !wholeRun(ix.nameWords(a), ix.nameJoins(a), spec.words) {
		q, how = 0, ""
	}
	if ix.e[a].n.Name == "" {
		if t := ix.title(a); t != "" {
			if q2, h2 := nameQuality(spec, t, words(t)); exactHow(h2) && q2*0.85 > q {
				q, how = q2*0.85, "title"
			}
		}
		// Its own text, with its fields' values (an item edited in place),
		// or its whole text when its label is only in a control ("Laundry"
		// in an item holding a checkbox so named and an "Open Laundry"
		// link): the best of them.
		own, ocut := ix.ownText(a, false)
		withValues, vcut := ix.ownText(a, true)
		whole := ix.text(a)
		for k, t := range []string{own, withValues, whole} {
			cut := ocut
			switch k {
			case 1:
				cut = vcut
				if t == own {
					continue
				}
			case 2:
				cut = ix.e[a].tcut
				if t == own || t == withValues {
					continue
				}
			}
			if t == "" {
				continue
			}
			tw := words(t)
			if k == 2 && cut && len(t) >= textCap {
				tw = keptWords(t) // the cap may have split its last word
			}
			var q2 float64
			var h2 string
			if cut {
				q2, h2 = cutQuality(spec, tw)
			} else {
				q2, h2 = nameQuality(spec, t, tw)
			}
			if (h2 == "contains" || h2 == "partly" || h2 == "starts with") && !wholeRun(tw, wordJoins(t), spec.words) {
				q2 = 0
			}
			if q2*0.85 > q {
				q, how = q2*0.85, h2
			}
		}
	}
	return q, how
}

// sectionQuality is boxQuality for a role-less section (role "section": a
// run of wrappers each holding a title and items, see the snapshot): it is
// known by its title alone, read whole, at 0.85, never by the text of the
// items in it ("the Team section" is not the one holding a "Team plan" card).
func (ix *index) sectionQuality(a int, spec nameSpec) (float64, string) {
	t := ix.title(a)
	if t == "" {
		return 0, ""
	}
	q, how := nameQuality(spec, t, words(t))
	if !exactHow(how) {
		return 0, ""
	}
	return q * 0.85, "title"
}

// boxMatch is how well node a is the container a phrase names, or 0: its
// quality (see boxQuality) when that reaches minNameQuality, and a name
// or text that only starts with or contains the phrase counts only when no
// node of a's role on the page reads exactly the phrase ("in the oat milk
// item" is never the "oat milk and honey" item while an "oat milk" item is
// there). The locator and Check both judge containers with it.
func (ix *index) boxMatch(a int, spec nameSpec) float64 {
	q, how := ix.boxQuality(a, spec)
	if q < minNameQuality {
		return 0
	}
	if !exactHow(how) && ix.exactBox(spec, ix.e[a].n.Role) {
		return 0
	}
	return q
}

// exactBox says some node of this role reads exactly the phrase.
func (ix *index) exactBox(spec nameSpec, role string) bool {
	key := exactKey{spec.phrase, spec.quoted, role}
	if v, ok := ix.exact[key]; ok {
		return v
	}
	if ix.exact == nil {
		ix.exact = map[exactKey]bool{}
	}
	found := false
	for a := range ix.e {
		if ix.e[a].n.Role != role {
			continue
		}
		if q, how := ix.boxQuality(a, spec); q >= minNameQuality && exactHow(how) {
			found = true
			break
		}
	}
	ix.exact[key] = found
	return found
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstCell is the name of a row's first cell, or "".
func (ix *index) firstCell(i int) string {
	for j := i + 1; j < ix.e[i].end; j++ {
		if ix.e[j].parent != i {
			continue
		}
		switch ix.e[j].n.Role {
		case "cell", "gridcell", "rowheader", "columnheader":
			if _, cut := cutString(ix.e[j].n, ix.e[j].n.Name); cut {
				return "" // a cut name is not the cell's whole name
			}
			if ix.e[j].n.Name != "" {
				return ix.e[j].n.Name
			}
			return ix.text(j)
		}
	}
	return ""
}

// headerRow says a row holds column headers only.
func (ix *index) headerRow(i int) bool {
	any := false
	for j := i + 1; j < ix.e[i].end; j++ {
		if ix.e[j].parent != i {
			continue
		}
		if ix.e[j].n.Role != "columnheader" {
			return false
		}
		any = true
	}
	return any
}

// nameQuality compares a description's name with a node's name.
func nameQuality(spec nameSpec, name string, nw []string) (float64, string) {
	if spec.empty() || name == "" {
		return 0, ""
	}
	if name == spec.phrase {
		return 1, "exact"
	}
	norm := collapse(name)
	if norm == spec.phrase {
		return 1, "exact"
	}
	if strings.EqualFold(norm, spec.phrase) {
		return 0.95, "exact"
	}
	sw := spec.words
	if sq := squash(spec.phrase); sq != "" && sq == squash(norm) {
		return 0.92, "same words" // "login" and "Log in", "e-mail" and "Email"
	}
	if len(sw) == 0 {
		return 0, ""
	}
	if sameWords(sw, nw) {
		return 0.92, "same words"
	}
	if spec.quoted {
		if containsRun(nw, sw) {
			return 0.5, "contains"
		}
		return 0, ""
	}
	if len(nw) >= len(sw) && sameWords(sw, nw[:len(sw)]) {
		return 0.65, "starts with"
	}
	matched := 0
	for _, w := range sw {
		for _, x := range nw {
			if w == x {
				matched++
				break
			}
		}
	}
	if matched == len(sw) && containsRun(nw, sw) {
		cov := float64(len(sw)) / float64(max(len(nw), len(sw)))
		return 0.45 + 0.15*cov, "contains"
	}
	if overlap := float64(matched) / float64(len(sw)); overlap >= 0.5 {
		return 0.3 * overlap, "partly"
	}
	return 0, ""
}

// cutQuality compares a description's name with kw, the words surely kept
// (see keptWords) of a string the snapshot's text caps cut. The whole string
// is longer than what was kept, so it never equals the description: it can
// at best start with the description's words, or contain them. Its quality
// is never above what nameQuality gives the whole string.
func cutQuality(spec nameSpec, kw []string) (float64, string) {
	sw := spec.words
	if len(sw) == 0 || len(kw) == 0 {
		return 0, ""
	}
	if spec.quoted {
		if containsRun(kw, sw) {
			return 0.5, "contains"
		}
		return 0, ""
	}
	if len(kw) >= len(sw) && sameWords(sw, kw[:len(sw)]) {
		return 0.65, "starts with"
	}
	matched := 0
	for _, w := range sw {
		for _, x := range kw {
			if w == x {
				matched++
				break
			}
		}
	}
	if matched == len(sw) && containsRun(kw, sw) {
		return 0.45, "contains" // the least coverage: the whole has more words
	}
	if overlap := float64(matched) / float64(len(sw)); overlap >= 0.5 {
		return 0.3 * overlap, "partly"
	}
	return 0, ""
}

// textQuality is nameQuality for s, a name or value of node n, with sw its
// words: a string the text caps cut is compared with cutQuality.
func textQuality(spec nameSpec, n *ax.Node, s string, sw []string) (float64, string) {
	if kept, cut := cutString(n, s); cut {
		if spec.empty() {
			return 0, ""
		}
		return cutQuality(spec, keptWords(kept))
	}
	return nameQuality(spec, s, sw)
}

// squash keeps only letters and digits, in lower case.
func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func sameWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wholeRun says the words sw appear in nw contiguously as whole names:
// the run neither starts nor ends inside a token of joined words (joins,
// see wordJoins, read beside nw), so "Cara Diaz" is a run of "Cara Diaz
// cara@example.com" but not of "Cara Diaz-Ortega", nor "Ann Lee" of
// "Mary-Ann Lee", nor "Item 1" of "Item 1.5". A join inside the run is the
// phrase's own ("sign in" in "Sign-in options").
func wholeRun(nw []string, joins []bool, sw []string) bool {
	joined := func(k int) bool { return k >= 0 && k < len(joins) && joins[k] }
	for i := 0; i+len(sw) <= len(nw); i++ {
		if sameWords(sw, nw[i:i+len(sw)]) && !joined(i-1) && (i+len(sw) == len(nw) || !joined(i+len(sw)-1)) {
			return true
		}
	}
	return false
}

// containsRun says the words sw appear in nw contiguously.
func containsRun(nw, sw []string) bool {
	for i := 0; i+len(sw) <= len(nw); i++ {
		if sameWords(sw, nw[i:i+len(sw)]) {
			return true
		}
	}
	return false
}

// nodeName compares a name with everything that names a node: its
// accessible name, a row's first cell, a field's placeholder and value, for
// unnamed nodes their text, and last, at wHint, its hint (secondary
// evidence, see hint.go). It returns the quality, how, and the source.
func (ix *index) nodeName(i int, spec nameSpec, useText bool) (float64, string, string) {
	n := ix.e[i].n
	q, how := textQuality(spec, n, n.Name, ix.nameWords(i))
	src := "name"
	try := func(text string, factor float64, s string) {
		if text == "" {
			return
		}
		q2, h2 := 0.0, ""
		if s == "text" && ix.e[i].tcut {
			// whole words (but for one the text cap may have split), and
			// not the whole text
			w := words(text)
			if len(text) >= textCap {
				w = keptWords(text)
			}
			q2, h2 = cutQuality(spec, w)
		} else {
			q2, h2 = textQuality(spec, n, text, words(text))
		}
		if q2*factor > q {
			q, how, src = q2*factor, h2, s
		}
	}
	if rowish[n.Role] && q < 1 {
		if fc := ix.firstCell(i); fc != "" && strings.EqualFold(collapse(fc), spec.phrase) {
			q, how, src = 1, "first cell", "name"
		}
	}
	if q < 0.9 {
		try(n.States.Placeholder, 0.9, "placeholder")
		try(n.States.Value, 0.8, "value")
	}
	clk := isClickable(n)
	if n.Name == "" && (useText || clk) {
		f := 0.85
		if n.Role == "text" {
			f = 1 // a text run's text is all it says
		} else if clk {
			f = clickableText // secondary evidence, not a name
		}
		try(ix.text(i), f, "text")
	}
	if q < wHint && !spec.quoted && n.Name != "" && !symbolName(n.Name) {
		if sq, sh := ix.synonyms(spec).fit(n.Name); sq > q {
			q, how, src = sq, sh, "name"
		}
	}
	if q < wHint && (n.States.Hint != "" && !classHint(n) || symbolName(n.Name)) {
		if hq, hh := hintQuality(spec, n); hq*wHint > q {
			q, how, src = hq*wHint, hh, "hint"
		}
		if q < hintSameQ*wHint && deleteName(spec) && ix.crossDeletes(i) {
			q, how, src = hintSameQ*wHint, "× of an entry", "hint"
		}
	}
	if clk && q < wHint {
		// a clickable reading "×" says close as a symbol name does
		if hq, hh := symbolTextHint(spec, n, ix.text(i)); hq*wHint > q {
			q, how, src = hq*wHint, hh, "hint"
		}
	}
	return q, how, src
}

// deleteName says a description's name is one word saying delete ("Delete",
// "Remove"): what a × does in an entry of a list.
func deleteName(spec nameSpec) bool {
	if spec.quoted || len(spec.words) != 1 {
		return false
	}
	w := spec.words[0]
	return w == "delete" || w == "remove"
}

// crossCloses are the containers a × closes or dismisses: a dialog, a
// message, a popup, a banner, a tab, a chip (a × there is never delete).
var crossCloses = map[string]bool{
	"dialog": true, "alertdialog": true, "alert": true, "status": true, "log": true, "tooltip": true,
	"banner": true, "complementary": true, "tab": true, "tablist": true, "menu": true, "listbox": true,
	"option": true, "search": true, "toolbar": true, "navigation": true, "form": true, "group": true,
}

// crossEntries are the entries a × inside deletes: a list's item, a
// table's row, a card.
var crossEntries = map[string]bool{"listitem": true, "item": true, "row": true, "article": true, "treeitem": true}

// crossDeletes says interactable node i is an icon-only × of an entry: its
// name is a cross glyph or empty, its hint's words (the class tl-x, the
// glyph) say x and nothing else does (a class "close" or a title "Dismiss"
// says what it does itself), and walking up from it an entry of a
// collection (see crossEntries) comes before anything a × closes (see
// crossCloses). A × in a task's row deletes the task; in a dialog, a
// toast, a banner or a chip it closes or dismisses.
func (ix *index) crossDeletes(i int) bool {
	n := ix.e[i].n
	if !n.States.Interactive || n.Name != "" && !symbolName(n.Name) {
		return false
	}
	x := false
	for _, w := range words(symbolWords.Replace(n.Name + " " + n.States.Hint)) {
		switch c := synonyms[w]; {
		case w == "x":
			x = true
		case c != "" && c != "close":
			return false // a trash icon or a "more" class says something else
		case c == "close":
			return false // "close" or "dismiss" written out
		}
	}
	if !x {
		return false
	}
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		r := ix.e[p].n.Role
		if crossCloses[r] {
			return false
		}
		if crossEntries[r] {
			return true
		}
	}
	return false
}

// textRoles are roles whose text names them even when they have no name.
var textRoles = map[string]bool{"text": true, "status": true, "alert": true, "log": true, "tooltip": true, "paragraph": true, "note": true, "timer": true, "marquee": true, "cell": true, "gridcell": true, "listitem": true}

// cand is a node that passed every condition, with its score.
type cand struct {
	i       int
	score   float64
	why     []string
	nameQ   float64
	nameSrc string
	byClass string // why it fits the role word by class words or as a live region, "" when by its role
	// secondary says the name matched a clickable's text (see clickable.go),
	// which counts as a hint does against named elements (preferNamed)
	secondary bool
	run       bool   // it is a text run
	color     string // its colour class
	hits      []int  // per clause: the container, descendant or anchor it matched (-1 for itself)
	hitQ      []float64
	dist      []float64 // per spatial clause
}

// miss is a node that matched role and name but failed another condition.
type miss struct {
	i      int
	score  float64
	reason string
}

// roleFit scores a node's role against a role word.
func roleFit(n *ax.Node, r *roleDef) (float64, bool) {
	if r == nil {
		return 0, true
	}
	if r.level > 0 && n.States.Level != r.level {
		return 0, false
	}
	if isClickable(n) {
		return clickableFit(n, r)
	}
	for _, s := range r.strong {
		if n.Role == s {
			return wRoleStrong, true
		}
	}
	for _, s := range r.weak {
		if n.Role == s {
			if s == "generic" && !n.States.Interactive {
				return 0, false
			}
			return wRoleWeak, true
		}
	}
	return 0, false
}

// base scores a node on what the query says about the node itself: role,
// name and colour. ok is false when the node is not a candidate; reason is
// set when it matched role and name but failed on colour.
func (ix *index) base(i int, q *query) (c cand, ok bool, reason string) {
	n := ix.e[i].n
	if n.Ref == "" || q.action && !n.States.Interactive && n.Role != "text" {
		// A text run is a candidate for an action too, below what can be
		// acted on: see textTier.
		return c, false, ""
	}
	if q.role == nil && isBox(n) {
		// A box is known as a dialog or a menu by its class words; with no
		// role word it is a container, never the target ("Delete in the
		// menu" is not the menu reading "Delete").
		return c, false, ""
	}
	c.i = i
	rs, fit, byClass := roleOrClassFit(n, q.role)
	c.byClass = byClass
	if !fit && q.role != nil && q.role.menuEntry && ix.menuEntry(i) {
		rs, fit = wRoleWeak, true
	}
	if fit && q.role != nil && q.role.entry && ix.holdsEntries(i) {
		return c, false, ""
	}
	if !fit || rs == wRoleWeak && q.name.empty() {
		// A loose role fit needs a name to go with it: "the Sign in
		// button" may be a link, "the first button" is a button.
		return c, false, ""
	}
	if q.role != nil {
		if byClass != "" {
			c.why = append(c.why, "role "+n.Role+" ("+byClass+" say "+q.role.word+")")
		} else if rs == wRoleStrong {
			c.why = append(c.why, "role "+n.Role)
		} else {
			c.why = append(c.why, "role "+n.Role+" (asked for "+q.role.word+")")
		}
	} else if n.States.Interactive {
		rs = wInteractive
		c.why = append(c.why, "interactable")
	} else if q.anchorOf && n.Role == "text" {
		// An anchor is what a person sees: text on screen is as good a
		// landmark as a control ("the checkbox next to oat milk").
		rs = wInteractive
		c.why = append(c.why, "text on screen")
	}
	c.score = rs
	if !q.name.empty() {
		nq, how, src := ix.nodeName(i, q.name, q.role != nil || textRoles[n.Role])
		if n.Role == "item" || n.Role == "section" || isBox(n) {
			// A role-less repeated entry is named as a container is, by its
			// own text and with phrase boundaries: "the oat milk item" is
			// never the "oat milk and honey" one while an "oat milk" item
			// is there (see boxMatch).
			nq, how, src = 0, "", "text"
			if bq := ix.boxMatch(i, q.name); bq > 0 {
				_, how = ix.boxQuality(i, q.name)
				nq = bq
			}
		} else if nq > 0 && n.Name == "" && textBoxes[n.Role] && !q.name.quoted {
			// An unnamed item, card or row is known by its own text as an
			// "in" container is (see boxMatch): "the oat milk item" is never
			// the "oat milk and honey" item while an "oat milk" item is there.
			if bq := ix.boxMatch(i, q.name); bq > 0 {
				if bq > nq {
					nq, how, src = bq, "own text", "text"
				}
			} else if !exactHow(how) && ix.exactBox(q.name, n.Role) {
				c.score += wName * nq
				return c, false, "reads " + quote(q.name.phrase) + " only in part, and another " + n.Role + " reads it exactly"
			} else if !exactHow(how) && !ix.ownReads(i, q.name) {
				// its text holds the words only where its controls' labels
				// meet its own text ("oat milk and honey" twice, as a
				// checkbox's name and as the label, reads "honey oat
				// milk"): its own text does not read the phrase
				c.score += wName * nq
				return c, false, "does not read " + quote(q.name.phrase) + " as a phrase in its own text"
			}
		}
		if nq <= 0 {
			return c, false, ""
		}
		if n.Role == "text" && rs == wRoleWeak && !exactHow(how) {
			// Text only loosely fits a control's role word ("the All
			// filter" as a clickable span): it must read the name, not
			// contain it among other words ("Mark all as complete").
			c.score += wName * nq
			return c, false, "is text reading " + quote(short(ix.text(i), 40)) + ", not " + quote(q.name.phrase)
		}
		if how == "partly" {
			// Sharing some of the words is not being named so: "the Ann
			// Leeds row" is not the Ann Lee row, "the Bob Stone (copy) row"
			// not Bob Stone's. It is listed among the nearest, never picked.
			c.score += wName * nq
			return c, false, "is named " + quote(short(n.Name, 40)) + ", which has only some of the words"
		}
		c.nameQ, c.nameSrc = nq, src
		c.secondary = src == "text" && isClickable(n)
		c.run = n.Role == "text"
		c.score += wName * nq
		label := n.Name
		switch src {
		case "placeholder":
			label = n.States.Placeholder
		case "value":
			label = n.States.Value
		case "text":
			label = ix.text(i)
		case "hint":
			label = n.States.Hint
		}
		c.why = append(c.why, src+" "+quote(short(label, 40))+" "+how)
	} else if q.role == nil && q.color == "" && len(q.clauses) == 0 {
		return c, false, ""
	} else if byClass == "" && n.Role == "text" && roleConcept(q.role) == "count" && saysConcept(n.States.Hint, "count") {
		// "the counter": the run classed "todo-count" among the page's text
		c.score += wClassBonus
		c.why = append(c.why, "class words "+quote(n.States.Hint))
	}
	if q.color != "" {
		m, p := colorMatch(n.States.Color, q.color)
		c.color = p
		if m == 0 {
			if p == "" {
				return c, false, "has no colour"
			}
			return c, false, "is " + p + ", not " + q.color
		}
		c.score += wColor * m
		if m == 1 {
			c.why = append(c.why, "colour "+q.color)
		} else {
			c.why = append(c.why, "colour "+p+", near "+q.color)
		}
	}
	return c, true, ""
}

// holdsEntries says node i is a region or group that holds an article or an
// item (the snapshot's role-less repeated entry): it is a collection of
// cards, not a card (a region "Team" holding the Team cards is not "the
// Team card"). An article or list item holding items (a card's list of
// features) is still a card.
func (ix *index) holdsEntries(i int) bool {
	if r := ix.e[i].n.Role; r != "region" && r != "group" {
		return false
	}
	for j := i + 1; j < ix.e[i].end; j++ {
		if r := ix.e[j].n.Role; r == "article" || r == "item" {
			return true
		}
	}
	return false
}

// menuEntry says node i is a text run that is an entry of a menu with no
// role of its own: its way up to a menu or menubar passes only list items,
// items and role-less nodes, no control (a library's <li tabindex=0>
// in a role=menu <ul>, the role on the wrapper). Such text fits "menu
// item" loosely, so it is picked only when it reads the name exactly and
// no element with a role fits (see textTier).
func (ix *index) menuEntry(i int) bool {
	if ix.e[i].n.Role != "text" {
		return false
	}
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		n := ix.e[p].n
		switch {
		case n.States.Interactive:
			return false
		case n.Role == "menu" || n.Role == "menubar":
			return true
		case n.Role == "listitem" || n.Role == "item" || n.Role == "generic" || n.Role == "":
		default:
			return false
		}
	}
	return false
}

// match scores every node against a query. Candidates come back best first
// (document order among equals); misses are nodes that fit role and name
// but failed a further condition.
func (ix *index) match(q *query) (cands []cand, misses []miss, missing string) {
	anchors := make([][]int, len(q.clauses))
	for ci := range q.clauses {
		c := &q.clauses[ci]
		if c.kind == kwSpatial {
			anchors[ci] = ix.group(c.anchor)
			if len(anchors[ci]) == 0 {
				missing = c.anchor.desc
			}
		}
	}
	for i := range ix.e {
		c, ok, reason := ix.base(i, q)
		if !ok {
			if reason != "" {
				misses = append(misses, miss{i, c.score, reason})
			}
			continue
		}
		c.hits = make([]int, len(q.clauses))
		c.hitQ = make([]float64, len(q.clauses))
		c.dist = make([]float64, len(q.clauses))
		failed := ""
		for ci := range q.clauses {
			cl := &q.clauses[ci]
			switch cl.kind {
			case kwIn:
				a, qual := ix.container(i, cl, c.hits[:ci], q.clauses[:ci])
				if a < 0 {
					failed = "is not " + cl.text
					break
				}
				c.hits[ci], c.hitQ[ci] = a, qual
				c.score += wContainer * qual
				c.why = append(c.why, "in "+ix.describeShort(a))
			case kwFor:
				a, qual := ix.mentions(i, cl)
				if a < -1 {
					failed = "is not " + cl.text
					break
				}
				c.hits[ci], c.hitQ[ci] = a, qual
				c.score += wContainer * qual
				if a >= 0 {
					c.why = append(c.why, "in "+ix.describeShort(a))
				} else {
					c.why = append(c.why, "mentions "+quote(cl.name.phrase))
				}
			case kwWith:
				d, qual := ix.has(i, cl)
				if d < 0 {
					failed = "has no " + cl.anchor.desc
					break
				}
				c.hits[ci], c.hitQ[ci] = d, qual
				c.score += wHas * qual
				c.why = append(c.why, "has "+ix.describeShort(d))
			case kwSpatial:
				a, d := ix.spatial(i, cl.rel, anchors[ci])
				if a < 0 {
					failed = "is not " + cl.text
					break
				}
				c.hits[ci], c.dist[ci] = a, d
			}
			if failed != "" {
				break
			}
		}
		if failed != "" {
			misses = append(misses, miss{i, c.score, failed})
			continue
		}
		cands = append(cands, c)
	}
	cands = ix.labelValues(q, cands)
	cands, misses = preferNamed(cands, misses)
	cands, misses = preferRoles(ix, q, cands, misses)
	// Spatial closeness is relative: the nearest candidate gets it all.
	for ci := range q.clauses {
		cl := &q.clauses[ci]
		if cl.kind != kwSpatial || len(cands) == 0 {
			continue
		}
		dmin := math.Inf(1)
		for _, c := range cands {
			dmin = math.Min(dmin, c.dist[ci])
		}
		for k := range cands {
			c := &cands[k]
			cls := (dmin + 20) / (c.dist[ci] + 20)
			c.hitQ[ci] = cls
			c.score += wSpatial * cls
			c.why = append(c.why, cl.rel+" "+ix.describeShort(c.hits[ci])+" ("+strconv.Itoa(int(math.Round(c.dist[ci])))+"px)")
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		return cands[a].i < cands[b].i
	})
	sort.SliceStable(misses, func(a, b int) bool { return misses[a].score > misses[b].score })
	return cands, misses, missing
}

// group resolves an anchor description: the candidates within margin of the
// best one, when the best reaches the threshold (at most 10).
func (ix *index) group(q *query) []int {
	cands, _, _ := ix.match(q)
	if len(cands) == 0 || cands[0].score < threshold {
		return nil
	}
	var out []int
	for _, c := range cands {
		if cands[0].score-c.score < margin-1e-9 && len(out) < 10 {
			out = append(out, c.i)
		}
	}
	out = ix.innermostText(out)
	if q.ordinal != 0 {
		sort.Ints(out)
		k := q.ordinal - 1
		if q.ordinal < 0 {
			k = len(out) + q.ordinal
		}
		if k < 0 || k >= len(out) {
			return nil
		}
		return []int{out[k]}
	}
	return out
}

// innermostText drops from an anchor group the elements that hold a text
// run of the group (or are its owner): the run is the landmark, and a row
// around it touches every neighbour.
func (ix *index) innermostText(group []int) []int {
	var texts []int
	for _, a := range group {
		if ix.e[a].n.Role == "text" {
			texts = append(texts, a)
		}
	}
	if len(texts) == 0 {
		return group
	}
	out := group[:0:0]
	for _, a := range group {
		holds := false
		for _, t := range texts {
			if a != t && (ix.isAncestor(a, t) || ix.e[a].n.Ref == ix.e[t].n.Ref) {
				holds = true
				break
			}
		}
		if !holds {
			out = append(out, a)
		}
	}
	return out
}

// containerQuality says how well node a serves as the container a clause
// names: 0 when it does not.
func (ix *index) containerQuality(a int, c *clause) float64 {
	q, _ := ix.containerMatch(a, c)
	return q
}

// containerMatch is containerQuality, and whether the container matched on
// its name and role word together ("the cookie banner" as a dialog named
// "Cookie banner").
func (ix *index) containerMatch(a int, c *clause) (float64, bool) {
	n := ix.e[a].n
	q := 0.0
	if rs, fit, byClass := roleOrClassFit(n, c.role); fit && !(c.role != nil && c.role.entry && ix.holdsEntries(a)) {
		switch {
		case c.name.empty():
			q = 1
		case ix.nested(a, c):
			q = 0.9
		default:
			q = ix.boxMatch(a, c.name)
		}
		if rs == wRoleWeak || byClass != "" {
			q *= 0.9
		}
	}
	if q == 0 && !c.full.empty() && n.Name != "" {
		// "the cookie banner" may be a dialog named "Cookie banner".
		nq, how := textQuality(c.full, n, n.Name, ix.nameWords(a))
		if how == "contains" && !containsRun(ix.nameWords(a), c.full.words) {
			nq = 0
		}
		if nq >= minNameQuality && (exactHow(how) || !ix.exactBox(c.full, n.Role)) {
			return 0.8 * nq, true
		}
	}
	return q, false
}

// nested reads "the row menu": a menu inside a row, the name being a
// container role word of its own.
func (ix *index) nested(a int, c *clause) bool {
	if c.nested == nil {
		return false
	}
	for p := ix.e[a].parent; p >= 0; p = ix.e[p].parent {
		if _, fit := roleFit(ix.e[p].n, c.nested); fit {
			return true
		}
	}
	return false
}

// container finds the ancestor of node i that a clause names, best quality
// first and nearest among equals; -1 when there is none. It is never the
// container an earlier "in" clause of the description took (hits, by
// clause): "in the Team card in the Team section" names two containers,
// and one card titled Team is not both.
func (ix *index) container(i int, c *clause, hits []int, earlier []clause) (int, float64) {
	memo := ix.containers[c]
	if memo == nil {
		memo = map[int]float64{}
		ix.containers[c] = memo
	}
	var only []int
	if c.ordinal != 0 {
		only = ix.nthContainers(c)
		if len(only) == 0 {
			return -1, 0
		}
	}
	best, bestQ := -1, 0.0
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		if only != nil && !slices.Contains(only, p) {
			continue
		}
		if takenBy(p, hits, earlier) {
			continue
		}
		q, ok := memo[p]
		if !ok {
			q = ix.containerQuality(p, c)
			memo[p] = q
		}
		if q > bestQ {
			best, bestQ = p, q
		}
	}
	return best, bestQ
}

// takenBy says an earlier "in" clause took node p as its container.
func takenBy(p int, hits []int, earlier []clause) bool {
	for k, h := range hits {
		if h == p && earlier[k].kind == kwIn {
			return true
		}
	}
	return false
}

// nthContainers resolves "in the second row": in each set of containers
// that fit the clause's role word strongly, the nth, header rows not
// counted. A set is the containers of one role under one parent ("the
// first item" of each list, not the first listitem or link of the page);
// several sets give several containers, and candidates in more than one
// are an ambiguity.
func (ix *index) nthContainers(c *clause) []int {
	if k, ok := ix.nth[c]; ok {
		return k
	}
	var res []int
	for _, list := range ix.ordinalSets(func(a int) bool {
		if rs, fit := roleFit(ix.e[a].n, c.role); !fit || rs != wRoleStrong {
			return false
		}
		return ix.containerQuality(a, c) > 0
	}) {
		k := c.ordinal - 1
		if c.ordinal < 0 {
			k = len(list) + c.ordinal
		}
		if k >= 0 && k < len(list) {
			res = append(res, list[k])
		}
	}
	ix.nth[c] = res
	return res
}

// ordinalSets groups the nodes that fit, in document order, into the sets an
// ordinal counts in: one role under one parent, the parent being the
// nearest ancestor that is not a mere wrapper (generic, rowgroup, none).
// Header rows are never counted.
func (ix *index) ordinalSets(fits func(a int) bool) [][]int {
	type key struct {
		role   string
		parent int
	}
	at := map[key]int{}
	var sets [][]int
	for a := range ix.e {
		if ix.e[a].n.Role == "row" && ix.headerRow(a) {
			continue
		}
		if !fits(a) {
			continue
		}
		k := key{ix.e[a].n.Role, ix.setParent(a)}
		j, ok := at[k]
		if !ok {
			j = len(sets)
			at[k] = j
			sets = append(sets, nil)
		}
		sets[j] = append(sets[j], a)
	}
	return sets
}

// setParent is the nearest ancestor of node a that is not a wrapper, or -1.
// An item of another role around it is a wrapper too: cards that are
// articles each in a list item make one set, the list's.
func (ix *index) setParent(a int) int {
	role := ix.e[a].n.Role
	for p := ix.e[a].parent; p >= 0; p = ix.e[p].parent {
		switch r := ix.e[p].n.Role; r {
		case "", "generic", "none", "presentation", "rowgroup":
			continue
		default:
			if itemRoles[r] && r != role {
				continue
			}
		}
		return p
	}
	return -1
}

// itemRoles are the roles of one entry of a collection.
var itemRoles = map[string]bool{
	"listitem": true, "article": true, "row": true, "cell": true, "gridcell": true,
	"treeitem": true, "option": true, "menuitem": true, "item": true,
}

// mentions reads "for Alice" and "with Alice": the node itself or one of its
// ancestors has Alice in its name, or an ancestor item, card or row with
// no name reads Alice, judged as "in" judges a container (see boxMatch). It
// returns -1 for the node itself, the ancestor's index, or -2 when nothing
// mentions it.
func (ix *index) mentions(i int, c *clause) (int, float64) {
	best, bestQ := -2, 0.0
	if q, how, _ := ix.nodeName(i, c.name, false); q >= minNameQuality && (exactHow(how) || !ix.exactNear(i, c.name)) {
		best, bestQ = -1, q
	}
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		if pn := ix.e[p].n; pn.Name == "" && !textBoxes[pn.Role] {
			continue
		}
		if q := ix.boxMatch(p, c.name); q > bestQ {
			best, bestQ = p, q
		}
	}
	return best, bestQ
}

// exactNear says some node of node i's role, or some item, card or row,
// reads exactly the phrase: then a name that only starts with it or
// contains it does not mention it ("the checkbox for oat milk" is not the
// "oat milk and honey" checkbox while an "oat milk" item is there).
func (ix *index) exactNear(i int, spec nameSpec) bool {
	if ix.exactBox(spec, ix.e[i].n.Role) {
		return true
	}
	for _, r := range textBoxRoles {
		if ix.exactBox(spec, r) {
			return true
		}
	}
	return false
}

var textBoxRoles = slices.Sorted(maps.Keys(textBoxes))

// textBoxes are the roles of the unnamed ancestors "for X" reads by their
// text: one entry of a collection, never the collection (a list's text
// holds every item's). "item" is the snapshot's role-less repeated entry.
var textBoxes = map[string]bool{
	"listitem": true, "article": true, "row": true, "cell": true, "gridcell": true,
	"treeitem": true, "option": true, "menuitem": true, "group": true, "item": true,
}

// has finds a descendant of node i that fits the clause's description.
func (ix *index) has(i int, c *clause) (int, float64) {
	best, bestQ := -1, 0.0
	for j := i + 1; j < ix.e[i].end; j++ {
		d, ok, _ := ix.base(j, c.anchor)
		if !ok || (!c.anchor.name.empty() && d.nameQ < minNameQuality) {
			continue
		}
		q := 1.0
		if !c.anchor.name.empty() {
			q = d.nameQ
		}
		if q > bestQ {
			best, bestQ = j, q
		}
	}
	return best, bestQ
}

// spatial measures node i against the anchors: the nearest anchor that it
// stands in the right direction of, and the distance; -1 when none. An
// entry of a collection placed against an entry of its kind, or against
// something inside one, is placed within that entry's collection only
// (see sameList).
func (ix *index) spatial(i int, rel string, anchors []int) (int, float64) {
	best, bestD := -1, math.Inf(1)
	for _, a := range anchors {
		if a == i || ix.isAncestor(a, i) || ix.isAncestor(i, a) || !ix.sameList(i, a, rel) {
			continue
		}
		if d, ok := placed(rel, ix.box(i), ix.box(a)); ok && d < bestD {
			best, bestD = a, d
		}
	}
	return best, bestD
}

// listEntries are the entry roles "the item below the bread item" compares
// within one collection: not cells, which a row's neighbours are in other
// rows of.
var listEntries = map[string]bool{
	"listitem": true, "article": true, "row": true, "treeitem": true, "option": true, "menuitem": true, "item": true,
}

// sameList says candidate i may be placed against anchor a. When i is an
// entry of a collection (see listEntries) and a is an entry too, or sits
// in an entry of i's role, they must be entries of one collection (one role
// under one parent, as ordinals count them, see setParent) and, above or
// below, in one column (left or right of, in one line): their boxes overlap
// across the direction. Otherwise they are judged by their boxes alone.
// "The item below the bread item" is the next item of the bread item's
// list, never a navigation link's list item nor an item of a list beside
// it (role-less lists side by side are one run of items to the snapshot);
// with none below it in its list there is none.
func (ix *index) sameList(i, a int, rel string) bool {
	role := ix.e[i].n.Role
	if !listEntries[role] {
		return true
	}
	if ar := ix.e[a].n.Role; listEntries[ar] && ar != role {
		return false
	}
	for ; a >= 0 && ix.e[a].n.Role != role; a = ix.e[a].parent {
	}
	if a < 0 {
		return true
	}
	if ix.setParent(a) != ix.setParent(i) {
		return false
	}
	t, b := ix.box(i), ix.box(a)
	if !sized(t) || !sized(b) {
		return true // placed decides: an unsized box is never placed
	}
	switch rel {
	case "above", "below":
		return t.X < b.X+b.W && b.X < t.X+t.W
	case "left of", "right of":
		return t.Y < b.Y+b.H && b.Y < t.Y+t.H
	}
	return true
}

// describeShort is `row "Item 1 …"`, a node as messages show it.
func (ix *index) describeShort(i int) string {
	n := ix.e[i].n
	label := n.Name
	if rowish[n.Role] {
		if fc := ix.firstCell(i); fc != "" && len(collapse(n.Name)) > len(collapse(fc)) {
			label = collapse(fc) + " …"
		}
	}
	if label == "" && textRoles[n.Role] {
		if label, _ = ix.ownText(i, false); label == "" {
			label = ix.text(i)
		}
	}
	if label == "" {
		return n.Role
	}
	return n.Role + " " + quote(short(label, 30))
}

// contextRoles are the containers a message names to tell candidates apart.
var contextRoles = map[string]bool{
	"row": true, "listitem": true, "dialog": true, "alertdialog": true, "menu": true, "region": true, "form": true,
	"navigation": true, "article": true, "group": true, "radiogroup": true, "tabpanel": true, "toolbar": true,
	"complementary": true, "banner": true, "contentinfo": true, "treeitem": true, "search": true,
}

// nodeLabel is what names a node in an intent's relation: its name, or for a
// text run its text.
func nodeLabel(n *ax.Node) string {
	if n.Role == "text" {
		return n.Text
	}
	return n.Name
}

// describe is `button "Delete" [e12] in row "Item 1 …"`.
func (ix *index) describe(i int) string {
	n := ix.e[i].n
	s := n.Role
	if n.Name != "" {
		s += " " + quote(short(n.Name, 40))
	} else if n.Role == "text" {
		s += " " + quote(short(ix.text(i), 40))
	}
	if n.Ref != "" {
		s += " [" + n.Ref + "]"
	}
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		pn := ix.e[p].n
		if contextRoles[pn.Role] && pn.Name != "" {
			return s + " in " + ix.describeShort(p)
		}
	}
	return s
}

func short(s string, n int) string {
	s = collapse(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := strings.LastIndexByte(string(r[:n]), ' ')
	if cut < n/2 {
		cut = len(string(r[:n]))
	}
	return strings.TrimSpace(string(r[:n])[:cut]) + " …"
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Values known by a label beside them: "the display name" is the text next
// to a "Display name" label ("label: value" pairs, a <dt> and its <dd>, two
// spans in a card). wLabelValue scales the label's score for its value.
const wLabelValue = 0.9

// labelMaxWords is the most words a label of a value may have: a sentence
// is no label.
const labelMaxWords = 5

// valueBeside returns the value that the text run or term l labels, or -1:
// the node right after it under the same parent (or after its parent, when
// l is the only child of a term or wrapper), when that node is no control
// and reads a short text of its own.
func (ix *index) valueBeside(l int) int {
	n := ix.e[l].n
	lt := ix.text(l)
	if n.Name != "" && n.Role != "text" {
		lt = n.Name
	}
	if lt == "" || ix.e[l].tcut || len(words(lt)) > labelMaxWords || len(words(lt)) == 0 {
		return -1
	}
	a := l
	k := ix.e[a].end
	if k >= len(ix.e) || ix.e[k].parent != ix.e[a].parent {
		p := ix.e[a].parent
		if p < 0 || p+1 != a || ix.e[p].end != ix.e[a].end {
			return -1 // not an only child
		}
		switch ix.e[p].n.Role {
		case "term", "generic", "":
		default:
			return -1
		}
		a, k = p, ix.e[p].end
		if k >= len(ix.e) || ix.e[k].parent != ix.e[a].parent {
			return -1
		}
	}
	v := ix.e[k].n
	if v.States.Interactive || v.Ref == "" {
		return -1
	}
	switch v.Role {
	case "text", "definition", "paragraph", "status", "generic":
	default:
		return -1
	}
	if t := ix.text(k); t == "" || len(t) > 80 || ix.e[k].tcut {
		return -1
	}
	return k
}

// labelValues replaces the candidates that are labels of a value by their
// values, at wLabelValue of their score: "the display name" with no role
// word and unquoted is what the "Display name" label labels, not the label.
// A label named exactly or by the same words counts; two labels so named
// give two values, an ambiguity.
func (ix *index) labelValues(q *query, cands []cand) []cand {
	if q.role != nil || q.name.empty() || q.name.quoted {
		return cands
	}
	for k := range cands {
		c := &cands[k]
		n := ix.e[c.i].n
		if n.Role != "text" && n.Role != "term" || c.nameQ < 0.92 {
			continue
		}
		v := ix.valueBeside(c.i)
		if v < 0 {
			continue
		}
		c.why = append(c.why, "the value beside "+ix.describeShort(c.i))
		c.i, c.score, c.nameQ, c.nameSrc = v, c.score*wLabelValue, c.nameQ*wLabelValue, "label"
	}
	return cands
}

// labelledBy says some label beside node i (see valueBeside) reads the
// words of v.
func (ix *index) labelledBy(i int, v string) bool {
	for l := ix.e[i].parent + 1; l < i; l++ {
		if l < 0 {
			continue
		}
		if n := ix.e[l].n; (n.Role == "text" || n.Role == "term") && ix.valueBeside(l) == i {
			t := ix.text(l)
			if n.Name != "" && n.Role != "text" {
				t = n.Name
			}
			if hasWords(t, v) {
				return true
			}
		}
	}
	return false
}
