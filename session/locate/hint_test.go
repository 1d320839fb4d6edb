package locate

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

func hint(h string) opt { return func(n *ax.Node) { n.States.Hint = h } }

// hintCase is one description against a hand-built snapshot: the node it
// must find (by pointer), or the reason it finds none.
type hintCase struct {
	desc   string
	want   *ax.Node
	reason string
}

func runHintCases(t *testing.T, page string, s *ax.Snapshot, cases []hintCase) {
	t.Helper()
	for _, c := range cases {
		r := Locate(s, c.desc)
		if c.want != nil {
			if r.Target == nil || r.Target.Node != c.want {
				got := "<none>"
				if r.Target != nil {
					got = r.Target.Node.Ref + " " + r.Target.Node.Line()
				}
				t.Errorf("%s: Locate(%q) = %s, want %s (%s: %s; candidates %s)", page, c.desc, got, c.want.Ref+" "+c.want.Line(), r.Reason, r.Detail, hintLabels(r.Candidates))
			}
			continue
		}
		if r.Target != nil || r.Reason != c.reason {
			got := "<none>"
			if r.Target != nil {
				got = r.Target.Node.Ref + " " + r.Target.Node.Line()
			}
			t.Errorf("%s: Locate(%q) = %s reason %q, want no target, reason %q (%s)", page, c.desc, got, r.Reason, c.reason, r.Detail)
		}
	}
}

func hintLabels(cs []Candidate) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Node.Ref+" "+c.Node.Line()+" "+jsonf(c.Score))
	}
	return "[" + strings.Join(out, "; ") + "]"
}

// TestHintFindsUnnamedControls: controls with no accessible name are found
// by their secondary evidence, and near misses stay misses or ambiguities.
func TestHintFindsUnnamedControls(t *testing.T) {
	// A task list in "div soup": the checkboxes' labels are siblings, the
	// delete button is drawn by CSS and known by its class.
	all := el("checkbox", "", hint("Mark all as complete · toggle all"))
	oat := el("checkbox", "", hint("oat milk · toggle"))
	oatHoney := el("checkbox", "", hint("oat milk and honey · toggle"))
	destroy := el("button", "", hint("destroy"))
	field := el("textbox", "New task", placeholder("What needs to be done?"))
	tasks := snap(banner(), el("main", "", kids(
		el("heading", "Tasks", level(1)),
		all, field, oat, txt("oat milk"), destroy, oatHoney, txt("oat milk and honey"),
	)))
	runHintCases(t, "tasks", tasks, []hintCase{
		{desc: "the Delete button", want: destroy},
		{desc: "click the remove button", want: destroy}, // "remove" finds a "destroy" hint
		{desc: "the trash button", want: destroy},
		{desc: "the oat milk checkbox", want: oat},
		{desc: "check the oat milk and honey checkbox", want: oatHoney},
		{desc: "the honey checkbox", want: oatHoney},
		{desc: "the Mark all as complete checkbox", want: all},
		{desc: "the Select all checkbox", want: all},         // "toggle all" in the class
		{desc: `the "remove" button`, reason: ReasonNoMatch}, // quoted: the words as shown, no synonyms
		{desc: "the Edit button", reason: ReasonNoMatch},
		{desc: "the Close button", reason: ReasonNoMatch},
		{desc: "the Delete all button", reason: ReasonNoMatch}, // a hint must hold every word
	})

	// Library style: icon buttons in cards, a wrapper's aria-label, an SVG
	// icon name, a pencil, a credit card field's class.
	trashA := el("button", "", hint("trash"))
	trashB := el("button", "", hint("Delete · trash"))
	pencil := el("button", "", hint("pencil"))
	credit := el("button", "", hint("credit card"))
	closeX := el("button", "×", hint("modal close"))
	times := el("button", "", hint("×"))
	cards := snap(banner(), el("main", "", kids(
		el("article", "", kids(el("heading", "Alpha", level(2)), trashA, pencil)),
		el("article", "", kids(el("heading", "Beta", level(2)), trashB, credit)),
		el("dialog", "Share", kids(closeX)),
		el("region", "Toast", kids(times)),
	)))
	runHintCases(t, "cards", cards, []hintCase{
		// two icon buttons both hinted "delete" in two unnamed cards
		{desc: "the Delete button", reason: ReasonAmbiguous},
		{desc: "the remove button", reason: ReasonAmbiguous},
		{desc: "the Edit button", want: pencil},   // never the "credit" one
		{desc: "the pencil button", want: pencil}, // the hint's own word
		{desc: "the credit card button", want: credit},
		{desc: "the Close button in the Share dialog", want: closeX},
		{desc: "the dismiss button in the Toast region", want: times}, // "×" reads as close
		{desc: "the Close button", reason: ReasonAmbiguous},
	})

	// A button named Delete beats one known only by its hint.
	named := el("button", "Delete")
	hinted := el("button", "", hint("Delete · trash"))
	longer := el("button", "Delete all completed")
	mixed := snap(banner(), el("main", "", kids(
		el("article", "", kids(el("heading", "Alpha", level(2)), hinted)),
		el("article", "", kids(el("heading", "Beta", level(2)), named)),
	)))
	runHintCases(t, "named", mixed, []hintCase{
		{desc: "the Delete button", want: named},
		{desc: "the delete button", want: named},
		{desc: "the trash button", want: hinted},
	})
	// Even a link named Delete, which "button" fits only loosely.
	link := el("link", "Delete")
	linked := snap(banner(), el("main", "", kids(
		el("article", "", kids(el("heading", "Alpha", level(2)), hinted)),
		el("article", "", kids(el("heading", "Beta", level(2)), link)),
	)))
	runHintCases(t, "named link", linked, []hintCase{
		{desc: "the Delete button", want: link},
	})
	partly := snap(banner(), el("main", "", kids(hinted, longer)))
	runHintCases(t, "partly named", partly, []hintCase{
		// "Delete all completed" starts with the name; the hint says it
		// exactly, so the two are close: no guess.
		{desc: "the Delete button", reason: ReasonAmbiguous},
		{desc: "the Delete all completed button", want: longer},
	})
}

// TestHintIntentChecks: a target found by its hint is checked on replay
// by its hint, which must still say what the description said.
func TestHintIntentChecks(t *testing.T) {
	destroy := el("button", "", hint("destroy"))
	s := snap(banner(), el("main", "", kids(el("heading", "Tasks", level(1)), destroy)))
	r := Locate(s, "the Delete button")
	if r.Target == nil {
		t.Fatalf("no target: %s", r.Detail)
	}
	if got := r.Intent.Attributes["hint~"]; got != "Delete" {
		t.Fatalf("intent %v, want hint~ Delete", r.Intent.Attributes)
	}
	if ok, why := Check(s, destroy, nil, r.Intent); !ok {
		t.Errorf("the same node fails its intent: %s", why)
	}
	for _, c := range []struct {
		node *ax.Node
		ok   bool
	}{
		{el("button", "", hint("trash can")), true},
		{el("button", "Delete"), true}, // it gained a name that says so
		{el("button", "", hint("pencil")), false},
		{el("button", "Edit"), false},
		{el("button", ""), false},
	} {
		c.node.Ref = destroy.Ref
		other := snap(banner(), el("main", "", kids(el("heading", "Tasks", level(1)), c.node)))
		if ok, why := Check(other, c.node, nil, r.Intent); ok != c.ok {
			t.Errorf("Check(%s) = %v (%s), want %v", c.node.Line(), ok, why, c.ok)
		}
	}
}

// TestHintCut: a hint the text caps cut loses its last part, which may be
// partial.
func TestHintCut(t *testing.T) {
	n := el("button", "", hint("Remove · oat milk… 40 more characters"))
	n.Cut = true
	for _, c := range []struct {
		desc string
		want float64
	}{
		{"Remove", 1},
		{"oat milk", 0},
		{"delete", hintSameQ},
	} {
		if q, _ := hintQuality(nameSpec{phrase: c.desc, words: words(c.desc)}, n); q != c.want {
			t.Errorf("hintQuality(%q) = %v, want %v", c.desc, q, c.want)
		}
	}
}
