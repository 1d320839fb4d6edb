package run

import (
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session"
)

// hoverDelete is, per style of /zoo/tasks, a description of the delete
// button of the bread item that the local locator can resolve on this
// branch. Every delete button is display:none until its row is hovered.
// The semantic and library styles have a list item to be "in"; the others
// (no list roles) are counted, and divsoup's buttons have no name.
var hoverDelete = map[string]string{
	"semantic":      "the Delete button in the bread item",
	"library":       "the button in the bread item",
	"webcomponents": "the third Delete button",
	"divsoup":       "the third button",
}

// replayMisses are the styles whose cached click may miss and be located
// again, for reasons that have nothing to do with hovering: on semantic,
// the cached ancestors of an element carry no text, so "in the bread item"
// (an unnamed list item) cannot be checked; on webcomponents, the cached
// selector button[title="Delete"] is unique in each item's shadow root
// and votes for the first item's button, which the ordinal check refuses.
var replayMisses = map[string]bool{"semantic": true, "webcomponents": true}

// TestRunClicksHoverOnlyControl deletes the bread item with its hover-only
// delete button on every style: the step hovers the item, clicks, and says
// so in its note. The item that disappears is bread (its neighbours close
// up), never another. A second run replays the step from the cache, with
// the same hover and note.
func TestRunClicksHoverOnlyControl(t *testing.T) {
	for _, style := range []string{"semantic", "divsoup", "library", "webcomponents"} {
		t.Run(style, func(t *testing.T) {
			e := newEnv(t)
			src := `name: delete bread
url: /zoo/tasks?style=` + style + `
steps:
  - click: ` + hoverDelete[style] + `
  - expect: { text: { in: the main content, contains: "oat milk and honey eggs" } }
  - expect: { text: { in: the main content, contains: "3 tasks remaining" } }
`
			for i, want := range []session.StepStatus{session.StatusLocated, session.StatusHit} {
				rep := e.run("", src)
				s := steps(rep)
				if !rep.Passed() {
					for _, s := range s {
						t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
					}
					t.Fatalf("run %d failed", i+1)
				}
				if s[0].Status != want && !(want == session.StatusHit && replayMisses[style] && s[0].Status == session.StatusRelocated) {
					t.Errorf("run %d: the click was %s, want %s (%s)", i+1, s[0].Status, want, s[0].MissReason)
				}
				if !strings.Contains(s[0].Note, "hovered the bread ") || !strings.HasSuffix(s[0].Note, " to reveal it") {
					t.Errorf("run %d: the note does not say what was hovered: %q", i+1, s[0].Note)
				}
			}
		})
	}
}

// TestRunHoverOnlyNearMisses: four items each with a hidden Delete button
// make "the Delete button" ambiguous, never a pick; a hover-only control is
// not visible to expect visible (it fails) and is to expect hidden (it
// passes), though the snapshot lists it.
func TestRunHoverOnlyNearMisses(t *testing.T) {
	e := newEnv(t)
	e.cfg.Timeouts.Step = 1500 * time.Millisecond // room for the first look on a loaded machine
	rep := e.run("", `name: which delete
url: /zoo/tasks?style=semantic
steps:
  - click: the Delete button
`)
	s := steps(rep)
	if rep.Passed() || !strings.Contains(s[0].Error, "matches several elements equally") {
		t.Errorf("the Delete button of four items: %s %q, want ambiguous", s[0].Status, s[0].Error)
	}
	rep = e.run("", `name: hidden until hovered
url: /zoo/tasks?style=semantic
steps:
  - expect: { hidden: the Delete button in the bread item }
`)
	if s := steps(rep); !rep.Passed() {
		t.Errorf("expect hidden on a hover-only button: %s %q", s[0].Status, s[0].Error)
	}
	rep = e.run("", `name: not visible until hovered
url: /zoo/tasks?style=semantic
steps:
  - expect: { visible: the Delete button in the bread item }
`)
	if s := steps(rep); rep.Passed() || !strings.Contains(s[0].Error, "to be visible") {
		t.Errorf("expect visible on a hover-only button: %s %q, want it to fail", s[0].Status, s[0].Error)
	}
}
