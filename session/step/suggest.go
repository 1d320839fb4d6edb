package step

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the candidate that word most likely misspells, for "did
// you mean" hints, or "" when none is close. The comparison ignores case; a
// candidate is close when its edit distance from word is small for its
// length, or when word is a prefix of it at least three characters long.
// Ties go to the candidate that comes first.
func Closest(word string, candidates []string) string {
	w := strings.ToLower(word)
	best, bestDist := "", -1
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := distance(w, lc)
		limit := max(1, utf8.RuneCountInString(lc)/3)
		if d > limit && !(len(w) >= 3 && strings.HasPrefix(lc, w)) {
			continue
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// didYouMean returns "did you mean X?" for the closest candidate, or "".
func didYouMean(word string, candidates []string) string {
	if c := Closest(word, candidates); c != "" {
		return "did you mean " + c + "?"
	}
	return ""
}

// distance returns the edit distance between a and b in runes, counting an
// insertion, a deletion, a substitution or a swap of two neighbours as one
// edit (optimal string alignment).
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := [3][]int{make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		prev2, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		rows[0], rows[1], rows[2] = prev, cur, prev2
	}
	return rows[1][len(rb)]
}
