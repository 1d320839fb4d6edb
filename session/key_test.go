package session

import "testing"

func TestKey(t *testing.T) {
	base := KeyParts{Project: "shop", Test: "archive a user", Description: "the Menu button in the Alice row", Vars: []string{"env.B", "secret.A"}}
	k := Key(base)
	if len(k) != 64 {
		t.Fatalf("key %q", k)
	}
	same := base
	same.Vars = []string{"secret.A", "env.B"}
	if Key(same) != k {
		t.Error("variable order changed the key")
	}
	for name, change := range map[string]func(p *KeyParts){
		"project":     func(p *KeyParts) { p.Project = "other" },
		"test":        func(p *KeyParts) { p.Test = "other" },
		"description": func(p *KeyParts) { p.Description = "the Menu button in the Bob row" },
		"occurrence":  func(p *KeyParts) { p.Occurrence = 1 },
		"vars":        func(p *KeyParts) { p.Vars = []string{"env.B"} },
	} {
		p := base
		change(&p)
		if Key(p) == k {
			t.Errorf("changing the %s did not change the key", name)
		}
	}
}
