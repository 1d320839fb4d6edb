package testfile

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// Spellings of a unique value besides the value itself.
const (
	FormURL  = "url"  // URL-encoded, as in a query string
	FormSlug = "slug" // lowercase letters and digits joined by dashes, as in a path
)

// Spell returns the value in the given form ("" is the value itself).
func Spell(value, form string) string {
	switch form {
	case FormURL:
		return url.QueryEscape(value)
	case FormSlug:
		return slugify(value)
	}
	return value
}

func slugify(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b.WriteRune(c)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// Slots returns s with every spelling of the given unique values (prefix →
// the value this run gave it) replaced by the variable that spells it, so
// that text recorded with this run's values replays with the next run's:
// "user-4711", "user%2B4711" and "user-4711" as a slug become
// {{ unique "user-" }}, {{ unique "user-" | url }}, {{ unique "user-" | slug }}.
// Longer spellings are replaced first; a spelling that equals the plain
// value is written as the plain variable.
func Slots(s string, uniques map[string]string) string {
	type slot struct{ spelled, v string }
	var slots []slot
	for prefix, value := range uniques {
		if value == "" {
			continue
		}
		seen := map[string]bool{}
		for _, form := range []string{"", FormURL, FormSlug} {
			sp := Spell(value, form)
			if sp == "" || seen[sp] {
				continue
			}
			seen[sp] = true
			slots = append(slots, slot{sp, Var{Kind: VarUnique, Name: prefix, Form: form}.String()})
		}
	}
	slices.SortFunc(slots, func(a, b slot) int {
		if c := cmp.Compare(len(b.spelled), len(a.spelled)); c != 0 {
			return c
		}
		return cmp.Compare(a.spelled, b.spelled)
	})
	if len(slots) == 0 {
		return s
	}
	pairs := make([]string, 0, 2*len(slots))
	for _, sl := range slots {
		pairs = append(pairs, sl.spelled, sl.v)
	}
	return strings.NewReplacer(pairs...).Replace(s)
}
