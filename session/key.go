package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
)

// CacheSchema is bumped whenever what a cache entry means changes, so that
// old entries are not read as new ones.
const CacheSchema = 1

// KeyParts are what an element cache key is made of. It is the one place
// that decides a key: the full trace identity (DESIGN section 5) widens it.
type KeyParts struct {
	Project     string   `json:"project"`
	Test        string   `json:"test"`
	Description string   `json:"description"` // with variables unresolved
	Occurrence  int      `json:"occurrence"`  // 0 for the first step with this description in the test, 1 for the next, …
	Vars        []string `json:"vars"`        // variable names the step uses (never values)
	Schema      int      `json:"schema"`
}

// Key is the sha256 of the parts as canonical JSON (fixed field order,
// sorted variable names), in hex.
func Key(p KeyParts) CacheKey {
	p.Schema = CacheSchema
	vars := append([]string(nil), p.Vars...)
	sort.Strings(vars)
	if vars == nil {
		vars = []string{}
	}
	p.Vars = vars
	b, _ := json.Marshal(p) // a struct of strings and ints always marshals
	sum := sha256.Sum256(b)
	return CacheKey(hex.EncodeToString(sum[:]))
}
