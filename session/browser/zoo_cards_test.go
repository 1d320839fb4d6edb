package browser

import (
	"slices"
	"testing"

	"github.com/go-rod/rod/lib/input"

	"github.com/e2e-dev/e2e/session/fixture"
)

// The geometry every style of /zoo/cards shares (see css() in
// zoo_cards.js), from a card's title box: the buttons are 32px squares 4px
// apart at the card's bottom right, centred 90px below the title's top; the
// "more" button's centre is 16px left of the title's right end.
var zooCardButtonDX = map[string]float64{"favourite": 124, "edit": 88, "delete": 52, "more": 16}

const zooCardButtonDY = 90

// nthText is the box of the i-th (0-based, tree order) visible element whose
// own text is s.
func (d zooDriver) nthText(s string, i int) zooBox {
	d.t.Helper()
	var b zooBox
	zooEval(d.t, d.p, &b, `
const hits = deepAll(zoo, el => visible(el) && [...el.childNodes].some(c => c.nodeType === 3 && c.data.trim() === args[0]));
if (hits.length <= args[1]) return { n: hits.length };
const r = hits[args[1]].getBoundingClientRect();
return { n: 1, x: r.left, y: r.top, w: r.width, h: r.height };`, s, i)
	if b.N != 1 {
		d.t.Fatalf("%d visible elements show %q, want at least %d; screen: %q", b.N, s, i+1, d.texts())
	}
	return b
}

// cardButton clicks the button of kind on the card whose title box is b.
func (d zooDriver) cardButton(b zooBox, kind string) {
	d.t.Helper()
	d.click(b.X+b.W-zooCardButtonDX[kind], b.Y+zooCardButtonDY)
}

func zooCardsScreen(favourites string, cards ...string) []string {
	return append([]string{favourites}, cards...)
}

func TestZooCards(t *testing.T) {
	base := fixtureURL(t)
	for _, style := range fixture.ZooStyles {
		t.Run(style, func(t *testing.T) {
			p := newPage(t)
			open(t, p, base+"/zoo/cards?style="+style)
			d := zooDriver{t, p}
			screen := func(what string, want ...string) {
				t.Helper()
				d.wantScreen(what, want...)
			}
			personal := []string{"Personal", "Starter", "Free", "Pro", "$12 / month", "Pro Plus", "$20 / month"}
			team := []string{"Team", "Starter", "$5 / seat", "Business", "$15 / seat", "Enterprise", "Contact us"}
			screen("seed", zooCardsScreen("♥ 0 favourites", slices.Concat(personal, team)...)...)
			zooCardsMarkup(t, p, style)

			// Favourite toggles and the count follows.
			d.cardButton(d.text("Pro"), "favourite")
			screen("Pro favourited", zooCardsScreen("♥ 1 favourite", slices.Concat(personal, team)...)...)
			d.cardButton(d.text("Business"), "favourite")
			screen("Business favourited", zooCardsScreen("♥ 2 favourites", slices.Concat(personal, team)...)...)
			d.cardButton(d.text("Pro"), "favourite")
			screen("Pro unfavourited", zooCardsScreen("♥ 1 favourite", slices.Concat(personal, team)...)...)

			// Edit renames in place: a focused field holding the title, text
			// selected; Enter saves, Escape cancels.
			d.cardButton(d.text("Pro Plus"), "edit")
			var ed struct{ Tag, Value string }
			zooEval(t, p, &ed, `const f = focused(); return { tag: f ? f.tagName : '', value: f ? f.value || '' : '' };`)
			if ed.Tag != "INPUT" || ed.Value != "Pro Plus" {
				t.Fatalf("after Edit the focus is on %s %q, want an INPUT holding \"Pro Plus\"", ed.Tag, ed.Value)
			}
			screen("editing Pro Plus", zooCardsScreen("♥ 1 favourite", slices.Concat(personal[:5], personal[6:], team)...)...)
			d.typeText("Pro Max")
			d.press(input.Enter)
			personal[5] = "Pro Max"
			screen("renamed", zooCardsScreen("♥ 1 favourite", slices.Concat(personal, team)...)...)
			d.cardButton(d.text("Pro Max"), "edit")
			d.typeText("zzz")
			d.press(input.Escape)
			screen("rename cancelled", zooCardsScreen("♥ 1 favourite", slices.Concat(personal, team)...)...)

			// Delete removes the card it is on: the second Starter (Team), then
			// the favourited Business, which takes the count down.
			d.cardButton(d.nthText("Starter", 1), "delete")
			team = slices.Delete(team, 1, 3)
			screen("Team Starter deleted", zooCardsScreen("♥ 1 favourite", slices.Concat(personal, team)...)...)
			d.cardButton(d.text("Business"), "delete")
			team = slices.Delete(team, 1, 3)
			screen("Business deleted", zooCardsScreen("♥ 0 favourites", slices.Concat(personal, team)...)...)

			// More opens a menu on the card; a click elsewhere or Escape closes it.
			menu := []string{"Duplicate", "Move to Personal"}
			d.cardButton(d.text("Enterprise"), "more")
			screen("Enterprise menu", zooCardsScreen("♥ 0 favourites", slices.Concat(personal, team, menu)...)...)
			h := d.text("Personal")
			d.click(h.X+h.W/2, h.cy())
			screen("menu closed by a click elsewhere", zooCardsScreen("♥ 0 favourites", slices.Concat(personal, team)...)...)
			d.cardButton(d.text("Enterprise"), "more")
			screen("Enterprise menu again", zooCardsScreen("♥ 0 favourites", slices.Concat(personal, team, menu)...)...)
			d.press(input.Escape)
			screen("menu closed by Escape", zooCardsScreen("♥ 0 favourites", slices.Concat(personal, team)...)...)
			d.cardButton(d.text("Enterprise"), "more")
			m := d.text("Move to Personal")
			d.click(m.X+m.W/2, m.cy())
			screen("Enterprise moved", zooCardsScreen("♥ 0 favourites", slices.Concat(personal, []string{"Enterprise", "Contact us", "Team"})...)...)

			d.cardButton(d.text("Pro"), "more")
			m = d.text("Duplicate")
			d.click(m.X+m.W/2, m.cy())
			screen("Pro duplicated", zooCardsScreen("♥ 0 favourites", slices.Concat(personal[:5], []string{"Pro copy", "$12 / month"}, personal[5:],
				[]string{"Enterprise", "Contact us", "Team"})...)...)
		})
	}
}

// zooCardsMarkup checks each style's DOM is the kind it claims to be: named
// buttons, classes only, ARIA on wrappers with svg icons, nested shadow roots.
func zooCardsMarkup(t *testing.T, p *Page, style string) {
	t.Helper()
	var m struct {
		Buttons, NamedButtons, Aria, AriaOnWrappers, IconSpans, DataIcons, Shadow, MaxDepth int
	}
	zooEval(t, p, &m, `
const els = deepAll(zoo, () => true);
const aria = el => [...el.attributes].some(a => a.name.startsWith('aria-') || a.name === 'role');
const depth = el => { let n = 0; for (let r = el.getRootNode(); r instanceof ShadowRoot; r = r.host.getRootNode()) n++; return n; };
const buttons = els.filter(el => el.tagName === 'BUTTON');
return {
  buttons: buttons.length,
  namedButtons: buttons.filter(el => el.hasAttribute('aria-label')).length,
  aria: els.filter(aria).length,
  ariaOnWrappers: els.filter(el => el.tagName === 'SPAN' && el.hasAttribute('aria-label') && el.querySelector('button')).length,
  iconSpans: els.filter(el => el.tagName === 'SPAN' && el.classList.contains('icon')).length,
  dataIcons: els.filter(el => el.tagName === 'svg' && el.dataset.icon).length,
  shadow: els.filter(el => el.shadowRoot).length,
  maxDepth: Math.max(0, ...els.map(depth)),
};`)
	ok := map[string]bool{
		"semantic":      m.Buttons == 24 && m.NamedButtons == 24 && m.Shadow == 0,
		"divsoup":       m.Buttons == 24 && m.Aria == 0 && m.IconSpans == 24 && m.DataIcons == 0 && m.Shadow == 0,
		"library":       m.Buttons == 24 && m.NamedButtons == 0 && m.AriaOnWrappers == 24 && m.DataIcons == 24 && m.Shadow == 0,
		"webcomponents": m.Buttons == 24 && m.NamedButtons == 24 && m.Shadow == 1+6+24 && m.MaxDepth == 3,
	}[style]
	if !ok {
		t.Errorf("%s cards markup is not what the style promises: %+v", style, m)
	}
}
