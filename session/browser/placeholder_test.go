package browser

import (
	"testing"

	"github.com/e2e-dev/e2e/session/fixture"
	"github.com/e2e-dev/e2e/session/locate"
)

// TestFilledFieldKeepsItsPlaceholder: a field described by its placeholder
// is still found once it holds text ("type into the "What needs to be
// done?" field", then "press Enter in" it), on every zoo style.
func TestFilledFieldKeepsItsPlaceholder(t *testing.T) {
	base := fixtureURL(t)
	const desc = `the "What needs to be done?" field`
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/tasks?style="+style)
			r := locate.Locate(snapshotT(t, p), desc)
			if r.Target == nil {
				t.Fatalf("empty: %s", r.Detail)
			}
			ref := r.Target.Node.Ref
			if err := p.Fill(ctxT(t), ref, "butter", ActOptions{}); err != nil {
				t.Fatal(err)
			}
			r = locate.Locate(snapshotT(t, p), desc)
			if r.Target == nil {
				t.Fatalf("filled: %s", r.Detail)
			}
			if n := r.Target.Node; n.Ref != ref || n.States.Value != "butter" || (n.States.Placeholder != "What needs to be done?" && n.Name != "What needs to be done?") {
				t.Errorf("filled: %s, want the field %s holding butter, named or placeholdered as before", n.Line(), ref)
			}
		})
	}
}
