package run

import (
	"testing"
)

// TestRunExpectTextInShadowRoots reads the task list's text on the light-DOM
// style and on its web-components twin, whose list and items are in nested
// open shadow roots: expect text reads the same on both.
func TestRunExpectTextInShadowRoots(t *testing.T) {
	for _, style := range []string{"semantic", "webcomponents"} {
		t.Run(style, func(t *testing.T) {
			e := newEnv(t)
			rep := e.run("", `name: shadow text
url: /zoo/tasks?style=`+style+`
steps:
  - expect: { text: { in: the main content, contains: "4 tasks remaining" } }
  - expect: { text: { in: the main content, contains: "oat milk and honey" } }
`)
			if !rep.Passed() {
				for _, s := range steps(rep) {
					t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
				}
				t.Fatal("the test failed")
			}
		})
	}
}
