package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Versions that enter every key, so that entries written under other rules
// are never read as current ones.
const (
	// CacheSchema is bumped whenever what a cache entry means changes.
	CacheSchema = 2
	// EngineCompat is bumped whenever replay changes in a way that makes
	// old selectors, intents or trajectories replay differently.
	EngineCompat = 1
	// PolicyVersion is bumped whenever the rules deciding a hit change
	// (intent checks, evidence checks).
	PolicyVersion = 1
)

// Target is the browser and page size a trace was recorded on.
type Target struct {
	Browser string `json:"browser"` // e.g. "chrome", lowercase
	Major   int    `json:"major"`   // the browser's major version
	Width   int    `json:"width"`   // viewport, CSS pixels
	Height  int    `json:"height"`
}

// AgentConfig is the part of the agent's set-up that shapes what it records.
type AgentConfig struct {
	Model  string `json:"model"`  // "" when no model is configured
	Prompt string `json:"prompt"` // the prompt version
}

// KeyParts are the full identity of a cached trace (DESIGN section 5).
// Key is the one function that turns them into a key.
type KeyParts struct {
	Project string
	// Test is the test the step is in; "" for a step of a flow, which is
	// keyed under Flow instead, so that every test that uses the flow
	// shares its entries.
	Test string
	// Flow is the flow the step is in, "" for a test's own step.
	Flow   string
	Target Target
	// App identifies the application under test: a configured build id, or
	// the base URL's origin.
	App string
	// Instruction is the step description or act goal with its variables
	// unresolved; it is normalised (Unicode NFC, runs of white space to one
	// space, trimmed) before it is digested.
	Instruction string
	// Params are the variables the step uses, as written ({{ env.A }},
	// {{ secret.B }}, {{ unique "c" }}): names only, never values, so a new
	// secret value or a fresh unique value replays the same entry. Order and
	// repeats do not matter.
	Params []string
	// Occurrence counts earlier steps of the test with the same
	// instruction and parameters: 0 for the first.
	Occurrence int
	Agent      AgentConfig
	// Context is the agent context (the test's notes for the agent) as the
	// model is given it: variables unresolved, so no secret value is in it.
	Context string
}

// keyDoc is the canonical form that is hashed: fixed field order, digests
// for the free text.
type keyDoc struct {
	Project     string      `json:"project"`
	Test        string      `json:"test"`
	Flow        string      `json:"flow,omitempty"` // left out for a test's own step: its key is as before flows
	Target      Target      `json:"target"`
	Engine      int         `json:"engine"`
	App         string      `json:"app"`
	Instruction string      `json:"instruction"` // sha256 of the normalised instruction
	Params      string      `json:"params"`      // sha256 of the sorted distinct names
	Occurrence  int         `json:"occurrence"`
	Agent       AgentConfig `json:"agent"`
	Context     string      `json:"context"` // sha256 of the normalised context
	Schema      int         `json:"schema"`
	Policy      int         `json:"policy"`
}

// Normalize returns s in Unicode NFC with every run of white space made one
// space and the ends trimmed: two spellings a reader cannot tell apart give
// the same text.
func Normalize(s string) string {
	return strings.Join(strings.Fields(norm.NFC.String(s)), " ")
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// ParamsDigest is the digest of the variable names a step uses: sorted,
// repeats dropped.
func ParamsDigest(names []string) string {
	ns := slices.Clone(names)
	for i, n := range ns {
		ns[i] = Normalize(n)
	}
	slices.Sort(ns)
	ns = slices.Compact(ns)
	return digest(strings.Join(ns, "\n"))
}

// Identity returns the canonical JSON that Key hashes, for showing what a
// key is made of.
func Identity(p KeyParts) []byte {
	d := keyDoc{
		Project: p.Project, Test: p.Test, Flow: p.Flow, Target: p.Target, Engine: EngineCompat, App: p.App,
		Instruction: digest(Normalize(p.Instruction)), Params: ParamsDigest(p.Params), Occurrence: p.Occurrence,
		Agent: p.Agent, Context: digest(Normalize(p.Context)), Schema: CacheSchema, Policy: PolicyVersion,
	}
	b, _ := json.Marshal(d) // strings, ints and structs of them always marshal
	return b
}

// Key is the sha256, in hex, of the parts' canonical JSON (see Identity).
func Key(p KeyParts) CacheKey {
	sum := sha256.Sum256(Identity(p))
	return CacheKey(hex.EncodeToString(sum[:]))
}

// OccurrenceID is what two steps share when one is a repeat of the other:
// the normalised instruction and the parameter digest.
func OccurrenceID(instruction string, params []string) string {
	return Normalize(instruction) + "\x00" + ParamsDigest(params)
}

// ParseProduct reads a browser's product string ("HeadlessChrome/156.0.1.2",
// "Chrome/156.0…") into a lowercase name without "headless" and the major
// version (0 when it cannot be read).
func ParseProduct(product string) (name string, major int) {
	n, v, _ := strings.Cut(product, "/")
	n = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(n)), "headless")
	m, _, _ := strings.Cut(v, ".")
	major, _ = strconv.Atoi(m)
	return n, major
}
