package browser

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
	"github.com/e2e-dev/e2e/session/fixture"
)

func TestTmpDump(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		p := newPage(t)
		open(t, p, base+"/zoo/tasks?style="+style)
		s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("=== %s\n%s", style, s.Text(ax.TextOptions{}))
		s.Walk(func(n *ax.Node, _ []*ax.Node) bool {
			if n.Role == "text" {
				var info struct{ Tag, Cls, Text string }
				p.Eval(ctxT(t), &info, `(r) => { const el = window.__e2e.resolve(r); return el ? {tag: el.localName, cls: el.className && el.className.baseVal === undefined ? el.className : '', text: el.textContent} : {tag: 'NONE'}; }`, n.Ref)
				t.Logf("text %q ref=%s box=%+v -> %+v", n.Text, n.Ref, n.Box, info)
			}
			return true
		})
		if os.Getenv("DUMPJSON") != "" {
			b, _ := json.MarshalIndent(s, "", " ")
			t.Logf("%s", b)
		}
	}
}
