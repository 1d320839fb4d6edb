package browser

import (
	"testing"

	"github.com/e2e-dev/e2e/session/ax"
)

func TestSmoke(t *testing.T) {
	p := newPage(t)
	open(t, p, serveHTML(t, `<h1>Hello</h1><label>Email <input id=e></label><button onclick="this.textContent='Done'">Go</button><p>Some <b>text</b> here</p>`))
	s, err := p.Snapshot(ctxT(t), SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + s.Text(ax.TextOptions{}))
	btn := s.Interactable()[1]
	if err := p.Click(ctxT(t), btn.Ref, ActOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.Fill(ctxT(t), s.Interactable()[0].Ref, "a@b.c", ActOptions{}); err != nil {
		t.Fatal(err)
	}
	s, _ = p.Snapshot(ctxT(t), SnapshotOptions{})
	t.Log("\n" + s.Text(ax.TextOptions{}))
}
