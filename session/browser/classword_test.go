package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
)

// TestSnapshotMarksFileInputs: on every style of the settings page the
// snapshot has one file node, the avatar upload (the input, or the
// "Choose file" div that stands for divsoup's display:none input), which
// says "Avatar" by its name or hint; choosing a file through its ref shows
// the file's name.
func TestSnapshotMarksFileInputs(t *testing.T) {
	base := fixtureURL(t)
	file := filepath.Join(t.TempDir(), "me.png")
	if err := os.WriteFile(file, []byte("png"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/settings?style="+style)
			var files []*ax.Node
			snap(t, p, SnapshotOptions{}).Walk(func(n *ax.Node, _ []*ax.Node) bool {
				if n.States.File {
					files = append(files, n)
				}
				return true
			})
			if len(files) != 1 {
				t.Fatalf("%d file nodes, want 1", len(files))
			}
			n := files[0]
			if k := zooKey(t, p, n.Ref); k != "settings:avatar" {
				t.Errorf("file node %s is %q, want settings:avatar", n.Line(), k)
			}
			if n.Name != "Avatar" && !strings.Contains(n.States.Hint, "Avatar") {
				t.Errorf("file node %s says nothing of Avatar", n.Line())
			}
			must(t, p.SetFiles(ctxT(t), n.Ref, []string{file}))
			found := false
			snap(t, p, SnapshotOptions{}).Walk(func(m *ax.Node, _ []*ax.Node) bool {
				found = found || m.Role == "text" && m.Text == "me.png"
				return true
			})
			if !found {
				t.Errorf("the page does not show the chosen file's name")
			}
		})
	}
}

// TestSnapshotClassWords: a text run owned by a role-less element carries
// its class words (an aria-live region's "status"), generated names left
// out; an overlay classed as a dialog gets a line of its own; a run whose
// owner has a role carries none.
func TestSnapshotClassWords(t *testing.T) {
	url := serveHTML(t, `<!doctype html><body>
<div class="s-msg css-1x2y3z">Saved</div>
<div aria-live="polite"><span>Live now</span></div>
<p class="note">Paragraph</p>
<div class="overlay-box" style="position:fixed;top:0;left:0;width:200px"><div class="overlay-title">Edit name</div><input></div>
<div class="overlay" style="position:fixed;inset:0"></div>
<div class="modal-head">Static head</div>
</body>`)
	p := newPage(t)
	open(t, p, url)
	s := snap(t, p, SnapshotOptions{})
	hints := map[string]string{}
	var boxes []*ax.Node
	s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "text" {
			hints[n.Text] = n.States.Hint
		}
		if n.Role == "generic" && !n.States.Interactive {
			boxes = append(boxes, n)
		}
		return true
	})
	for text, want := range map[string]string{"Saved": "msg", "Live now": "status", "Paragraph": "", "Edit name": "overlay title", "Static head": "modal head"} {
		if hints[text] != want {
			t.Errorf("text %q: hint %q, want %q", text, hints[text], want)
		}
	}
	if len(boxes) != 1 || boxes[0].States.Hint != "overlay box" || len(boxes[0].Children) == 0 {
		t.Fatalf("boxes %v, want one, the overlay box holding its title:\n%s", boxes, s.Text(ax.TextOptions{}))
	}
	if boxes[0].Name != "" {
		t.Errorf("a box has no name; got %q", boxes[0].Name)
	}
}
