package run

import (
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session"
	"github.com/e2e-dev/e2e/session/fixture"
)

// Text on screen that has no role of its own is a target and an anchor
// (issue 13 item 1), on every style of the zoo's task list, cold and warm.
const zooTextTest = `name: text targets
url: /zoo/tasks?style=STYLE
steps:
  - expect: { text: { in: the tasks remaining counter, is: "4 tasks remaining" } }
  - expect: { visible: 'the "oat milk and honey" text' }
  - click: the checkbox next to bread
  - expect: { text: { in: the tasks remaining counter, is: "3 tasks remaining" } }
  - expect: { hidden: 'the "4 tasks remaining" text' }
  - dblclick: the oat milk label
  - expect: { value: { of: the oat milk field, is: oat milk } }
`

func TestRunTextTargetsOnTheZoo(t *testing.T) {
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			e := newEnv(t)
			src := strings.ReplaceAll(zooTextTest, "STYLE", style)
			for _, pass := range []string{"cold", "warm"} {
				rep := e.run("", src)
				if !rep.Passed() {
					for _, s := range steps(rep) {
						t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
					}
					t.Fatalf("%s run failed", pass)
				}
				if pass == "warm" {
					// Every step replays from the cache, the counter too: its
					// count changed since it was cached, its words did not.
					// In web components each item has its own shadow root, and
					// a selector that is unique in one matches in the first
					// item's: the intent check turns that into a named miss
					// (re-located), never a wrong element.
					for _, s := range steps(rep) {
						if strings.Contains(s.Command, "hidden") || s.Status == session.StatusHit {
							continue
						}
						if style != "webcomponents" || s.Status != session.StatusRelocated || s.MissReason == "" {
							t.Errorf("warm: %s: %s %s", s.Command, s.Status, s.MissReason)
						}
					}
				}
			}
		})
	}
}

// A cached text target whose exact words the description quoted misses
// when the text changes, and finds no other element in its place.
func TestRunQuotedTextMissesWhenTheTextChanges(t *testing.T) {
	e := newEnv(t)
	first := `name: quoted text
url: /zoo/tasks?style=divsoup
steps:
  - expect: { visible: 'the "4 tasks remaining" text' }
`
	if rep := e.run("", first); !rep.Passed() {
		t.Fatalf("cold run failed:\n%s", e.out.String())
	}
	// The same step, its count changed first: the cached element is the
	// same span, but it no longer says what the step quoted. The step that
	// is to find nothing waits its own timeout out (the click keeps the
	// generous default, so that a loaded machine only makes it slower);
	// 10 s leaves room for a look to finish on a stalled machine.
	second := `name: quoted text
url: /zoo/tasks?style=divsoup
steps:
  - click: the checkbox next to bread
  - expect: { visible: 'the "4 tasks remaining" text' }
    timeout: 10s
`
	rep := e.run("", second)
	if rep.Passed() {
		t.Fatalf("the step passed on a changed text:\n%s", e.out.String())
	}
	st := steps(rep)[1]
	if st.Cache != "miss" || !strings.HasPrefix(st.MissReason, "attribute-changed") {
		t.Errorf("cache %q, miss reason %q; want an attribute-changed miss", st.Cache, st.MissReason)
	}
	if !strings.Contains(st.Error, "no element matches") {
		t.Errorf("error %q; want no element to match", st.Error)
	}
}
