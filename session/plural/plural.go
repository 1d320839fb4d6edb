// Package plural writes counts of things in English: "1 step", "2 steps".
// Every count the tool shows a person goes through it, so that no line
// says "1 steps".
package plural

import "strconv"

// Count is n followed by word, in the plural unless n is 1: Count(1,
// "step") is "1 step", Count(0, "step") is "0 steps". The plural adds "s"
// to word (its last word: "test file" becomes "test files"), or is the form
// given when English spells it otherwise: Count(2, "entry", "entries").
func Count(n int, word string, pluralForm ...string) string {
	return strconv.Itoa(n) + " " + Word(n, word, pluralForm...)
}

// Word is word in the plural unless n is 1, as [Count] spells it, without
// the number: for "5/12 tests", or a verb that must agree.
func Word(n int, word string, pluralForm ...string) string {
	switch {
	case n == 1 || n == -1:
		return word
	case len(pluralForm) > 0:
		return pluralForm[0]
	}
	return word + "s"
}
