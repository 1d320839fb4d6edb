package locate

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
)

// Check reports whether node n of snapshot s still satisfies an intent,
// as used on cache replay: the attributes hold (role, name, colour, …) and
// so do the relations (container, related elements, position, ordinal).
// When not, reason names why: "attribute-changed: color is green, was blue",
// "relation-broken: not in a row with \"Alice\"". The part before the colon
// is ReasonAttributeChanged or ReasonRelationBroken (ReasonNoMatch for a nil
// node).
//
// ancestors may be nil; Check then finds them in s. Attributes it does not
// know (e.g. "size" from a model) are not judged. A container that only
// starts with or contains a name fails when one of its role in s reads the
// name exactly; with s empty, that is not judged (see NeedsPage).
//
// An intent with "name~" (the description's name phrase, recorded beside
// the name) judges a renamed node by that phrase: still named by it and,
// in s, no other node of its role meeting the intent fits it better or as
// well (ReasonRival). A renamed node with s empty is a miss (see Renamed).
func Check(s *ax.Snapshot, n *ax.Node, ancestors []*ax.Node, in session.Intent) (ok bool, reason string) {
	if n == nil {
		return false, ReasonNoMatch
	}
	ix := newIndex(s)
	i := ix.find(n)
	if i < 0 {
		// A node from elsewhere: judge it on its own subtree, the page's
		// nodes kept as the rivals its containers are weighed against.
		i = ix.add(n)
	}
	attrs := in.Attributes
	phrase, byWords := attrs["name~"]
	if byWords && !sameText(n.Name, attrs["name"]) {
		// Renamed since the recording: the description's words must still
		// name it, and rivals are weighed below, which needs the page.
		if q := ix.wordsFit(i, phrase); q < minNameQuality {
			return false, ReasonAttributeChanged + ": name " + strconv.Quote(n.Name) + " no longer says " + strconv.Quote(phrase)
		}
		if len(s.Root) == 0 {
			return false, ReasonAttributeChanged + ": name is " + strconv.Quote(n.Name) + ", was " + strconv.Quote(attrs["name"])
		}
		attrs = maps.Clone(attrs)
		delete(attrs, "name")
	}
	if why := ix.checkAttributes(i, attrs); why != "" {
		return false, ReasonAttributeChanged + ": " + why
	}
	if why := ix.checkRelated(i, ancestors, in); why != "" {
		return false, ReasonRelationBroken + ": " + why
	}
	if byWords && len(s.Root) > 0 {
		if why := ix.checkRivals(i, phrase, in); why != "" {
			return false, ReasonRival + ": " + why
		}
	}
	return true, ""
}

// checkRelated returns the first relation of in that node i no longer
// meets (containers and related elements first, then ordinals), or "".
func (ix *index) checkRelated(i int, ancestors []*ax.Node, in session.Intent) string {
	anc := ix.ancestorIndexes(i, ancestors)
	for _, r := range in.Related {
		if r.Relation == "nth" {
			continue
		}
		if why := ix.checkRelation(i, anc, r, in); why != "" {
			return why
		}
	}
	for _, r := range in.Related {
		if r.Relation != "nth" {
			continue
		}
		if why := ix.checkNth(i, r, in); why != "" {
			return why
		}
	}
	return ""
}

// Renamed reports whether node n's accessible name differs from the one
// recorded in an intent that named it by the description's words
// ("name~"): Check then weighs the page's rivals, so it needs the page.
func Renamed(n *ax.Node, in session.Intent) bool {
	_, byWords := in.Attributes["name~"]
	return byWords && n != nil && !sameText(n.Name, in.Attributes["name"])
}

// wordsFit is how well the description's name phrase fits node i now: its
// name, label, placeholder, value, text (for clickables) or hint, as the
// locator compares them (nodeName). A fit by synonym only ("Actions" for
// "menu") is none: the locator may guess so, but a renamed element must
// still carry the description's own words.
func (ix *index) wordsFit(i int, phrase string) float64 {
	q, how, _ := ix.nodeName(i, relationSpec(phrase), false)
	if how == "same words by synonym" {
		return 0
	}
	return q
}

// checkRivals returns why another element of the target's role, meeting
// every other condition of the intent, is at least as good a reading of
// the description's name as node i, or "". A rival that fits better means
// the name moved to it ("button \"Save\" now fits better"); one that fits
// as well means the description no longer picks node i alone, and a replay
// must not pick it blindly. With an ordinal the order among equals is the
// point, and checkNth (with the recorded name) judges it instead.
func (ix *index) checkRivals(i int, phrase string, in session.Intent) string {
	for _, r := range in.Related {
		if r.Relation == "nth" {
			return ""
		}
	}
	n := ix.e[i].n
	q := ix.wordsFit(i, phrase)
	rest := map[string]string{}
	for k, v := range in.Attributes {
		if k != "name" && k != "name~" && k != "role" {
			rest[k] = v
		}
	}
	const eps = 1e-6
	for j := range ix.e {
		o := ix.e[j].n
		if j == i || o.Ref == "" || o.Role != n.Role || (n.Ref != "" && o.Ref == n.Ref) {
			continue
		}
		if ix.isAncestor(j, i) || ix.isAncestor(i, j) {
			continue
		}
		qj := ix.wordsFit(j, phrase)
		if qj < minNameQuality || qj < q-eps {
			continue
		}
		if ix.checkAttributes(j, rest) != "" {
			continue
		}
		anc := ix.ancestorIndexes(j, nil)
		ok := true
		for _, r := range in.Related {
			if ix.checkRelation(j, anc, r, in) != "" {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if qj > q+eps {
			return o.Role + " " + strconv.Quote(o.Name) + " now fits better"
		}
		return o.Role + " " + strconv.Quote(o.Name) + " fits as well"
	}
	return ""
}

// NeedsPage reports whether Check needs the whole page, not only a node and
// its ancestors (as a cache replay resolves them, without their content),
// to judge intent in: an "in" relation with a name is met by a container
// with no name, known by its text, which the ancestors do not hold; or by
// one whose name only starts with or contains the relation's name, so that
// another container of its role may read the name exactly and be the one
// meant (see boxMatch). A row's name joins its cells, so it always only
// starts with its first cell's: a row is judged by its first cell when the
// ancestor carries it (a child of role cell, as a replay resolves it), and
// needs the page when that cell does not read the name exactly ("Cara Diaz
// 2" for "Cara Diaz"); a row without it is judged on the ancestors alone.
func NeedsPage(ancestors []*ax.Node, in session.Intent) bool {
	for _, r := range in.Related {
		if r.Relation != "in" || r.Name == "" {
			continue
		}
		spec := relationSpec(r.Name)
		for k := len(ancestors) - 1; k >= 0; k-- {
			a := ancestors[k]
			if a == nil || r.Role != "" && a.Role != r.Role {
				continue
			}
			if a.Name == "" && len(a.Children) == 0 {
				return true
			}
			ix := newIndex(&ax.Snapshot{Root: []*ax.Node{a}})
			if q, how := ix.boxQuality(0, spec); q >= minNameQuality {
				if !exactHow(how) && (a.Role != "row" || hasCell(a)) {
					return true
				}
				break
			}
		}
	}
	return false
}

// hasCell says row node a holds a cell.
func hasCell(a *ax.Node) bool {
	for _, c := range a.Children {
		switch c.Role {
		case "cell", "gridcell", "rowheader", "columnheader":
			return true
		}
	}
	return false
}

// ancestorIndexes returns the indexes of a node's ancestors, nearest first.
// Ancestors the caller passed that are not in the index are kept as extra
// entries so that their names can still be judged.
func (ix *index) ancestorIndexes(i int, given []*ax.Node) []int {
	var out []int
	if given == nil || ix.e[i].parent >= 0 {
		for p := ix.e[i].parent; p >= 0; p = ix.e[p].parent {
			out = append(out, p)
		}
		return out
	}
	for k := len(given) - 1; k >= 0; k-- {
		a := ix.find(given[k])
		if a < 0 {
			a = ix.add(given[k])
		}
		out = append(out, a)
	}
	return out
}

// add appends node n and its subtree to the index as a tree of its own and
// returns its index.
func (ix *index) add(n *ax.Node) int {
	sub := newIndex(&ax.Snapshot{Root: []*ax.Node{n}})
	off := len(ix.e)
	for _, e := range sub.e {
		if e.parent >= 0 {
			e.parent += off
		}
		e.end += off
		ix.e = append(ix.e, e)
	}
	return off
}

func sameText(a, b string) bool { return strings.EqualFold(collapse(a), collapse(b)) }

// checkAttributes returns what no longer holds, or "".
func (ix *index) checkAttributes(i int, attrs map[string]string) string {
	n := ix.e[i].n
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	was := func(k, now, then string) string {
		return k + " is " + strconv.Quote(now) + ", was " + strconv.Quote(then)
	}
	for _, k := range keys {
		v := attrs[k]
		switch k {
		case "role":
			if n.Role != v {
				return "role is " + n.Role + ", was " + v
			}
		case "name":
			if !sameText(n.Name, v) {
				return was("name", n.Name, v)
			}
		case "placeholder":
			if !sameText(n.States.Placeholder, v) {
				return was("placeholder", n.States.Placeholder, v)
			}
		case "value":
			if !sameText(n.States.Value, v) {
				return was("value", n.States.Value, v)
			}
		case "text":
			if t := ix.text(i); !sameText(t, v) {
				return was("text", t, v)
			}
		case "text~", "value~":
			now := n.States.Value
			if k == "text~" {
				now = ix.text(i)
			}
			if !hasWords(now, v) {
				return strings.TrimSuffix(k, "~") + " " + strconv.Quote(now) + " no longer says " + strconv.Quote(v)
			}
		case "hint~":
			// The description named the node by its hint: the hint, or by
			// now its name, must still say so.
			spec := nameSpec{phrase: collapse(v), words: words(v)}
			if q, _ := hintQuality(spec, n); q <= 0 {
				if q, _, _ := ix.nodeName(i, spec, false); q < minNameQuality {
					return "hint " + strconv.Quote(n.States.Hint) + " no longer says " + strconv.Quote(v)
				}
			}
		case "class~":
			if why := checkClass(n, v); why != "" {
				return why
			}
		case "label~":
			// The description named the value by the label beside it.
			if !ix.labelledBy(i, v) {
				return "no label beside it says " + strconv.Quote(v)
			}
		case "color", "colour":
			m, p := colorMatch(n.States.Color, v)
			if m == 0 {
				if p == "" {
					return "color is none, was " + v
				}
				return "color is " + p + ", was " + v
			}
		case "looks":
			// a clickable drawn as a checkbox must still be drawn so
			if n.States.Looks != v {
				return "looks is " + strconv.Quote(n.States.Looks) + ", was " + strconv.Quote(v)
			}
		case "level":
			if strconv.Itoa(n.States.Level) != v {
				return "level is " + strconv.Itoa(n.States.Level) + ", was " + v
			}
		}
	}
	return ""
}

// relationName is how a message names the other end of a relation.
func relationName(r session.Relation) string {
	s := r.Role
	if s == "" {
		s = "an element"
	} else {
		s = "a " + s
	}
	if r.Name != "" {
		s += " " + strconv.Quote(r.Name)
	}
	return s
}

// relationSpec is the name of a relation's other end as a description's
// name is read (see makeName).
func relationSpec(name string) nameSpec {
	spec := nameSpec{phrase: collapse(name)}
	ws := words(spec.phrase)
	spec.words = ws[:0]
	for _, w := range ws {
		if !filler[w] && !articles[w] {
			spec.words = append(spec.words, w)
		}
	}
	return spec
}

// checkRelation returns what no longer holds about one relation of intent
// in, or "". A container is judged as the locator judges it (boxMatch): by
// its name or, with none, its own text, and a text that only starts with
// the name fails while a container of its role reads the name exactly.
func (ix *index) checkRelation(i int, anc []int, r session.Relation, in session.Intent) string {
	attrs := in.Attributes
	switch r.Relation {
	case "in":
		spec := relationSpec(r.Name)
		for _, a := range anc {
			an := ix.e[a].n
			if r.Role != "" && an.Role != r.Role {
				continue
			}
			if r.Name == "" {
				return ""
			}
			if ix.boxMatch(a, spec) > 0 {
				return ""
			}
		}
		if r.Role == "" && r.Name != "" {
			if q, _, _ := ix.nodeName(i, spec, false); q >= minNameQuality {
				return ""
			}
		}
		return "not in " + relationName(r)
	case "in nth":
		want, err := strconv.Atoi(r.Name)
		if err != nil || want == 0 {
			return ""
		}
		// As the locator counts: in each set of containers of this role
		// (one parent each) that have the name an "in" relation of the same
		// role gives ("the second Alice row" counts Alice rows), the node
		// must be inside the nth of some set.
		var names []nameSpec
		for _, o := range in.Related {
			if o.Relation == "in" && o.Role == r.Role && o.Name != "" {
				names = append(names, relationSpec(o.Name))
			}
		}
		fits := func(a int) bool {
			if ix.e[a].n.Role != r.Role {
				return false
			}
			for _, sp := range names {
				if ix.boxMatch(a, sp) == 0 {
					return false
				}
			}
			return true
		}
		var sets [][]int
		if r.Role != "" {
			sets = ix.ordinalSets(fits)
		}
		near, pos := -1, -1
		for _, a := range anc {
			if !fits(a) {
				continue
			}
			p := -1
			for _, list := range sets {
				if p = indexOf(list, a); p >= 0 {
					k := want - 1
					if want < 0 {
						k = len(list) + want
					}
					if p == k {
						return ""
					}
					break
				}
			}
			if near < 0 {
				near, pos = a, p
			}
		}
		if near < 0 {
			if len(names) > 0 {
				return "not in a " + r.Role + " " + strconv.Quote(names[0].phrase)
			}
			return "not in a " + r.Role
		}
		return "in the " + ordinalName(pos+1) + " " + r.Role + ", was the " + ordinalName(want)
	case "has":
		for j := i + 1; j < ix.e[i].end; j++ {
			d := ix.e[j].n
			if (r.Role == "" || d.Role == r.Role) && (r.Name == "" || sameText(nodeLabel(d), r.Name)) {
				return ""
			}
		}
		return "has no " + strings.TrimPrefix(relationName(r), "a ")
	case "next to", "above", "below", "left of", "right of":
		return ix.checkPlaced(i, r, attrs)
	}
	return ""
}

// checkPlaced checks a position relation against every element that fits
// its other end. "next to" also needs the node to be the nearest of the
// nodes that have its attributes.
func (ix *index) checkPlaced(i int, r session.Relation, attrs map[string]string) string {
	n := ix.e[i].n
	found := false
	for a := range ix.e {
		an := ix.e[a].n
		if a == i || an.Ref == "" || (r.Role != "" && an.Role != r.Role) || (r.Name != "" && !sameText(nodeLabel(an), r.Name)) {
			continue
		}
		if ix.isAncestor(a, i) || ix.isAncestor(i, a) {
			continue
		}
		found = true
		d, ok := placed(r.Relation, ix.box(i), ix.box(a))
		if !ok {
			continue
		}
		if r.Relation != "next to" {
			return ""
		}
		nearest := true
		for j := range ix.e {
			o := ix.e[j].n
			if j == i || j == a || o.Ref == "" || o.Role != n.Role || ix.isAncestor(j, a) || ix.isAncestor(a, j) {
				continue
			}
			if ix.checkAttributes(j, attrs) != "" {
				continue
			}
			if d2, ok := placed("next to", ix.box(j), ix.box(a)); ok && d2 < d-8 {
				nearest = false
				break
			}
		}
		if nearest {
			return ""
		}
	}
	if !found {
		return "no " + strings.TrimPrefix(relationName(r), "a ") + " to be " + r.Relation
	}
	return "not " + r.Relation + " " + relationName(r)
}

// checkNth checks an ordinal: among the nodes that meet every other
// condition of the intent, in document order, n is still the nth.
func (ix *index) checkNth(i int, r session.Relation, in session.Intent) string {
	want, err := strconv.Atoi(r.Name)
	if err != nil || want == 0 {
		return ""
	}
	// The ordinal counted among elements of these roles ("the third field"
	// counts text boxes and comboboxes alike); the role attribute is the
	// target's own and does not narrow the count.
	roles := strings.Split(r.Role, "|")
	rest := session.Intent{Attributes: map[string]string{}}
	for k, v := range in.Attributes {
		if k != "role" || r.Role == "" {
			rest.Attributes[k] = v
		}
	}
	for _, o := range in.Related {
		if o.Relation != "nth" {
			rest.Related = append(rest.Related, o)
		}
	}
	var group []int
	for j := range ix.e {
		nj := ix.e[j].n
		if nj.Ref == "" || (nj.Role == "text" && !slices.Contains(roles, "text")) || (r.Role != "" && !slices.Contains(roles, nj.Role)) {
			continue
		}
		if ix.checkAttributes(j, rest.Attributes) != "" {
			continue
		}
		anc := ix.ancestorIndexes(j, nil)
		ok := true
		for _, o := range rest.Related {
			if ix.checkRelation(j, anc, o, rest) != "" {
				ok = false
				break
			}
		}
		if ok {
			group = append(group, j)
		}
	}
	k := want - 1
	if want < 0 {
		k = len(group) + want
	}
	pos := indexOf(group, i)
	if pos == k {
		return ""
	}
	if pos < 0 {
		return "no longer one of the " + strconv.Itoa(len(group)) + " that match"
	}
	return "is the " + ordinalName(pos+1) + " of " + strconv.Itoa(len(group)) + ", was the " + ordinalName(want)
}

func indexOf(list []int, x int) int {
	for k, v := range list {
		if v == x {
			return k
		}
	}
	return -1
}

// hasWords reports whether every word of ws appears in s, ignoring case. A
// word with punctuation attached ("#0", "total:") also holds when the words
// the matcher reads in it (see words) all appear.
func hasWords(s, ws string) bool {
	ls := strings.ToLower(collapse(s))
	for _, w := range strings.Fields(strings.ToLower(ws)) {
		if strings.Contains(ls, w) {
			continue
		}
		parts := words(w)
		if len(parts) == 0 {
			if asciiPunct(w) {
				continue // "#", "-", ":": no word the locator read
			}
			return false
		}
		for _, p := range parts {
			if !strings.Contains(ls, p) {
				return false
			}
		}
	}
	return true
}

// asciiPunct says w is ASCII punctuation only ("#", "--", ":"), which the
// locator reads as no word; a symbol such as "×" or "⋯" is not.
func asciiPunct(w string) bool {
	for _, r := range w {
		if r > 0x7e || r < 0x21 || ('0' <= r && r <= '9') || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') {
			return false
		}
	}
	return w != ""
}

// wordAttrs are the intent's attributes that hold the description's words
// for the element's own text: what a rename changes.
var wordAttrs = []string{"name~", "name", "placeholder", "text~", "text", "hint~", "label~"}

// CheckRenamed is Check for an element that re-identification found by its
// likeness to the recorded one (the same role, and an anchor that is not
// its text: its id, test id, href or place) and whose own words no longer
// say the description's: everything else the intent relied on must hold
// (role, colour, relations, ordinal), and no other node of its role that
// meets all that may still be named by the description's words (ReasonRival:
// the words moved to another element; the element was not renamed). It
// needs the page: with s empty it is a miss.
func CheckRenamed(s *ax.Snapshot, n *ax.Node, ancestors []*ax.Node, in session.Intent) (ok bool, reason string) {
	if n == nil {
		return false, ReasonNoMatch
	}
	if len(s.Root) == 0 {
		return false, ReasonAttributeChanged + ": renamed, and the page is needed to weigh rivals"
	}
	ix := newIndex(s)
	i := ix.find(n)
	if i < 0 {
		i = ix.add(n)
	}
	rest := maps.Clone(in.Attributes)
	phrase := ""
	for _, k := range wordAttrs {
		if v, ok := rest[k]; ok {
			if phrase == "" {
				phrase = v
			}
			delete(rest, k)
		}
	}
	if why := ix.checkAttributes(i, rest); why != "" {
		return false, ReasonAttributeChanged + ": " + why
	}
	if why := ix.checkRelated(i, ancestors, in); why != "" {
		return false, ReasonRelationBroken + ": " + why
	}
	if phrase == "" {
		return true, ""
	}
	role := ix.e[i].n.Role
	for j := range ix.e {
		o := ix.e[j].n
		if j == i || o.Ref == "" || o.Role != role || o.Ref == n.Ref || ix.isAncestor(j, i) || ix.isAncestor(i, j) {
			continue
		}
		if ix.wordsFit(j, phrase) < minNameQuality || ix.checkAttributes(j, rest) != "" {
			continue
		}
		fits := true
		oa := ix.ancestorIndexes(j, nil)
		for _, r := range in.Related {
			if r.Relation != "nth" && ix.checkRelation(j, oa, r, in) != "" {
				fits = false
				break
			}
		}
		if fits {
			return false, ReasonRival + ": " + o.Role + " " + strconv.Quote(o.Name) + " is named by the description"
		}
	}
	return true, ""
}
