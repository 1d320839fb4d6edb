package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/e2e-dev/e2e/session/ax"
)

// chromeAX returns Chrome's own role and name for the element behind ref,
// read from Accessibility.getFullAXTree of the element's frame.
type chromeNode struct{ role, name string }

func chromeTree(t *testing.T, p *Page) map[proto.DOMBackendNodeID]chromeNode {
	t.Helper()
	rp := p.rod.Context(ctxT(t))
	out := map[proto.DOMBackendNodeID]chromeNode{}
	tree, err := proto.PageGetFrameTree{}.Call(rp)
	if err != nil {
		t.Fatal(err)
	}
	var frames []proto.PageFrameID
	var walk func(ft *proto.PageFrameTree)
	walk = func(ft *proto.PageFrameTree) {
		frames = append(frames, ft.Frame.ID)
		for _, c := range ft.ChildFrames {
			walk(c)
		}
	}
	walk(tree.FrameTree)
	for _, f := range frames {
		res, err := proto.AccessibilityGetFullAXTree{FrameID: f}.Call(rp)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Nodes {
			if n.Ignored || n.BackendDOMNodeID == 0 {
				continue
			}
			cn := chromeNode{}
			if n.Role != nil {
				cn.role = n.Role.Value.Str()
			}
			if n.Name != nil {
				cn.name = n.Name.Value.Str()
			}
			out[n.BackendDOMNodeID] = cn
		}
	}
	return out
}

func backendID(t *testing.T, p *Page, ref string) proto.DOMBackendNodeID {
	t.Helper()
	rp := p.rod.Context(ctxT(t))
	obj, err := rp.Evaluate(&rod.EvalOptions{JS: `(r) => window.__e2e.resolve(r)`, JSArgs: []any{ref}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := proto.DOMDescribeNode{ObjectID: obj.ObjectID}.Call(rp)
	if err != nil {
		t.Fatal(err)
	}
	return d.Node.BackendNodeID
}

// oracleExceptions are the disagreements with Chrome we accept, each with
// its reason. Key: page + " " + our role + " " + our name.
var oracleExceptions = map[string]string{
	`/actions generic "Hover me"`: "a focusable <div> with a mouse handler: Chrome's generic role takes no name, " +
		"we name clickable generics from their content so a description like 'the Hover me box' can find them",
}

// roleAliases maps Chrome's role names to ours where they differ only in spelling.
var roleAliases = map[string]string{
	"image":          "img",
	"Iframe":         "iframe",
	"MenuListOption": "option",
}

func TestSnapshotMatchesChromeAccessibilityTree(t *testing.T) {
	base := fixtureURL(t)
	pages := []string{"/", "/login", "/users", "/product", "/booking", "/search", "/rows?n=50", "/a11y", "/actions",
		"/zoo/tasks?style=semantic", "/zoo/tasks?style=divsoup", "/zoo/tasks?style=library", "/zoo/tasks?style=webcomponents",
		"/zoo/settings?style=semantic", "/zoo/settings?style=divsoup", "/zoo/settings?style=library", "/zoo/settings?style=webcomponents",
		"/zoo/cards?style=semantic", "/zoo/cards?style=divsoup", "/zoo/cards?style=library", "/zoo/cards?style=webcomponents",
		"/zoo/table?style=semantic", "/zoo/table?style=divsoup", "/zoo/table?style=library", "/zoo/table?style=webcomponents",
		"/zoo/modal?style=semantic", "/zoo/modal?style=divsoup", "/zoo/modal?style=library", "/zoo/modal?style=webcomponents"}
	for _, path := range pages {
		t.Run(path, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+path)
			s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
			if err != nil {
				t.Fatal(err)
			}
			chrome := chromeTree(t, p)
			nodes := s.Interactable()
			if len(nodes) == 0 {
				t.Fatal("no interactable elements")
			}
			var bad []string
			for _, n := range nodes {
				c, ok := chrome[backendID(t, p, n.Ref)]
				key := fmt.Sprintf("%s %s %q", path, n.Role, n.Name)
				if n.States.HoverOnly {
					// Shown only when a container is hovered: not rendered
					// now, so not in Chrome's tree, and it must not be.
					if ok {
						bad = append(bad, fmt.Sprintf("%s: hover-only, but Chrome has it as %s %q", key, c.role, c.name))
					}
					continue
				}
				if _, excused := oracleExceptions[key]; excused {
					continue
				}
				if !ok {
					bad = append(bad, fmt.Sprintf("%s: Chrome has no (unignored) node for it", key))
					continue
				}
				role := c.role
				if a, ok := roleAliases[role]; ok {
					role = a
				}
				if role != n.Role || strings.Join(strings.Fields(c.name), " ") != n.Name {
					bad = append(bad, fmt.Sprintf("%s: Chrome says %s %q", key, c.role, c.name))
				}
			}
			if len(bad) > 0 {
				t.Errorf("%d of %d interactable elements disagree with Chrome:\n%s\nsnapshot:\n%s", len(bad), len(nodes), strings.Join(bad, "\n"), s.Text(ax.TextOptions{}))
			}
		})
	}
}
