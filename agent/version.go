package agent

import (
	"crypto/sha256"
	"encoding/hex"
)

// PromptVersion identifies the agent's prompts and tool definitions: the
// first 12 hex digits of a sha256 over all of them, so that any change to
// what the model is told gives a new version (and new cache keys).
func PromptVersion() string {
	h := sha256.New()
	for _, s := range []string{actPrompt, locatePrompt, assertPrompt, executeStepDoc, spliceDoc, finishDoc, judgeAssertionDoc, chooseElementDoc} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	for _, b := range [][]byte{executeStepSchema, spliceSchema, finishSchema, judgeAssertionSchema, chooseElementSchema} {
		h.Write(b)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}
