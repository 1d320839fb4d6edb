// Package locate resolves a plain-English element description ("the Menu
// button in the Alice row", "the blue button", "the second Delete button")
// against an accessibility snapshot, without a model.
//
// The local locator answers only when one candidate is clearly ahead: its
// score reaches a threshold and beats the next candidate by a margin. Two
// candidates it cannot tell apart make an "ambiguous" result that lists
// them, and the caller asks a smarter locator (see Chain). It never picks at
// random: ties are broken only by an ordinal the description gives.
//
// Along with the target it reports the Intent: the attributes and related
// elements the description relied on. Check tests a node against an Intent
// on cache replay, so that "the blue button" misses when the cached button
// is no longer blue, and "the Menu button in the Alice row" misses when the
// cached button now sits in Bob's row.
//
// # Scoring
//
// Every node with a ref is a candidate, runs of text too (they carry the
// ref of the element that holds them). A text run fits the text role words
// (text, label, counter, price, …); without one it is a candidate only when
// no other node reaches the threshold, so it never beats a named element,
// and a position clause's anchor may be text on screen. Hard conditions
// drop a candidate:
// a role word that does not fit its role, a name with no word in common, a
// colour of another class, a container, related element or position that
// does not hold. The rest score:
//
//	role word fits the role exactly            +0.5  (loosely, e.g. a "button" that is a
//	                                                  link: +0.15, and only with a name)
//	no role word, and the node is interactable +0.3
//	name: exact 1, case-insensitive 0.95, same words 0.92, starts with 0.65,
//	      all words in it 0.45–0.6 (by coverage), half the words or more < 0.3
//	      (a row's first cell equal to the name counts as exact; placeholders
//	      count ×0.9, values ×0.8, an unnamed node's text ×0.85, and the
//	      hint of a node with no name ×0.75, see hint.go)
//	colour: its own class +0.5, a near class (slate is near blue) +0.2
//	container ("in the Alice row"): +1 × how well the container's name fits
//	      (with no name: its own text ×0.85, the labels of its controls left
//	      out; a phrase inside it on word boundaries; one that only starts
//	      with or contains the phrase does not fit while a container of its
//	      role reads the phrase exactly)
//	has ("the row with the Delete button"): +0.5 × fit
//	position ("next to", "above", …): +1 × closeness, 1 for the nearest
//
// A target needs a score of at least 0.5 and a lead of 0.25 over the next
// candidate. Candidates within 0.25 of the best are "close": without an
// ordinal that is an ambiguity. An ordinal ("the second Delete button")
// counts in document order among the candidates with the best score, and
// only when they share one name.
//
// A description that starts with an action ("click the …", "type into the
// …") only fits interactable nodes; otherwise rows, headings, dialogs,
// regions and statuses are candidates too.
package locate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/plural"
)

// Reasons a description or an intent does not resolve to one element.
const (
	ReasonNoMatch          = "no-match"
	ReasonAmbiguous        = "ambiguous"
	ReasonAttributeChanged = "attribute-changed"
	ReasonRelationBroken   = "relation-broken"
	ReasonRival            = "rival"
)

// Candidate is a node that fits a description, with its score and why.
type Candidate struct {
	Node      *ax.Node
	Ancestors []*ax.Node // nearest last
	Score     float64
	Why       []string
}

// Result is the answer to one description.
type Result struct {
	// Target is set only when one candidate is clearly ahead.
	Target *Candidate
	// Candidates are the best candidates (at most 5), the target first.
	Candidates []Candidate
	// Intent is what the description relied on: role and name, colour,
	// containers, related elements, ordinal. With no target it holds what
	// the description itself says.
	Intent session.Intent
	// Reason is ReasonNoMatch or ReasonAmbiguous when Target is nil, and
	// Detail a sentence for people, e.g. `2 equal candidates for "the Delete
	// button": button "Delete" [e12] in row "Item 1 …", button "Delete" [e19]
	// in row "Item 2 …"`.
	Reason string
	Detail string
	// ModelCalls is how many model requests answering took (0 for the
	// local locator).
	ModelCalls int
}

// Locator resolves descriptions. The runner asks a Chain: the local locator
// first, then one that asks a model.
type Locator interface {
	Locate(ctx context.Context, s *ax.Snapshot, description string) (Result, error)
}

// Local is the deterministic locator of this package.
type Local struct{}

// Locate implements Locator.
func (Local) Locate(ctx context.Context, s *ax.Snapshot, description string) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	return Locate(s, description), nil
}

// Chain asks each locator in turn until one returns a target. When none
// does, it returns the last result it got; errors from locators are joined
// and returned along with that result (whose Target is then nil).
type Chain []Locator

// Locate implements Locator.
func (c Chain) Locate(ctx context.Context, s *ax.Snapshot, description string) (Result, error) {
	var last Result
	have := false
	calls := 0
	var candidates []Candidate
	var errs []error
	for _, l := range c {
		if l == nil {
			continue
		}
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break
		}
		r, err := l.Locate(ctx, s, description)
		calls += r.ModelCalls
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if r.Target != nil {
			r.ModelCalls = calls
			return r, nil
		}
		if candidates == nil {
			candidates = r.Candidates
		}
		last, have = r, true
	}
	if !have {
		last = Result{Reason: ReasonNoMatch, Detail: "no locator answered for " + strconv.Quote(description)}
	}
	// The first locator's candidates (the local one's scores) are the most
	// useful list for a person when no one found the element.
	if len(last.Candidates) == 0 {
		last.Candidates = candidates
	}
	last.ModelCalls = calls
	return last, errors.Join(errs...)
}

// Locate resolves a description against a snapshot.
//
// A description can be read more than one way: "the First name field" is a
// field named "First name", not the first field named "name"; "the Save for
// later button" has no "for later" clause. Locate reads it the usual way
// first and falls back to readings where colour and ordinal words, the role
// word, or relation keywords are part of the name; a fallback answers only
// when all of its name words are in the target's name.
func Locate(s *ax.Snapshot, description string) Result {
	ix := newIndex(s)
	q0 := parse(description, mode{})
	o0 := ix.resolve(q0)
	// A lone capitalised role word is likely a name: "Menu in the Alice row".
	if q0.roleUpper && q0.name.empty() {
		o := ix.resolve(parse(description, mode{roleAsName: true}))
		if o.target >= 0 && o.cands[o.target].nameQ >= 0.95 && !ix.textOver(o, o0) {
			return ix.result(o)
		}
	}
	var om *outcome
	if q0.modifiers {
		qm := parse(description, mode{modifiersAsName: true})
		o := ix.resolve(qm)
		om = &o
		if o.target >= 0 && o.cands[o.target].nameQ >= 0.95 && (q0.modUpper || len(qm.name.words) >= 2) && !ix.textOver(o, o0) {
			return ix.result(o)
		}
	}
	if o0.target >= 0 {
		return ix.result(o0)
	}
	// "the oat milk checkbox" where every item's checkbox is named
	// "Complete": the checkbox of the item reading oat milk.
	var oe *outcome
	if qe := entryReading(q0); qe != nil && o0.reason == ReasonNoMatch {
		o := ix.resolve(qe)
		if o.target >= 0 {
			return ix.result(o)
		}
		oe = &o
	}
	var alts []outcome
	if om != nil {
		alts = append(alts, *om)
	}
	if q0.role != nil {
		alts = append(alts, ix.resolve(parse(description, mode{roleAsName: true})))
	}
	if q0.keywords {
		alts = append(alts, ix.resolve(parse(description, mode{noClauses: true})))
	}
	if len(alts) > 1 {
		alts = append(alts, ix.resolve(parse(description, mode{true, true, true})))
	}
	// A fallback whose name only starts with or contains its words does not
	// answer while a container reads a clause's name exactly: "the checkbox
	// for oat milk" is not the "oat milk and honey" checkbox while an "oat
	// milk" item has none.
	// Nor does one whose target fits its role word by class words alone
	// (weak evidence on a weak reading): "Delete in the menu" is never the
	// box classed "menu" that reads "Delete".
	blocked := ix.clauseExact(q0)
	for _, o := range alts {
		if o.target >= 0 && !o.q.name.empty() && o.cands[o.target].nameQ >= minNameQuality && (o.cands[o.target].nameQ >= 0.8 || !blocked) && o.cands[o.target].byClass == "" {
			return ix.result(o)
		}
	}
	if len(o0.cands) == 0 {
		if oe != nil && oe.reason == ReasonAmbiguous {
			return ix.result(*oe) // two items read "oat milk"
		}
		// Better an ambiguity between good names than nothing.
		for _, o := range alts {
			if o.reason == ReasonAmbiguous && !o.q.name.empty() && o.cands[0].nameQ >= minNameQuality {
				return ix.result(o)
			}
		}
	}
	return ix.result(o0)
}

// entryToggles are the controls a person names after the entry they sit in
// ("the oat milk checkbox"): one per item, their own names often a verb or
// state ("Complete", "Done", "Select", "Toggle").
var entryToggles = map[string]bool{"checkbox": true, "switch": true, "radio": true}

// entryRole is the container "the oat milk checkbox" reads as, when no
// checkbox is named oat milk: one entry of a collection.
var entryRole = roleDef{word: "item", strong: []string{"listitem", "item", "row", "article", "treeitem"}, container: true}

// entryReading is the reading of "the oat milk checkbox" as "the checkbox
// in the oat milk item", or nil: for a toggle's role word (see
// entryToggles) strongly and a name that is not quoted. Locate asks it only
// when nothing of the role fits the name itself, so a checkbox really named
// oat milk always wins; the container is judged as any "in" container is
// (phrase boundaries, an exact reading beats one that only contains the
// phrase, two items reading it are an ambiguity), and two toggles of the
// role in one item are an ambiguity too.
func entryReading(q *query) *query {
	if q.role == nil || q.name.empty() || q.name.quoted || q.anchorOf {
		return nil
	}
	toggle := false
	for _, r := range q.role.strong {
		toggle = toggle || entryToggles[r]
	}
	if !toggle {
		return nil
	}
	for _, c := range q.clauses {
		if c.kind == kwIn || c.kind == kwFor {
			return nil // "the oat milk checkbox in the list" names its container already
		}
	}
	r := entryRole
	qe := *q
	qe.name = nameSpec{}
	qe.clauses = append([]clause{{kind: kwIn, rel: "in", role: &r, name: q.name, text: "in the " + q.name.phrase + " item"}}, q.clauses...)
	return &qe
}

// clauseExact says some item, card or row reads exactly the name of one of
// the query's "in" or "for" clauses.
func (ix *index) clauseExact(q *query) bool {
	for k := range q.clauses {
		c := &q.clauses[k]
		if (c.kind == kwIn || c.kind == kwFor) && !c.name.empty() {
			for _, r := range textBoxRoles {
				if ix.exactBox(c.name, r) {
					return true
				}
			}
		}
	}
	return false
}

// listCands describes the candidates group names (indexes into cands),
// at most maxCandidates of them, for an ambiguity's detail.
func (ix *index) listCands(cands []cand, group []int) string {
	var parts []string
	for k, g := range group {
		if k == maxCandidates {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, ix.describe(cands[g].i))
	}
	return strings.Join(parts, ", ")
}

// textOver says that reading o found a text run where the usual reading o0
// found an element: another reading's text never overrides an element.
func (ix *index) textOver(o, o0 outcome) bool {
	return o0.target >= 0 && ix.e[o.cands[o.target].i].n.Role == "text" && ix.e[o0.cands[o0.target].i].n.Role != "text"
}

// LooseRole reports whether a description's role word fits node n only
// loosely (a link for "button": people call one the other) while it fit
// the role of the element recorded for it (a button) fully. The recorded
// element showed what kind of element the word meant on this page, so a
// re-location to n is another element, not the one renamed: "the Sign in
// button" recorded on the form's button is not the header's "Sign in" link
// once the button reads "Log in". With no role word, a capitalised one
// (read as a name), or n of the recorded role, it is false.
func LooseRole(description, recorded string, n *ax.Node) bool {
	q := parse(description, mode{})
	if q.role == nil || q.roleUpper || n == nil || n.Role == recorded || recorded == "" {
		return false
	}
	if rs, fit := roleFit(&ax.Node{Role: recorded}, q.role); !fit || rs != wRoleStrong {
		return false
	}
	rs, fit := roleFit(n, q.role)
	return fit && rs < wRoleStrong
}

// Positional says a description places its element against another ("the
// checkbox next to oat milk", "the button below the total"): locating it
// needs the boxes of the page's text runs, which snapshots leave out unless
// asked (browser.SnapshotOptions.TextBoxes).
func Positional(description string) bool {
	for _, c := range parse(description, mode{}).clauses {
		if c.kind == kwSpatial {
			return true
		}
	}
	return false
}

// outcome is how one reading of a description resolved.
type outcome struct {
	q        *query
	cands    []cand
	target   int    // index into cands, or -1
	nth      string // "2nd of 20 in document order"
	nthRoles string // the roles of the elements the ordinal counted among, joined by |
	reason   string
	detail   string
}

func (ix *index) resolve(q *query) outcome {
	o := outcome{q: q, target: -1, reason: ReasonNoMatch}
	if q.empty() {
		o.detail = "nothing to look for in " + strconv.Quote(q.desc)
		return o
	}
	cands, misses, missing := ix.match(q)
	cands = entryOnce(ix, nestedOnce(ix, oneElement(ix, textTier(ix, q, cands))))
	o.cands = cands
	if len(cands) == 0 {
		o.detail = "no element matches " + strconv.Quote(q.desc)
		if missing != "" {
			o.detail += ": nothing matches " + strconv.Quote(missing)
		} else if len(misses) > 0 {
			var parts []string
			for k, m := range misses {
				if k == 2 {
					break
				}
				parts = append(parts, ix.describe(m.i)+" "+m.reason)
			}
			o.detail += "; closest: " + strings.Join(parts, "; ")
		}
		return o
	}
	best := cands[0].score
	if best < threshold {
		o.detail = fmt.Sprintf("no element matches %q well enough; best: %s (score %.2f)", q.desc, ix.describe(cands[0].i), best)
		return o
	}
	var group []int
	equal := true
	for k, c := range cands {
		if best-c.score < margin-1e-9 {
			group = append(group, k)
			if math.Abs(best-c.score) > 1e-9 {
				equal = false
			}
		}
	}
	if q.ordinal != 0 {
		// An ordinal counts among the candidates that match equally well.
		var same []int
		for _, k := range group {
			if best-cands[k].score < 1e-6 {
				same = append(same, k)
			}
		}
		group = same
		sort.Slice(group, func(a, b int) bool { return cands[group[a]].i < cands[group[b]].i })
		// Counting is only sound among elements of one name: "the second
		// Save button" among "Save draft" and "Save copy" is no count.
		if !q.name.empty() {
			k0, v0 := ix.nameAttr(cands[group[0]])
			for _, g := range group[1:] {
				if k, v := ix.nameAttr(cands[g]); k != k0 || !sameText(v, v0) {
					o.reason = ReasonAmbiguous
					o.detail = fmt.Sprintf("%d candidates with different names for %q, which counts among equals: %s", len(group), q.desc, ix.listCands(cands, group))
					return o
				}
			}
		}
		// Items count one collection at a time, as "in the first item"
		// does (see nthContainers): "the first item" on a page with a
		// navigation list and a task list is no count.
		var sets int
		if group, sets = ix.ordinalGroup(cands, group, q.ordinal); sets > 1 {
			o.reason = ReasonAmbiguous
			o.detail = fmt.Sprintf("%q counts in %d collections, one in each: %s", q.desc, sets, ix.listCands(cands, group))
			return o
		}
		k := q.ordinal - 1
		if q.ordinal < 0 {
			k = len(group) + q.ordinal
		}
		if k < 0 || k >= len(group) {
			o.detail = fmt.Sprintf("%q asks for the %s, but only %s %s", q.desc, ordinalName(q.ordinal), plural.Count(len(group), "element"), plural.Word(len(group), "matches", "match"))
			return o
		}
		o.target, o.reason = group[k], ""
		o.nth = fmt.Sprintf("%s of %d in document order", ordinalName(k+1), len(group))
		var roles []string
		for _, g := range group {
			if r := ix.e[cands[g].i].n.Role; !slices.Contains(roles, r) {
				roles = append(roles, r)
			}
		}
		sort.Strings(roles)
		o.nthRoles = strings.Join(roles, "|")
		return o
	}
	if len(group) == 1 {
		o.target, o.reason = 0, ""
		return o
	}
	word := "equal"
	if !equal {
		word = "close"
	}
	var parts []string
	for k, g := range group {
		if k == maxCandidates {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, ix.describe(cands[g].i))
	}
	o.reason = ReasonAmbiguous
	o.detail = fmt.Sprintf("%d %s candidates for %q: %s", len(group), word, q.desc, strings.Join(parts, ", "))
	return o
}

// ordinalGroup narrows an ordinal's group (indexes into cands, in document
// order) to one collection when its candidates are items of collections
// (list items, rows, cards, options, …): they are split into sets as
// container ordinals split them (see ordinalSets). With one set, or one set
// long enough to hold the nth, that set is the group; with several it
// returns the nth of each and their number, an ambiguity. A group of other
// roles comes back as it is, with 1.
func (ix *index) ordinalGroup(cands []cand, group []int, ordinal int) ([]int, int) {
	for _, g := range group {
		if !itemRoles[ix.e[cands[g].i].n.Role] {
			return group, 1
		}
	}
	type key struct {
		role   string
		parent int
	}
	at := map[key]int{}
	var sets [][]int
	for _, g := range group {
		a := cands[g].i
		k := key{ix.e[a].n.Role, ix.setParent(a)}
		j, ok := at[k]
		if !ok {
			j = len(sets)
			at[k] = j
			sets = append(sets, nil)
		}
		sets[j] = append(sets[j], g)
	}
	if len(sets) == 1 {
		return group, 1
	}
	var nth, fit []int
	for j, set := range sets {
		k := ordinal - 1
		if ordinal < 0 {
			k = len(set) + ordinal
		}
		if k >= 0 && k < len(set) {
			nth = append(nth, set[k])
			fit = append(fit, j)
		}
	}
	switch len(fit) {
	case 0:
		return nil, 1 // no collection holds an nth
	case 1:
		return sets[fit[0]], 1
	}
	return nth, len(nth)
}

// textFirst says a description names text itself ("the tasks remaining
// counter", `the "3 items" text`): text runs are candidates like any other.
func textFirst(q *query) bool {
	return q.role != nil && slices.Contains(q.role.strong, "text")
}

// textTier keeps text runs out of the way of elements: unless the
// description names text itself, a text run is a candidate only when no
// other candidate reaches the threshold. So a text run never beats a
// properly named element, and "click the Save button" never clicks text.
func textTier(ix *index, q *query, cands []cand) []cand {
	if textFirst(q) {
		return cands
	}
	other := false
	for _, c := range cands {
		if ix.e[c.i].n.Role != "text" && c.score >= threshold {
			other = true
			break
		}
	}
	if !other {
		return cands
	}
	out := cands[:0:0]
	for _, c := range cands {
		if ix.e[c.i].n.Role != "text" {
			out = append(out, c)
		}
	}
	return out
}

// oneElement keeps the best of candidates that are one element: a text run
// carries the ref of its owner, which may be a candidate too ("paragraph:
// 4 items"). cands are best first.
func oneElement(ix *index, cands []cand) []cand {
	var seen map[string]bool
	out := cands[:0:0]
	for _, c := range cands {
		ref := ix.e[c.i].n.Ref
		if seen[ref] {
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		seen[ref] = true
		out = append(out, c)
	}
	return out
}

// nestedOnce drops a candidate that holds another candidate of the same
// name and score: a component library's wrapper with role tab around a
// button, both named "Completed", is one control on screen, and the inner
// one is what a person clicks. cands are best first.
func nestedOnce(ix *index, cands []cand) []cand {
	if len(cands) < 2 {
		return cands
	}
	drop := map[int]bool{}
	for a := range cands {
		for b := range cands {
			ca, cb := cands[a], cands[b]
			if a == b || math.Abs(ca.score-cb.score) > 1e-9 || !ix.isAncestor(ca.i, cb.i) {
				continue
			}
			na, nb := ix.e[ca.i].n, ix.e[cb.i].n
			if na.Name != "" && sameText(na.Name, nb.Name) && nb.States.Interactive {
				drop[a] = true
			}
		}
	}
	if len(drop) == 0 {
		return cands
	}
	out := cands[:0:0]
	for k, c := range cands {
		if !drop[k] {
			out = append(out, c)
		}
	}
	return out
}

// entryOnce keeps one candidate of the entries nested in one entry: a
// framework's role-less wrapper (role "item" in the snapshot) around a list
// item, a custom element's host around the row in its shadow root, both
// reading "buy milk", are one entry on screen, and an element never ties
// with its own ancestor. Of two entries one inside the other whose scores
// are within the margin, the one with a role of its own wins over the
// snapshot's role-less entry; of two with roles, the inner one. cands are
// best first.
func entryOnce(ix *index, cands []cand) []cand {
	if len(cands) < 2 {
		return cands
	}
	drop := map[int]bool{}
	for a := range cands {
		for b := range cands {
			ca, cb := cands[a], cands[b]
			if a == b || drop[a] || drop[b] || math.Abs(ca.score-cb.score) >= margin-1e-9 || !ix.isAncestor(ca.i, cb.i) {
				continue
			}
			ra, rb := ix.e[ca.i].n.Role, ix.e[cb.i].n.Role
			if !crossEntries[ra] || !crossEntries[rb] {
				continue
			}
			// ca holds cb: drop the role-less one, or else the outer one
			if rb == "item" && ra != "item" {
				drop[b] = true
			} else {
				drop[a] = true
			}
		}
	}
	if len(drop) == 0 {
		return cands
	}
	out := cands[:0:0]
	for k, c := range cands {
		if !drop[k] {
			out = append(out, c)
		}
	}
	return out
}

// result turns an outcome into a Result.
func (ix *index) result(o outcome) Result {
	r := Result{Reason: o.reason, Detail: o.detail}
	order := make([]int, 0, maxCandidates)
	if o.target >= 0 {
		order = append(order, o.target)
	}
	for k := range o.cands {
		if len(order) == maxCandidates {
			break
		}
		if k != o.target {
			order = append(order, k)
		}
	}
	for _, k := range order {
		c := o.cands[k]
		why := append([]string(nil), c.why...)
		if k == o.target && o.nth != "" {
			why = append(why, o.nth)
		}
		r.Candidates = append(r.Candidates, Candidate{
			Node:      ix.e[c.i].n,
			Ancestors: ix.ancestors(c.i),
			Score:     math.Round(c.score*1000) / 1000,
			Why:       why,
		})
	}
	if o.target >= 0 {
		t := r.Candidates[0]
		r.Target = &t
		r.Intent = ix.intent(o)
	} else {
		r.Intent = describedIntent(o.q)
	}
	return r
}

// intent lists what the description relied on to find its target.
func (ix *index) intent(o outcome) session.Intent {
	q, c := o.q, o.cands[o.target]
	n := ix.e[c.i].n
	in := session.Intent{Attributes: map[string]string{"role": n.Role}}
	if !q.name.empty() {
		k, v := ix.nameAttr(c)
		if k == "text" && n.Role == "text" && c.nameQ >= 0.95 {
			// `the "3 tasks remaining" text` and "the oat milk label" named
			// the whole text: another count is another text, and "oat milk
			// and honey" another item, never a hit.
		} else if k == "text" || k == "value" || k == "hint" || k == "label" {
			// Text and values change while the element stays the same (a
			// status counting items, a filled field): the description relied
			// on its own words being there, not on the whole text.
			k, v = k+"~", q.name.phrase
		} else if k == "name" && !q.name.quoted {
			// The words the description named it by: a cache replay judges
			// the element's current name by them (see Check), not by the
			// name seen now. A quoted name stays pinned.
			in.Attributes["name~"] = q.name.phrase
		}
		in.Attributes[k] = v
	}
	if q.role != nil && q.role.level > 0 {
		in.Attributes["level"] = strconv.Itoa(q.role.level)
	}
	if c.byClass != "" {
		// Found by its class words (or as a live region): they must still
		// say what the role word says.
		in.Attributes["class~"] = q.role.word
	}
	if isClickable(n) && n.States.Looks != "" && q.role != nil && slices.Contains(q.role.looks, n.States.Looks) {
		// "the Weekly digest checkbox" was a clickable drawn as one
		in.Attributes["looks"] = n.States.Looks
	}
	if q.color != "" {
		in.Attributes["color"] = q.color
	}
	for ci := range q.clauses {
		cl := &q.clauses[ci]
		h := c.hits[ci]
		switch cl.kind {
		case kwIn:
			an := ix.e[h].n
			name := cl.name.phrase
			if _, full := ix.containerMatch(h, cl); full {
				name = cl.full.phrase // "the cookie banner" was a dialog
			}
			if cl.ordinal != 0 {
				in.Related = append(in.Related, session.Relation{Relation: "in nth", Role: an.Role, Name: strconv.Itoa(cl.ordinal)})
				if !cl.name.empty() {
					in.Related = append(in.Related, session.Relation{Relation: "in", Role: an.Role, Name: name})
				}
				continue
			}
			if !cl.name.empty() && ix.nested(h, cl) {
				in.Related = append(in.Related, session.Relation{Relation: "in", Role: an.Role})
				for p := ix.e[h].parent; p >= 0; p = ix.e[p].parent {
					if _, fit := roleFit(ix.e[p].n, cl.nested); fit {
						in.Related = append(in.Related, session.Relation{Relation: "in", Role: ix.e[p].n.Role})
						break
					}
				}
				continue
			}
			in.Related = append(in.Related, session.Relation{Relation: "in", Role: an.Role, Name: name})
		case kwFor:
			if h >= 0 {
				in.Related = append(in.Related, session.Relation{Relation: "in", Role: ix.e[h].n.Role, Name: cl.name.phrase})
			} else if _, ok := in.Attributes["name"]; !ok {
				in.Attributes["name"] = n.Name // "the row for Alice": its own name mentions Alice
			}
		case kwWith:
			d := ix.e[h].n
			in.Related = append(in.Related, session.Relation{Relation: "has", Role: d.Role, Name: nodeLabel(d)})
		case kwSpatial:
			a := ix.e[h].n
			in.Related = append(in.Related, session.Relation{Relation: cl.rel, Role: a.Role, Name: nodeLabel(a)})
		}
	}
	if q.ordinal != 0 {
		in.Related = append(in.Related, session.Relation{Relation: "nth", Role: o.nthRoles, Name: strconv.Itoa(q.ordinal)})
	}
	return in
}

// nameAttr is the attribute a candidate's name matched on and its value.
func (ix *index) nameAttr(c cand) (string, string) {
	n := ix.e[c.i].n
	switch c.nameSrc {
	case "placeholder":
		return "placeholder", n.States.Placeholder
	case "value":
		return "value", n.States.Value
	case "text":
		return "text", ix.text(c.i)
	case "hint":
		return "hint", n.States.Hint
	case "label":
		return "label", ""
	}
	return "name", n.Name
}

// Describe is what a description says, as the locator reads it, without a
// page: the role and name of its target, a colour, the containers and
// elements it relates to, an ordinal. Other tools that read descriptions
// (the Playwright export) use it rather than parse them again.
func Describe(description string) session.Intent {
	return describedIntent(parse(description, mode{}))
}

// describedIntent is the intent of a description that found no target:
// what it says, in its own words.
func describedIntent(q *query) session.Intent {
	var in session.Intent
	set := func(k, v string) {
		if in.Attributes == nil {
			in.Attributes = map[string]string{}
		}
		in.Attributes[k] = v
	}
	if q.role != nil {
		set("role", q.role.strong[0])
	}
	if !q.name.empty() {
		set("name", q.name.phrase)
	}
	if q.color != "" {
		set("color", q.color)
	}
	for _, cl := range q.clauses {
		r := session.Relation{Relation: cl.rel, Name: cl.name.phrase}
		if cl.role != nil {
			r.Role = cl.role.strong[0]
		}
		if cl.anchor != nil {
			r.Name = cl.anchor.name.phrase
			if cl.anchor.role != nil {
				r.Role = cl.anchor.role.strong[0]
			}
		}
		if r.Relation == "for" {
			r.Relation = "in"
		}
		in.Related = append(in.Related, r)
	}
	if q.ordinal != 0 {
		r := session.Relation{Relation: "nth", Name: strconv.Itoa(q.ordinal)}
		if q.role != nil {
			r.Role = q.role.strong[0]
		}
		in.Related = append(in.Related, r)
	}
	return in
}

// ordinalName is "2nd", "last", "2nd from last".
func ordinalName(n int) string {
	switch {
	case n == -1:
		return "last"
	case n < 0:
		return ordinalName(-n) + " from last"
	}
	suf := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suf = "st"
		case 2:
			suf = "nd"
		case 3:
			suf = "rd"
		}
	}
	return strconv.Itoa(n) + suf
}
