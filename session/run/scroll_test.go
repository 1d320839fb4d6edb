package run

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// TestScrollInABox: `scroll: { in: box, to: element }` scrolls the element
// into view in the box that holds it (and the box in its own box, and the
// page), after which a person sees it; a box that does not hold the
// element fails the step, naming both. A second run replays both lookups
// from the cache. The Archive box has a name in these styles (in divsoup
// it is a bare div; scroll.e2e.yaml in the zoo covers the plain form).
func TestScrollInABox(t *testing.T) {
	for _, style := range []string{"semantic", "library", "webcomponents"} {
		t.Run(style, func(t *testing.T) {
			e := newEnv(t)
			good := `name: scroll in the archive
url: /zoo/scroll?style=` + style + `
steps:
  - scroll: { in: the Archive panel, to: the Restore all button }
  - expect: { visible: the Restore all button }
  - click: the Restore all button
  - expect: { text: { in: the status message, is: Restored 12 messages } }
`
			for run := range 2 {
				rep := e.run("", good)
				if rep.Tests[0].Status != "passed" {
					t.Fatalf("run %d: %s: %s", run+1, rep.Tests[0].Status, rep.Tests[0].Error)
				}
				if st := rep.Tests[0].Steps[0]; run == 1 && st.Status != session.StatusHit {
					t.Errorf("run 2: the scroll step is %s (%s), want a cache hit for both lookups", st.Status, st.MissReason)
				}
			}
			bad := `name: scroll in the wrong box
url: /zoo/scroll?style=` + style + `
steps:
  - scroll: { in: the Archive panel, to: the Reply field }
`
			rep := e.run("", bad)
			if err := rep.Tests[0].Error; rep.Tests[0].Status != "failed" || !strings.Contains(err, `"the Reply field" is not inside "the Archive panel"`) {
				t.Errorf("scroll to the Reply field in the Archive panel: %s: %s", rep.Tests[0].Status, err)
			}
		})
	}
}
