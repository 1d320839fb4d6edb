package run

import (
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// Role-less clickables (divsoup's div "Save", its box and pill toggles, the
// span filters) are located by the local locator on a cold run and replay
// from the cache on a warm one: the intent check reads them as the snapshot
// does (a generic clickable, its text, its drawing).
const zooClickableTest = `name: clickables
url: /zoo/settings?style=divsoup
steps:
  - click: the Weekly digest checkbox
  - click: the Dark mode switch
  - click: the Save button
  - expect: { visible: 'the "Saved: Email notifications on, Weekly digest on, Dark mode on, Language English" text' }
`

const zooClickableFilters = `name: clickable filters
url: /zoo/tasks?style=divsoup
steps:
  - click: the checkbox next to bread
  - click: the Completed filter
  - expect: { hidden: the oat milk label }
  - click: the All filter
  - expect: { visible: the oat milk label }
`

func TestRunClickablesReplayFromTheCache(t *testing.T) {
	for _, src := range []string{zooClickableTest, zooClickableFilters} {
		e := newEnv(t)
		for _, pass := range []string{"cold", "warm"} {
			rep := e.run("", src)
			if !rep.Passed() {
				for _, s := range steps(rep) {
					t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
				}
				t.Fatalf("%s run failed", pass)
			}
			if pass != "warm" {
				continue
			}
			for _, s := range steps(rep) {
				if s.Kind == "CLICK" && s.Status != session.StatusHit {
					t.Errorf("warm: %s: %s %s", s.Command, s.Status, s.MissReason)
				}
			}
		}
	}
}
