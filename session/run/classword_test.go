package run

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/e2e-dev/e2e/session"
)

// TestRunClassWordStepsReplay: steps whose element only class words or a
// hidden file input's stand-in make known (divsoup's status line, its
// overlay dialog, its "Choose file" div; library's live region) pass, and
// a second run replays them from the cache.
func TestRunClassWordStepsReplay(t *testing.T) {
	file := filepath.Join(t.TempDir(), "me.png")
	if err := os.WriteFile(file, []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, src string }{
		{"settings divsoup", `name: upload
url: /zoo/settings?style=divsoup
steps:
  - upload: { into: the Avatar field, files: ` + file + ` }
  - expect: { visible: the "me.png" text }
  - expect: { text: { in: the status message, is: Not saved yet } }
`},
		{"modal divsoup", `name: dialog
url: /zoo/modal?style=divsoup
steps:
  - click: the Edit name button
  - expect: { visible: the Edit display name dialog }
  - click: the Save button in the Edit display name dialog
  - expect: { text: { in: the status message, is: "Saved: Ann Lee" } }
`},
		{"modal library", `name: status
url: /zoo/modal?style=library
steps:
  - expect: { text: { in: the status message, is: Nothing saved yet } }
`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			for run := 1; run <= 2; run++ {
				rep := e.run("", c.src)
				ss := steps(rep)
				if !rep.Passed() {
					for _, s := range ss {
						t.Logf("%s: %s %s %s", s.Command, s.Status, s.Error, s.Note)
					}
					t.Fatalf("run %d failed", run)
				}
				if run == 2 {
					for _, s := range ss {
						if s.Status != session.StatusHit && s.Status != session.StatusPassed {
							t.Errorf("replay: %s was %s (%s), want a cache hit", s.Command, s.Status, s.MissReason)
						}
					}
				}
			}
		})
	}
}
