package locate

import (
	"slices"
	"strings"
	"unicode"

	"github.com/e2e-dev/e2e/session/ax"
)

// Secondary evidence. An interactable node whose accessible name is empty
// or wordless ("×") carries a hint in the snapshot (ax.States.Hint): the
// text next to an unlabelled field, a wrapper's aria-label or title, icon
// text, the words of icons, test ids, class and id. A description's name is
// compared with it at wHint of the quality a name would get, and a node
// known only by its hint never wins over a node whose accessible name fits
// as well (see preferNamed).

// wHint scales the quality of a hint match: below a value (0.8) and a
// placeholder (0.9), so an accessible name always counts for more.
const wHint = 0.75

// hintSameQ is the quality, before wHint, of a part of a hint whose words
// are the name's, synonyms counted: as close as "same words" in a name, so
// that a trash icon and a wrapper labelled Delete are equally the Delete
// button.
const hintSameQ = 0.92

// hintWordsQ is the quality, before wHint, of a name whose every word is
// among a hint's words, synonyms counted ("remove" for a class "destroy").
// Scaled, it stays below minNameQuality: enough for a target that nothing
// else fits, never for a fallback reading or a "for X" mention.
const hintWordsQ = 0.58

// hintSep joins the parts of a hint (see page.js hintOf).
const hintSep = " · "

// synonyms maps a word people use for an icon-only control, and the words
// class names and icons use for it, to one meaning. It applies to hint
// words only: an accessible name must say what the description says.
var synonyms = map[string]string{}

func init() {
	for canon, ws := range map[string][]string{
		"delete": {"delete", "remove", "destroy", "trash", "bin", "garbage", "rubbish", "wastebasket"},
		"close":  {"close", "dismiss", "x"},
		"edit":   {"edit", "pencil", "pen"},
		"menu": {"menu", "more", "kebab", "dots", "dot", "ellipsis", "hamburger", "overflow", "meatball", "meatballs",
			"action", "option"},
		"favourite": {"favourite", "favorite", "fav", "fave", "heart", "like", "star", "starred"},
		"search":    {"search", "magnifier", "magnifying", "loupe"},
		"add":       {"add", "plus", "new", "create"},
		"toggle":    {"toggle", "select", "check", "tick", "mark"},
	} {
		for _, w := range ws {
			synonyms[w] = canon
		}
	}
}

// symbolName says whether a name is all symbols ("×", "⋯"): no letter or
// digit, so it reads as a hint would.
func symbolName(s string) bool {
	if s == "" {
		return false
	}
	if c := s[0] | 0x20; c >= 'a' && c <= 'z' || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// symbolWords are the words symbols stand for, in hints and descriptions.
var symbolWords = strings.NewReplacer(
	"×", " x ", "✕", " x ", "✖", " x ", "⨯", " x ", "✗", " x ",
	"⋯", " more ", "…", " more ", "⋮", " more ", "︙", " more ", "☰", " menu ", "≡", " menu ",
	"+", " plus ", "＋", " plus ", "✎", " pencil ", "✏", " pencil ", "🖉", " pencil ",
	"🗑", " trash ", "🔍", " search ", "🔎", " search ", "⌕", " search ",
)

// iconNoise are words of icon names and classes that say how an icon is
// drawn, not what it does ("icon icon-heart", "dots-horizontal",
// "more-vert"): they are left out of hint words.
var iconNoise = map[string]bool{
	"icon": true, "ico": true, "horizontal": true, "vertical": true, "vert": true, "horiz": true,
	"outline": true, "outlined": true, "filled": true, "solid": true, "fill": true, "svg": true,
}

// hintWords are the comparison words of s with symbols read as words,
// synonyms folded to one meaning, icon drawing words left out, and a
// meaning said twice in a row said once ("more actions" is one menu).
func hintWords(s string) []string {
	ws := words(symbolWords.Replace(s))
	out := ws[:0]
	for _, w := range ws {
		if iconNoise[w] {
			continue
		}
		if c, ok := synonyms[w]; ok {
			w = c
		}
		if len(out) > 0 && out[len(out)-1] == w {
			continue
		}
		out = append(out, w)
	}
	return out
}

// hintQuality compares a description's name with a node's hint: the best
// of its parts read as a name (1 when one equals the name, whatever the
// case; less than minNameQuality counts as nothing), and, for an unquoted
// name, hintSameQ when a part has the name's words, synonyms counted, or
// hintWordsQ when every word of the name is among the hint's words. A hint
// the text caps cut loses its last, partial part. The result is before
// wHint.
func hintQuality(spec nameSpec, n *ax.Node) (float64, string) {
	h := n.States.Hint
	if spec.empty() || (h == "" && !symbolName(n.Name)) {
		return 0, ""
	}
	var parts []string
	if h != "" {
		parts = strings.Split(h, hintSep)
		if kept, cut := cutString(n, h); cut {
			parts = strings.Split(kept, hintSep)
			parts = parts[:len(parts)-1]
		}
	}
	if symbolName(n.Name) {
		parts = append(parts, n.Name) // "×" says close as a hint does
	}
	best, how := 0.0, ""
	for _, p := range parts {
		q, hw := nameQuality(spec, p, words(p))
		if hw == "exact" {
			q = 1
		}
		if q > best {
			best, how = q, hw
		}
	}
	if best < minNameQuality {
		best, how = 0, "" // a hint shares some words with everything
	}
	if spec.quoted || best >= hintSameQ {
		return best, how
	}
	sw := hintWords(spec.phrase)
	if len(sw) == 0 {
		return best, how
	}
	for _, p := range parts {
		if sameWords(sw, hintWords(p)) {
			return hintSameQ, "same words as hint" // "remove" and a part "trash"
		}
	}
	if best >= hintWordsQ {
		return best, how
	}
	have := map[string]bool{}
	for _, p := range parts {
		pw := hintWords(p)
		if len(sw) > 1 && allIn(sw, pw) && !containsRun(pw, sw) {
			// one part holds every word, but not as the phrase: "buy
			// milk" is not the "buy oat milk" beside a checkbox
			return best, how
		}
		for _, w := range pw {
			have[w] = true
		}
	}
	for _, w := range sw {
		if !have[w] {
			return best, how
		}
	}
	return hintWordsQ, "in hint words"
}

// allIn says every word of sw is among ws.
func allIn(sw, ws []string) bool {
	for _, w := range sw {
		if !slices.Contains(ws, w) {
			return false
		}
	}
	return true
}

// synonymMaxWords is the most words an accessible name compared by
// synonyms may have: an icon control's name is short.
const synonymMaxWords = 3

// synonymName compares a description's name with a short accessible name
// by the synonym vocabulary of icon controls, at hintSameQ×wHint, as a hint
// would count: "the menu button" and "the ⋯ button" for a kebab named "More
// actions". The description's words must be what a control does (the
// vocabulary's own words: delete, close, edit, menu, favourite, …) or a
// glyph; words for how an icon looks (trash, heart) name it only by its
// hint. The toggle words
// (select, check, mark) say too little to name a control on their own.
//
// It is synonymWords(spec).fit(name); the locator reads spec once per call
// (index.synonyms).
func synonymName(spec nameSpec, name string) (float64, string) {
	return synonymWords(spec).fit(name)
}

// synSpec is a description's name read for synonymName: its hint words,
// or none when synonyms cannot name it.
type synSpec struct {
	words  []string
	symbol bool
}

// synonymWords reads a description's name for synonymName once.
func synonymWords(spec nameSpec) synSpec {
	if spec.quoted {
		return synSpec{}
	}
	symbol := symbolName(spec.phrase)
	if !symbol {
		// The description says what the control does ("menu",
		// "favourite"), not how its icon looks: "the trash button" is the
		// one with a trash icon, not any button named Delete.
		for _, w := range words(spec.phrase) {
			if synonyms[w] != w {
				return synSpec{}
			}
		}
	}
	sw := hintWords(spec.phrase)
	if len(sw) == 0 || len(sw) > synonymMaxWords || slices.Contains(sw, "toggle") {
		return synSpec{}
	}
	return synSpec{sw, symbol}
}

// fit is synonymName for a read description.
func (s synSpec) fit(name string) (float64, string) {
	if len(s.words) == 0 || name == "" {
		return 0, ""
	}
	if len(words(name)) > synonymMaxWords || !sameWords(s.words, hintWords(name)) {
		return 0, ""
	}
	if s.symbol {
		return hintSameQ * wHint, "same words as symbol"
	}
	return hintSameQ * wHint, "same words by synonym"
}

// preferNamed drops the candidates known only by their hint when another
// candidate's accessible name (or placeholder, value, text) fits the
// description at least as well as their hint does: "the Delete button"
// is the button named Delete, not the unnamed one with a trash icon. It
// drops the role-less clickables known by their text (see clickable.go)
// when an element, not a text run, is named as well: "the Save button" is
// the button named Save, not a clickable div reading Save. The dropped
// ones become misses.
func preferNamed(cands []cand, misses []miss) ([]cand, []miss) {
	// named: the best name among them; namedEl: among elements, text runs
	// left out (a clickable's own text is a run of it)
	named, namedEl := 0.0, 0.0
	for _, c := range cands {
		if c.nameSrc != "hint" && !c.secondary && c.nameQ > named {
			named = c.nameQ
		}
		if c.nameSrc != "hint" && !c.secondary && !c.run && c.nameQ > namedEl {
			namedEl = c.nameQ
		}
	}
	if named < minNameQuality {
		return cands, misses
	}
	kept := cands[:0]
	for _, c := range cands {
		// 0.95: a name that differs in case only still fits as well
		if c.nameSrc == "hint" && c.nameQ/wHint*0.95 <= named+1e-9 {
			misses = append(misses, miss{c.i, c.score, "is known only by its hint, and an element is named so"})
			continue
		}
		if c.secondary && namedEl >= minNameQuality && c.nameQ/clickableText*0.95 <= namedEl+1e-9 {
			misses = append(misses, miss{c.i, c.score, "is a clickable known only by its text, and an element is named so"})
			continue
		}
		kept = append(kept, c)
	}
	return kept, misses
}
