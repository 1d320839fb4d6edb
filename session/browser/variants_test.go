package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/ax"
)

func rowOrder(t *testing.T, p *Page) []string {
	t.Helper()
	var names []string
	snap(t, p, SnapshotOptions{}).Walk(func(n *ax.Node, _ []*ax.Node) bool {
		if n.Role == "row" && len(n.Children) > 0 && n.Children[0].Role == "cell" {
			names = append(names, n.Children[0].Name)
		}
		return true
	})
	return names
}

func TestVariantsInTheBrowser(t *testing.T) {
	t.Run("redesign", func(t *testing.T) {
		p := newPage(t)
		open(t, p, fixtureURL(t, "redesign")+"/login")
		s := snap(t, p, SnapshotOptions{})
		find(t, s, "heading", "Welcome back")
		find(t, s, "textbox", "Work email")
		must(t, p.Fill(ctxT(t), find(t, s, "textbox", "Work email").Ref, "alice@example.com", ActOptions{}))
		must(t, p.Click(ctxT(t), ref(t, p, "button", "Continue"), ActOptions{}))
		if !has(t, p, "textbox", "Passphrase") {
			t.Fatalf("step 2 of the redesigned form did not show:\n%s", textOf(t, p))
		}
		open(t, p, fixtureURL(t, "redesign")+"/users")
		find(t, snap(t, p, SnapshotOptions{}), "heading", "Team members")
	})
	t.Run("shuffle", func(t *testing.T) {
		p := newPage(t)
		open(t, p, fixtureURL(t)+"/users")
		plain := strings.Join(rowOrder(t, p), ",")
		open(t, p, fixtureURL(t, "shuffle")+"/users")
		shuffled := strings.Join(rowOrder(t, p), ",")
		if plain != "Alice,Bob,Carol,Dave,Erin" || shuffled == plain || len(shuffled) != len(plain) {
			t.Fatalf("plain %s, shuffled %s", plain, shuffled)
		}
	})
	t.Run("random-attrs", func(t *testing.T) {
		p := newPage(t)
		base := fixtureURL(t, "random-attrs")
		open(t, p, base+"/login")
		var id1, id2 string
		must(t, p.Eval(ctxT(t), &id1, `() => document.querySelector('[data-testid]').closest('[id]')?.id || document.querySelector('input').id`))
		a := snap(t, p, SnapshotOptions{}).Text(ax.TextOptions{})
		open(t, p, base+"/login")
		must(t, p.Eval(ctxT(t), &id2, `() => document.querySelector('[data-testid]').closest('[id]')?.id || document.querySelector('input').id`))
		b := snap(t, p, SnapshotOptions{}).Text(ax.TextOptions{})
		if id1 == id2 {
			t.Errorf("ids did not change between loads: %s", id1)
		}
		if a != b {
			t.Errorf("random attributes changed the accessibility snapshot:\n%s\n---\n%s", a, b)
		}
	})
	t.Run("recolor", func(t *testing.T) {
		p := newPage(t)
		open(t, p, fixtureURL(t)+"/product")
		before := find(t, snap(t, p, SnapshotOptions{}), "button", "Add to cart").States.Color
		save := find(t, snap(t, p, SnapshotOptions{}), "button", "Save for later").States.Color
		open(t, p, fixtureURL(t, "recolor")+"/product")
		s := snap(t, p, SnapshotOptions{})
		after := find(t, s, "button", "Add to cart").States.Color
		if before != "rgb(29, 78, 216)" || after == before || find(t, s, "button", "Save for later").States.Color != before || save == before {
			t.Errorf("add to cart %s → %s; save for later %s → %s", before, after, save, find(t, s, "button", "Save for later").States.Color)
		}
	})
	t.Run("popup", func(t *testing.T) {
		p := newPage(t)
		base := fixtureURL(t, "popup")
		open(t, p, base+"/product")
		s := snap(t, p, SnapshotOptions{})
		find(t, s, "dialog", "Subscribe to our newsletter")
		err := p.Click(ctxT(t), find(t, s, "button", "Add to cart").Ref, ActOptions{Timeout: 300 * time.Millisecond})
		ae := actionErr(t, err, ReasonCovered, "button", "Add to cart")
		if !strings.Contains(ae.CoveredBy, "Subscribe to our newsletter") {
			t.Errorf("covered by %q", ae.CoveredBy)
		}
		must(t, p.Click(ctxT(t), find(t, s, "button", "No thanks").Ref, ActOptions{}))
		must(t, p.Click(ctxT(t), find(t, s, "button", "Add to cart").Ref, ActOptions{}))
		open(t, p, base+"/product") // once only
		if has(t, p, "dialog", "Subscribe to our newsletter") {
			t.Error("the popup came back")
		}
	})
	t.Run("slow", func(t *testing.T) {
		p := newPage(t)
		open(t, p, fixtureURL(t, "slow")+"/search?q=trail")
		// Settling waited for the slow search response.
		if text := textOf(t, p); !strings.Contains(text, "results for trail") {
			t.Fatalf("results not there after settling:\n%s", text)
		}
	})
	t.Run("combined", func(t *testing.T) {
		p := newPage(t)
		open(t, p, fixtureURL(t, "shuffle", "recolor", "random-attrs")+"/users")
		if got := rowOrder(t, p); len(got) != 5 {
			t.Fatalf("rows %v", got)
		}
	})
}
