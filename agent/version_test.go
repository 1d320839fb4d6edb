package agent

import "testing"

func TestPromptVersion(t *testing.T) {
	v := PromptVersion()
	if len(v) != 12 || v != PromptVersion() {
		t.Fatalf("PromptVersion() = %q, not 12 stable hex digits", v)
	}
	saved := actPrompt
	actPrompt += " "
	defer func() { actPrompt = saved }()
	if PromptVersion() == v {
		t.Error("changing the act prompt kept the prompt version")
	}
}
