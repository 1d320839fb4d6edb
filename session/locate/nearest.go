package locate

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/e2e-dev/e2e/session/ax"
)

// Advice for a description that found nothing or too much. It is computed
// only when a step has failed, and it is never acted on: Nearest lists the
// elements a description comes closest to (a typo: "the Sing in button"
// for a button "Sign in"), Narrow says how to tell an ambiguity's
// candidates apart, each suggestion checked by locating it again.

// Near is an element close to a description that matched nothing: advice
// for the person reading the failure, never a target.
type Near struct {
	Node *ax.Node
	// Label is the element as messages show it: `button "Sign in"`, and
	// for a description with an "in" clause its container too: `button
	// "Menu" in row "Alice …"`.
	Label string
	// Score is how close it comes, 0..1 (1 reads exactly as described),
	// rounded to two places.
	Score float64
	// Count is how many elements read as Label does, with this score (five
	// Menu buttons); Node is the first of them in document order.
	Count int
}

const (
	// nearFloor is the least score Nearest shows: below it, an element
	// shares little more than a letter or two with the description.
	nearFloor = 0.6
	// nearMax is how many elements Nearest lists.
	nearMax = 3
	// wNearRole is the share of a Near score that the role word decides;
	// the rest is how close the words read, letter by letter.
	wNearRole = 0.1
	// nearOtherRole is the least closeness of an element whose role the
	// role word does not fit at all: a typo's, not a word's one letter away.
	nearOtherRole = 0.8
	// nearMaxWords is the most words of an element's text compared.
	nearMaxWords = 40
)

// Nearest lists the elements closest to description (at most three, the
// closest first), each with a score: how alike the description's name and
// the element's name read, letter by letter (a letter left out, added,
// changed or two swapped costs one), with its role word weighed in (0.1)
// and an "in" clause's container judged the same way. Only elements
// scoring at least 0.6 are listed (an element of a role the role word does
// not fit, only when its words are a typo away: 0.8), so a description
// that reads like nothing on the page gets none. A description that names
// nothing (only a role word or a colour) gets none either. Elements that
// read alike are listed once, with their Count.
//
// Nearest is advice for a failure message: the locator never acts on it.
func Nearest(s *ax.Snapshot, description string) []Near {
	q := parse(description, mode{})
	role, phrase := q.role, nearText(q.name.phrase)
	typo := 1.0 // what a misspelt role word costs
	if role == nil {
		whole := phrase
		if role, phrase = roleTypo(phrase); role != nil {
			typo = 1 - 1/float64(len([]rune(whole))+1)
		}
	}
	if phrase == "" || s == nil {
		return nil
	}
	var ins []nearClause
	for k := range q.clauses {
		c := &q.clauses[k]
		if (c.kind == kwIn || c.kind == kwFor) && !c.name.empty() {
			ins = append(ins, nearClause{role: c.role, phrase: nearText(c.name.phrase)})
		}
	}
	ix := newIndex(s)
	type scored struct {
		i     int
		score float64
		label string // the label it read closest to, nearText
	}
	var list []scored
	at := map[int]int{} // node index → place in list
	for i := range ix.e {
		n := ix.e[i].n
		if n.Ref == "" || q.action && !n.States.Interactive && n.Role != "text" {
			continue
		}
		sim, label := 0.0, ""
		for _, l := range ix.nearLabels(i) {
			if v := nearSim(phrase, l); v > sim {
				sim, label = v, nearText(l)
			}
		}
		if sim < nearFloor {
			continue
		}
		for _, c := range ins {
			if v := ix.nearContainer(i, c); v >= nearFloor {
				sim += v // a container that reads like nothing counts nothing
			}
		}
		sim = sim / float64(1+len(ins)) * typo
		rs := nearRole(n, role)
		if rs == 0 && sim < nearOtherRole {
			continue // "the Save button" is not the cell "Dave"
		}
		score := wNearRole*rs + (1-wNearRole)*sim
		if score < nearFloor {
			continue
		}
		at[i] = len(list)
		list = append(list, scored{i, score, label})
	}
	// One thing on screen is listed once: of a wrapper and what it wraps
	// reading the same (a list item and its link, a cell and its button,
	// a button and its text), the closer, the inner one when equal.
	drop := map[int]bool{}
	for k, c := range list {
		for p := ix.e[c.i].parent; p >= 0; p = ix.e[p].parent {
			j, ok := at[p]
			if !ok || list[j].label != c.label {
				continue
			}
			if list[j].score > c.score+1e-9 {
				drop[k] = true
			} else {
				drop[j] = true
			}
		}
	}
	kept := list[:0:0]
	for k, c := range list {
		if !drop[k] {
			kept = append(kept, c)
		}
	}
	sort.SliceStable(kept, func(a, b int) bool { return kept[a].score > kept[b].score+1e-9 })
	var out []Near
	same := map[string]int{} // label and score → place in out
	for _, c := range kept {
		label := ix.describeShort(c.i)
		if len(ins) > 0 {
			if p := ix.contextOf(c.i); p >= 0 {
				label += " in " + ix.describeShort(p)
			}
		}
		score := roundNear(c.score)
		key := label + "\x00" + strconv.FormatFloat(score, 'f', 2, 64)
		if k, ok := same[key]; ok {
			out[k].Count++ // five Menu buttons are one piece of advice
			continue
		}
		if len(out) == nearMax {
			continue // counting those listed still
		}
		same[key] = len(out)
		out = append(out, Near{Node: ix.e[c.i].n, Label: label, Score: score, Count: 1})
	}
	return out
}

// roundNear rounds a score to two places, down, so that a score below 1
// never shows as 1.00.
func roundNear(f float64) float64 {
	return float64(int(f*100+1e-6)) / 100
}

// nearClause is an "in" or "for" clause as Nearest judges it.
type nearClause struct {
	role   *roleDef
	phrase string
}

// nearRole is how well a node's role fits the role word: 1 when it names
// the role, 0.5 loosely, 0 not at all. With no role word, what can be acted
// on fits (1) better than what cannot (0.5).
func nearRole(n *ax.Node, r *roleDef) float64 {
	if r == nil {
		if n.States.Interactive {
			return 1
		}
		return 0.5
	}
	rs, fit := roleFit(n, r)
	switch {
	case !fit:
		return 0
	case rs >= wRoleStrong:
		return 1
	}
	return 0.5
}

// roleTypo reads a misspelt role word at the end of a name ("Sign in
// buton"): the role it stands for and the name before it, or no role and
// the phrase as it is.
func roleTypo(phrase string) (*roleDef, string) {
	ws := strings.Fields(phrase)
	if len(ws) < 2 {
		return nil, phrase
	}
	last := ws[len(ws)-1]
	if len([]rune(last)) < 4 {
		return nil, phrase
	}
	var found *roleDef
	for w, d := range roleWords {
		if strings.Contains(w, " ") || len([]rune(w)) < 4 || osa(last, w) != 1 {
			continue
		}
		if found != nil && found.strong[0] != d.strong[0] {
			return nil, phrase // two role words one letter away: no reading
		}
		found = &d
	}
	if found == nil {
		return nil, phrase
	}
	return found, strings.Join(ws[:len(ws)-1], " ")
}

// nearLabels are the strings node i is known by, as Nearest compares them:
// its name (a row's first cell too), and with no name its placeholder, its
// value, its text, and the parts of its hint (see hint.go).
func (ix *index) nearLabels(i int) []string {
	n := ix.e[i].n
	var out []string
	if n.Name != "" && !symbolName(n.Name) {
		out = append(out, n.Name)
	}
	if rowish[n.Role] {
		if fc := ix.firstCell(i); fc != "" {
			out = append(out, fc)
		}
	}
	if n.Name == "" {
		switch {
		case n.Role == "text":
			out = append(out, n.Text)
		case n.States.Placeholder != "":
			out = append(out, n.States.Placeholder)
		case n.States.Value != "":
			out = append(out, n.States.Value)
		case textRoles[n.Role] || isClickable(n):
			if t, _ := ix.ownText(i, false); t != "" {
				out = append(out, t)
			}
		}
	}
	if (n.Name == "" || symbolName(n.Name)) && n.States.Hint != "" {
		// an icon button known by its wrapper's label, its title, its icon
		kept, cut := cutString(n, n.States.Hint)
		parts := strings.Split(kept, hintSep)
		if cut {
			parts = parts[:len(parts)-1]
		}
		out = append(out, parts...)
	}
	return out
}

// nearContainer is how close node i's nearest container fitting clause c
// reads to the clause's name, 0..1.
func (ix *index) nearContainer(i int, c nearClause) float64 {
	best := 0.0
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		pn := ix.e[p].n
		if c.role != nil {
			if _, fit := roleFit(pn, c.role); !fit {
				continue
			}
		} else if !containerRoles[pn.Role] {
			continue
		}
		for _, l := range ix.containerPhrases(p, true) {
			best = max(best, nearSim(c.phrase, l))
		}
	}
	return best
}

// contextOf is the nearest ancestor of node i that messages name it by (a
// row, an item, a dialog, …, with a name), or -1.
func (ix *index) contextOf(i int) int {
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		if contextRoles[ix.e[p].n.Role] && ix.e[p].n.Name != "" {
			return p
		}
	}
	return -1
}

// nearText is s as Nearest compares it: lower case, letters and digits,
// single spaces.
func nearText(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
			continue
		}
		space = true
	}
	return b.String()
}

// nearSim is how alike a description's phrase (already nearText) and a
// label read: 1 - edits/length for the whole label, or for a run of its
// words as many as the phrase's (one fewer or more), scaled down by how
// little of the label that run is.
func nearSim(phrase, label string) float64 {
	l := nearText(label)
	if l == "" {
		return 0
	}
	best := editSim(phrase, l)
	k := strings.Count(phrase, " ") + 1
	// where each word of l starts and ends (l has single spaces)
	var sb, eb [nearMaxWords]int
	starts, ends := sb[:0], eb[:0]
	for i := 0; i < len(l) && len(starts) < nearMaxWords; {
		j := strings.IndexByte(l[i:], ' ')
		if j < 0 {
			j = len(l) - i
		}
		starts, ends = append(starts, i), append(ends, i+j)
		i += j + 1
	}
	if len(starts) <= k {
		return best
	}
	cover := 0.75 + 0.25*float64(len(phrase))/float64(len(l))
	if best >= cover {
		return best // no run can beat it
	}
	for n := max(1, k-1); n <= k+1 && n < len(starts); n++ {
		for a := 0; a+n <= len(starts); a++ {
			best = max(best, editSim(phrase, l[starts[a]:ends[a+n-1]])*cover)
		}
	}
	return best
}

// editSim is 1 - osa(a, b) / the longer length; 0 when the lengths alone
// put it below nearFloor.
func editSim(a, b string) float64 {
	la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	m := max(la, lb)
	if m == 0 {
		return 1
	}
	if float64(abs(la-lb))/float64(m) > 1-nearFloor {
		return 0
	}
	var ba, bb [48]rune // no allocation for short strings
	ra, rb := ba[:0], bb[:0]
	for _, r := range a {
		ra = append(ra, r)
	}
	for _, r := range b {
		rb = append(rb, r)
	}
	return 1 - float64(osaRunes(ra, rb))/float64(m)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// osa is the optimal string alignment distance of a and b: the fewest
// letters inserted, deleted, changed, or two neighbours swapped.
func osa(a, b string) int { return osaRunes([]rune(a), []rune(b)) }

func osaRunes(a, b []rune) int {
	la, lb := len(a), len(b)
	// three rows of the table: two back, one back, this one
	var buf [3 * 48]int
	var rows []int
	if 3*(lb+1) <= len(buf) {
		rows = buf[:3*(lb+1)]
	} else {
		rows = make([]int, 3*(lb+1))
	}
	pp, p, c := rows[:lb+1], rows[lb+1:2*(lb+1)], rows[2*(lb+1):]
	for j := range p {
		p[j] = j
	}
	for i := 1; i <= la; i++ {
		c[0] = i
		for j := 1; j <= lb; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c[j] = min(p[j]+1, c[j-1]+1, p[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				c[j] = min(c[j], pp[j-2]+1)
			}
		}
		pp, p, c = p, c, pp
	}
	return p[lb]
}

// Narrowing is one way to make an ambiguous description name one of its
// candidates: Description, located again, has exactly Node as its target.
type Narrowing struct {
	Node *ax.Node
	// Label is the candidate as messages show it: `button "Menu"`.
	Label string
	// Add is the clause added to the description, "in the Alice row"; ""
	// when the narrowing is an ordinal ("the second Menu button").
	Add string
	// Description is the narrowed description.
	Description string
}

// narrowMax is how many of an ambiguity's candidates Narrow tries;
// narrowClauses how many descriptions narrowed by a clause it locates
// again in all, narrowOthers how many narrowed by a name or an ordinal
// (each a Locate: 17 ms on a 2,000-row page).
const (
	narrowMax     = 5
	narrowClauses = 30
	narrowOthers  = 15
)

// Narrow says how to tell apart the candidates of an ambiguous result r of
// description. For each candidate (the best five) it suggests a container
// clause ("in the Alice row") when its row, item, card, dialog or section
// is known by a name the others' are not (or, for two Starter cards, by
// the container around it: "in the Starter card in the Personal
// section"); else its own name when the others' differ ("the Save draft
// button"); else an ordinal ("the second Menu button"). Every suggestion
// is checked: Locate on s with the narrowed description must return that
// candidate as its target, so the advice is never wrong; a candidate no
// suggestion singles out is left out. It locates at most 45 narrowed
// descriptions (30 by clauses, 15 by names and ordinals), so a candidate
// may be left out when those are spent. A result that is not an ambiguity
// gets none.
//
// Narrow is advice for a failure message: the locator never acts on it.
func Narrow(s *ax.Snapshot, description string, r Result) []Narrowing {
	return narrow(s, description, r, Locate)
}

// narrow is Narrow with the function that locates narrowed descriptions.
func narrow(s *ax.Snapshot, description string, r Result, locate func(*ax.Snapshot, string) Result) []Narrowing {
	if r.Reason != ReasonAmbiguous || len(r.Candidates) < 2 || s == nil {
		return nil
	}
	ix := newIndex(s)
	best := r.Candidates[0].Score
	type member struct {
		i    int
		cand Candidate
	}
	var group []member
	for _, c := range r.Candidates {
		if best-c.Score >= margin-1e-9 || len(group) == narrowMax {
			continue
		}
		if i := ix.find(c.Node); i >= 0 {
			group = append(group, member{i, c})
		}
	}
	if len(group) < 2 {
		return nil
	}
	// Clauses, then names and ordinals, each within a budget of their own:
	// a failed step waits no longer for advice.
	budget := narrowClauses
	verify := func(desc string, n *ax.Node) bool {
		if budget == 0 {
			return false
		}
		budget--
		got := locate(s, desc)
		return got.Target != nil && (got.Target.Node == n || n.Ref != "" && got.Target.Node.Ref == n.Ref)
	}
	out := make([]Narrowing, len(group))
	found := make([]bool, len(group))
	for k, m := range group {
		add := ix.narrowClause(m.i, func(add string) bool { return verify(description+" "+add, m.cand.Node) })
		if add != "" {
			out[k] = Narrowing{Node: m.cand.Node, Label: ix.describeShort(m.i), Add: add, Description: description + " " + add}
			found[k] = true
		}
	}
	// Its own name or text for those no container singles out, when the
	// others' differ ("the Save button" between "Save draft" and "Save
	// copy"; the "$129.00" text among the texts "the price" fits). A run of
	// text is named as quoted text, never by the description's word for it:
	// "the price" fits any text, and a cart status is no price.
	budget = narrowOthers
	q := parse(description, mode{})
	textual := q.role == nil || slices.Contains(textWords, q.role.word)
	for k, m := range group {
		if found[k] {
			continue
		}
		name := nodeWords(m.cand.Node)
		if name == "" || strings.Contains(name, `"`) || len(strings.Fields(name)) > narrowNameWords {
			continue
		}
		unique := true
		for j, o := range group {
			unique = unique && (j == k || !strings.EqualFold(nodeWords(o.cand.Node), name))
		}
		if !unique {
			continue
		}
		var forms []string
		if textual {
			forms = []string{"the " + strconv.Quote(name) + " text", "the " + name + " text"}
		} else {
			forms = []string{"the " + name + " " + q.role.word, "the " + strconv.Quote(name) + " " + q.role.word}
		}
		for _, d := range forms {
			for _, c := range q.clauses {
				d += " " + c.text
			}
			if verify(d, m.cand.Node) {
				out[k] = Narrowing{Node: m.cand.Node, Label: ix.describeShort(m.i), Description: d}
				found[k] = true
				break
			}
		}
	}
	// An ordinal says nothing of what an element is, and a word for text
	// other than "text" (price, amount, counter) fits any run of text: "the
	// second price" may be a cart status. No ordinal for those.
	if q.role != nil && q.role.word != "text" && slices.Contains(textWords, q.role.word) {
		return collect(out, found)
	}
	// An ordinal for those nothing else singles out: its place in document
	// order among the group first, then any other that locates it.
	order := make([]int, len(group))
	for k := range order {
		order[k] = k
	}
	sort.Slice(order, func(a, b int) bool { return group[order[a]].i < group[order[b]].i })
	for pos, k := range order {
		if found[k] {
			continue
		}
		tries := []int{pos + 1}
		for n := 1; n <= len(r.Candidates)+1; n++ {
			if n != pos+1 {
				tries = append(tries, n)
			}
		}
		for _, n := range tries {
			d := withOrdinal(description, n)
			if d != "" && verify(d, group[k].cand.Node) {
				out[k] = Narrowing{Node: group[k].cand.Node, Label: ix.describeShort(group[k].i), Description: d}
				found[k] = true
				break
			}
		}
	}
	return collect(out, found)
}

// collect is the narrowings found, in the candidates' order.
func collect(out []Narrowing, found []bool) []Narrowing {
	var res []Narrowing
	for k := range out {
		if found[k] {
			res = append(res, out[k])
		}
	}
	return res
}

// narrowNameWords is the most words of an element's name or text that a
// narrowing quotes.
const narrowNameWords = 8

// nodeWords is what an element reads as, collapsed: its name, else (a run
// of text) its text.
func nodeWords(n *ax.Node) string {
	if name := collapse(n.Name); name != "" {
		return name
	}
	return collapse(n.Text)
}

// narrowWords are the container words a narrowing clause names a
// container's role by.
var narrowWords = map[string]string{
	"row": "row", "listitem": "item", "item": "item", "treeitem": "item", "article": "card",
	"dialog": "dialog", "alertdialog": "dialog", "region": "section", "group": "group", "section": "section",
	"form": "form", "list": "list", "navigation": "navigation", "menu": "menu", "toolbar": "toolbar", "complementary": "sidebar",
	"banner": "header", "contentinfo": "footer", "tabpanel": "panel", "radiogroup": "group",
}

// narrowMaxWords is the most words of a container's name a clause repeats.
const narrowMaxWords = 6

// narrowClause is the first "in the … row" clause that ok accepts, or "":
// a container's name (its first cell, name or title), nearest container
// first; then one container within another ("in the Starter card in the
// Personal section", for two Starter cards); then a container's own text.
// At most narrowTries clauses are tried.
func (ix *index) narrowClause(i int, ok func(add string) bool) string {
	type named struct {
		word         string
		strong, weak []string
	}
	var cs []named
	for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
		word, known := narrowWords[ix.e[p].n.Role]
		if !known {
			continue
		}
		c := named{word: word}
		strong, all := ix.containerPhrases(p, false), ix.containerPhrases(p, true)
		for _, ph := range all {
			if ph = collapse(ph); ph == "" || len(strings.Fields(ph)) > narrowMaxWords || strings.ContainsAny(ph, `"“”`) {
				continue
			}
			if slices.Contains(strong, ph) {
				c.strong = append(c.strong, ph)
			} else {
				c.weak = append(c.weak, ph)
			}
		}
		if len(c.strong)+len(c.weak) > 0 {
			cs = append(cs, c)
		}
	}
	tries := 0
	try := func(add string) bool {
		if tries == narrowTries {
			return false
		}
		tries++
		return ok(add)
	}
	clause := func(ph, word string) []string {
		return []string{"in the " + ph + " " + word, "in the " + strconv.Quote(ph) + " " + word}
	}
	for _, c := range cs {
		for _, ph := range c.strong {
			for _, add := range clause(ph, c.word) {
				if try(add) {
					return add
				}
			}
		}
	}
	for k, inner := range cs {
		for _, outer := range cs[k+1:] {
			for _, a := range inner.strong {
				for _, b := range outer.strong {
					if strings.EqualFold(a, b) {
						continue // a card in its own list item says nothing more
					}
					if add := "in the " + a + " " + inner.word + " in the " + b + " " + outer.word; try(add) {
						return add
					}
				}
			}
		}
	}
	for _, c := range cs {
		for _, ph := range c.weak {
			for _, add := range clause(ph, c.word) {
				if try(add) {
					return add
				}
			}
		}
	}
	return ""
}

// narrowTries is the most clauses narrowClause tries for one candidate.
const narrowTries = 12

// containerPhrases are the names a container is known by, as "in" reads
// them (see boxQuality): a row's first cell, its name, its title (a
// heading in it), and with own its own text.
func (ix *index) containerPhrases(a int, own bool) []string {
	n := ix.e[a].n
	var out []string
	add := func(s string) {
		if s = collapse(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if rowish[n.Role] {
		add(ix.firstCell(a))
	}
	if _, cut := cutString(n, n.Name); !cut {
		add(n.Name)
	}
	if n.Name == "" {
		add(ix.title(a))
		if t, cut := ix.ownText(a, false); own && !cut {
			add(t)
		}
	}
	return out
}

// ordinalSpelled are the ordinals a narrowing spells out.
var ordinalSpelled = []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}

// withOrdinal puts the nth ordinal into a description: "the Menu button"
// becomes "the second Menu button". It is "" for a description that has
// an ordinal already.
func withOrdinal(description string, n int) string {
	if parse(description, mode{}).ordinal != 0 {
		return ""
	}
	word := ordinalName(n)
	if n < len(ordinalSpelled) {
		word = ordinalSpelled[n]
	}
	d := strings.TrimSpace(description)
	low := strings.ToLower(d)
	for _, art := range []string{"the ", "a ", "an "} {
		if strings.HasPrefix(low, art) {
			return "the " + word + " " + strings.TrimSpace(d[len(art):])
		}
	}
	return "the " + word + " " + d
}
