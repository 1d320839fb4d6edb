package locate

import (
	"strconv"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

// cutAt cuts s as the snapshot's text caps do, keeping its first k bytes
// (a rune boundary), and says how much was left out.
func cutAt(s string, k int) string {
	kept := strings.TrimRight(s[:k], " ")
	return kept + "… " + strconv.Itoa(len([]rune(s[len(kept):]))) + " more characters"
}

// A node whose name, value or text the snapshot cut never matches a
// description better than the same node with its whole text: not as a
// name, a value, a row's first cell, or an unnamed node's text, wherever
// the cut falls (inside a word too) and whatever the description (the part
// kept, with or without the marker, quoted or not).
func TestCutTextNeverMatchesBetterThanWholeText(t *testing.T) {
	fulls := []string{
		"Save changes now",
		"Delete drafts-items permanently",
		"Éléments sélectionnés: 12 fichiers",
		"aaaaaaaaaaaa",
		"Log in to your account",
		"Items items ITEMS",
		"e-mail address",
		"Sign in",
	}
	type shape struct {
		name string
		make func(text string, cut bool) *ax.Snapshot
	}
	shapes := []shape{
		{"name", func(s string, cut bool) *ax.Snapshot {
			return &ax.Snapshot{Root: []*ax.Node{{Role: "button", Name: s, Ref: "e1", Cut: cut, States: ax.States{Interactive: true}}}}
		}},
		{"value", func(s string, cut bool) *ax.Snapshot {
			return &ax.Snapshot{Root: []*ax.Node{{Role: "textbox", Ref: "e1", Cut: cut, States: ax.States{Interactive: true, Value: s}}}}
		}},
		{"first cell", func(s string, cut bool) *ax.Snapshot {
			return &ax.Snapshot{Root: []*ax.Node{{Role: "row", Ref: "e1", Children: []*ax.Node{{Role: "cell", Name: s, Ref: "e2", Cut: cut}}}}}
		}},
		{"text", func(s string, cut bool) *ax.Snapshot {
			return &ax.Snapshot{Root: []*ax.Node{{Role: "status", Ref: "e1", Children: []*ax.Node{{Role: "text", Text: s, Cut: cut}}}}}
		}},
	}
	fails := 0
	for _, full := range fulls {
		var phrases []string
		ws := strings.Fields(full)
		for i := 1; i <= len(ws); i++ {
			phrases = append(phrases, strings.Join(ws[:i], " "))
		}
		var cuts []string
		for k := 1; k < len(full); k++ {
			if !strings.HasPrefix(full[k:], string([]rune(full[k:])[:1])) || (full[k]&0xc0) == 0x80 {
				continue // not a rune boundary
			}
			c := cutAt(full, k)
			cuts = append(cuts, c)
			kept, _, _ := ax.CutPrefix(c)
			phrases = append(phrases, kept, c)
		}
		for _, sh := range shapes {
			whole := newIndex(sh.make(full, false))
			for _, c := range cuts {
				cut := newIndex(sh.make(c, true))
				for _, p := range phrases {
					for _, spec := range []nameSpec{{phrase: p, words: words(p)}, {phrase: p, words: words(p), quoted: true}} {
						qw, _, _ := whole.nodeName(0, spec, true)
						qc, how, _ := cut.nodeName(0, spec, true)
						if qc > qw+1e-9 {
							if fails++; fails > 20 {
								t.Fatal("and more")
							}
							t.Errorf("%s %q cut to %q matches %q (quoted %v) %s at %.2f, the whole at %.2f", sh.name, full, c, p, spec.quoted, how, qc, qw)
						}
					}
				}
			}
		}
	}
}
