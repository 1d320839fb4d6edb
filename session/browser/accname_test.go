package browser

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/locate"
)

// Twins whose shared name only the spec's rules give: one of each pair is
// named through CSS generated content, a control embedded in its label,
// aria-labelledby skipping hidden text, an <input type=image>'s alt or a
// non-breaking space. A wrong name on one twin turns an honest ambiguity
// into a silent pick of the other (a wrong element); the locator must say
// the description is ambiguous, never pick one.
func TestSharedCorrectNamesAreAmbiguous(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, `<!doctype html><style>
.del::before { content: "Delete "; }
.hide { display: none; }
</style><body>
<section aria-label="Generated content">
  <button class="del">draft</button>
  <button>Delete draft</button>
</section>
<section aria-label="Embedded control">
  <label><input type="checkbox"> Flash the screen <input type="text" value="3" aria-label="count"> times</label>
  <label><input type="checkbox"> Flash the screen 3 times</label>
</section>
<section aria-label="Labelled by">
  <span id="l1">Archive<span class="hide"> everything</span></span>
  <button aria-labelledby="l1">x</button>
  <button>Archive</button>
</section>
<section aria-label="Image input">
  <input type="image" alt="Search" src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==">
  <button>Search</button>
</section>
<section aria-label="Non-breaking space">
  <button>Save&nbsp;copy</button>
  <button>Save copy</button>
</section>
</body>`))
	s := snap(t, p, SnapshotOptions{})
	for _, c := range []struct{ desc, role, name string }{
		{"the Delete draft button", "button", "Delete draft"},
		{"the Flash the screen 3 times checkbox", "checkbox", "Flash the screen 3 times"},
		{"the Archive button", "button", "Archive"},
		{"the Search button", "button", "Search"},
		{"the Save copy button", "button", "Save copy"},
	} {
		var twins []*ax.Node
		s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
			if n.Role == c.role && collapseSpace(n.Name) == c.name {
				twins = append(twins, n)
			}
			return true
		})
		r := locate.Locate(s, c.desc)
		if r.Target != nil || r.Reason != locate.ReasonAmbiguous {
			got := ""
			if r.Target != nil {
				got = r.Target.Node.Role + " " + r.Target.Node.Name + " " + r.Target.Node.Ref
			}
			t.Errorf("%s: got %q (reason %q), want ambiguous", c.desc, got, r.Reason)
		}
		if len(twins) != 2 {
			t.Errorf("%s: %d elements named %q, want 2:\n%s", c.desc, len(twins), c.name, s.Text(ax.TextOptions{}))
		}
	}
}

// collapseSpace reads U+00A0 as a space, as the locator does.
func collapseSpace(s string) string {
	out := []rune{}
	space := false
	for _, r := range s {
		if r == ' ' || r == '\u00a0' || r == '\t' || r == '\n' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
	}
	return string(out)
}
