package browser

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

func TestHoverExplore(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range []string{"semantic", "divsoup", "library", "webcomponents"} {
		p := newPage(t)
		open(t, p, base+"/zoo/tasks?style="+style)
		s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Log(style + "\n" + s.Text(ax.TextOptions{}))
	}
}
