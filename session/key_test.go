package session

import "testing"

var keyBase = KeyParts{
	Project: "shop", Test: "archive a user",
	Target:      Target{Browser: "chrome", Major: 156, Width: 1280, Height: 720},
	App:         "http://127.0.0.1:8080",
	Instruction: "the Menu button in the {{ env.WHO }} row",
	Params:      []string{"{{ env.WHO }}", "{{ secret.PW }}"},
	Agent:       AgentConfig{Model: "gpt-x", Prompt: "p1"},
	Context:     "admins can archive users",
}

// TestKeyIsPinned fixes the key of a fixed input: a change to how keys are
// computed must be deliberate (and bump CacheSchema).
func TestKeyIsPinned(t *testing.T) {
	const want = "3cac235a71f8edc2d7c8a3c2efa928f67219edf9422e0645731f97841500a74e"
	if got := Key(keyBase); got != want {
		t.Errorf("Key = %s, want %s\nidentity: %s", got, want, Identity(keyBase))
	}
}

func TestKeyChanges(t *testing.T) {
	k := Key(keyBase)
	for _, c := range []struct {
		name    string
		change  func(p *KeyParts)
		changes bool
	}{
		{"project", func(p *KeyParts) { p.Project = "other" }, true},
		{"test", func(p *KeyParts) { p.Test = "other" }, true},
		{"browser", func(p *KeyParts) { p.Target.Browser = "firefox" }, true},
		{"browser major version", func(p *KeyParts) { p.Target.Major = 157 }, true},
		{"viewport", func(p *KeyParts) { p.Target.Width = 390 }, true},
		{"app identity", func(p *KeyParts) { p.App = "https://staging.example" }, true},
		{"instruction", func(p *KeyParts) { p.Instruction = "the Menu button in the Bob row" }, true},
		{"parameter name", func(p *KeyParts) { p.Params = []string{"{{ env.WHO }}"} }, true},
		{"occurrence", func(p *KeyParts) { p.Occurrence = 1 }, true},
		{"model", func(p *KeyParts) { p.Agent.Model = "gpt-y" }, true},
		{"prompt version", func(p *KeyParts) { p.Agent.Prompt = "p2" }, true},
		{"agent context", func(p *KeyParts) { p.Context = "only owners can archive" }, true},
		{"parameter order and repeats", func(p *KeyParts) {
			p.Params = []string{"{{ secret.PW }}", "{{ env.WHO }}", "{{ secret.PW }}"}
		}, false},
		{"white space in the instruction", func(p *KeyParts) { p.Instruction = "  the Menu button\tin the\n{{ env.WHO }}   row " }, false},
		{"white space in the context", func(p *KeyParts) { p.Context = "admins  can archive\nusers" }, false},
		{"decomposed Unicode (NFD) instruction", func(p *KeyParts) { p.Instruction = "the Menu button in the Ze\u0301 row" }, true},
	} {
		p := keyBase
		c.change(&p)
		if got := Key(p) != k; got != c.changes {
			t.Errorf("changing the %s: key changed = %v, want %v", c.name, got, c.changes)
		}
	}
	// NFC and NFD spellings of the same text give the same key.
	a, b := keyBase, keyBase
	a.Instruction = "the caf\u00e9 link"
	b.Instruction = "the cafe\u0301 link"
	if Key(a) != Key(b) {
		t.Error("NFC and NFD spellings of one instruction gave different keys")
	}
}

func TestParseProduct(t *testing.T) {
	for in, want := range map[string]struct {
		name  string
		major int
	}{
		"HeadlessChrome/156.0.8078.108": {"chrome", 156},
		"Chrome/120.0.1":                {"chrome", 120},
		"":                              {"", 0},
	} {
		if n, m := ParseProduct(in); n != want.name || m != want.major {
			t.Errorf("ParseProduct(%q) = %q, %d", in, n, m)
		}
	}
}
