package session

import (
	"fmt"
	"strings"
	"testing"
)

func TestDiffSteps(t *testing.T) {
	ops := func(ls []DiffLine) string {
		var b strings.Builder
		for _, l := range ls {
			b.WriteString(string(l.Op))
		}
		return b.String()
	}
	for _, c := range []struct {
		name     string
		old, new []string
		want     string
	}{
		{"same, cache ids ignored", []string{"a --cache-id 1", "b"}, []string{"a --cache-id 2", "b"}, "=="},
		{"popup inserted", []string{"a", "b"}, []string{"a", "x", "b"}, "=+="},
		{"step dropped", []string{"a", "b", "c"}, []string{"a", "c"}, "=-="},
		{"step changed", []string{"a", "b", "c"}, []string{"a", "x", "c"}, "=~="},
		{"tail rewritten, longer", []string{"a", "b"}, []string{"a", "x", "y", "z"}, "=~++"},
		{"tail rewritten, shorter", []string{"a", "b", "c"}, []string{"a", "x"}, "=~-"},
		{"empty old", nil, []string{"x"}, "+"},
	} {
		got := DiffSteps(c.old, c.new)
		if ops(got) != c.want {
			t.Errorf("%s: %s, want %s (%+v)", c.name, ops(got), c.want, got)
		}
		// Every step of each side appears once, in order.
		var o, n []string
		for _, l := range got {
			if l.OldIndex >= 0 {
				o = append(o, l.Old)
			}
			if l.NewIndex >= 0 {
				n = append(n, l.New)
			}
		}
		if strings.Join(o, "|") != strings.Join(c.old, "|") || strings.Join(n, "|") != strings.Join(c.new, "|") {
			t.Errorf("%s: sides %v %v", c.name, o, n)
		}
	}
}

func TestPageChange(t *testing.T) {
	before := "- heading \"Shop\"\n- button \"Add\" [ref=e1]\n- status: Cart: 0 items\n- p: a\n- p: b\n- p: c\n- p: d\n- dialog \"Subscribe\":\n  - button \"No thanks\"\n"
	after := "- heading \"Shop\"\n- button \"Add\" [ref=e1]\n- status: Cart: 1 item\n- p: a\n- p: b\n- p: c\n- p: d\n"
	got := PageChange(before, after, 1)
	var b strings.Builder
	for _, l := range got {
		text := l.Old
		if l.Op == DiffInsert {
			text = l.New
		}
		b.WriteString(string(l.Op) + " " + text + "\n")
	}
	want := `= - button "Add" [ref=e1]
- - status: Cart: 0 items
+ - status: Cart: 1 item
= - p: a
⋯ 
= - p: d
- - dialog "Subscribe":
-   - button "No thanks"
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if PageChange(before, before, 2) != nil {
		t.Error("the same outline has no change")
	}
}

// TestDiffStepsAlignsByIdentity: a heal that inserts a step before steps
// the agent wrote again (other cache ids, another timeout, a new value)
// reads as one insertion, the later steps aligned with their old selves,
// never as every later step replaced.
func TestDiffStepsAlignsByIdentity(t *testing.T) {
	old := []string{
		`--step-type CLICK --description "the Add to cart button" --cache-id k1`,
		`--step-type TYPE --description "the Quantity field" --value "2" --cache-id k2`,
		`--step-type EXPECT --expect text --description "the cart status" --value "Cart: 2 items"`,
	}
	new := []string{
		`--step-type CLICK --description "the No thanks button" --cache-id n1`,
		`--step-type CLICK --description "the Add to cart button" --timeout 5s --cache-id n2`,
		`--step-type TYPE --description "the Quantity field" --value "3" --cache-id n3`,
		`--step-type EXPECT --expect text --description "the cart status" --value "Cart: 2 items"`,
	}
	var ops []string
	for _, d := range DiffSteps(old, new) {
		ops = append(ops, fmt.Sprintf("%s%d%d", d.Op, d.OldIndex, d.NewIndex))
	}
	if got, want := strings.Join(ops, " "), "+-10 ~01 ~12 =23"; got != want {
		t.Errorf("rows %s, want %s", got, want)
	}
}
