package locate

import (
	"math"

	"github.com/e2e-dev/e2e/session/ax"
)

// maxNextTo is how far apart, in CSS pixels, two elements can be and still
// be "next to" each other.
const maxNextTo = 250

// placed says whether box t stands in relation rel to box a ("next to",
// "above", "below", "left of", "right of") and how far it is from it. The
// distance weighs the off-axis gap double, so that "next to" prefers the
// same line and "above" the same column. Missing or empty boxes are never
// placed.
func placed(rel string, t, a *ax.Box) (float64, bool) {
	if !sized(t) || !sized(a) {
		return 0, false
	}
	dx := math.Max(0, math.Max(a.X-(t.X+t.W), t.X-(a.X+a.W)))
	dy := math.Max(0, math.Max(a.Y-(t.Y+t.H), t.Y-(a.Y+a.H)))
	tolY := math.Min(t.H, a.H) / 2
	tolX := math.Min(t.W, a.W) / 2
	switch rel {
	case "next to":
		d := math.Hypot(dx, 2*dy)
		return d, d <= maxNextTo
	case "above":
		return dy + 2*dx, t.Y+t.H <= a.Y+tolY
	case "below":
		return dy + 2*dx, t.Y >= a.Y+a.H-tolY
	case "left of":
		return dx + 2*dy, t.X+t.W <= a.X+tolX
	case "right of":
		return dx + 2*dy, t.X >= a.X+a.W-tolX
	}
	return 0, false
}

func sized(b *ax.Box) bool {
	return b != nil && (b.W > 0 || b.H > 0) && !math.IsNaN(b.X+b.Y+b.W+b.H) && !math.IsInf(b.X+b.Y+b.W+b.H, 0)
}

// box is node i's box or, when the snapshot gives it none, for an item,
// row, card or other container, the smallest box around its descendants'
// boxes (an unnamed list item has no box of its own, its checkbox and text
// do): "the item below the bread item" compares items. Nil when neither is
// known.
func (ix *index) box(i int) *ax.Box {
	n := ix.e[i].n
	if sized(n.Box) || !containerRoles[n.Role] && !itemRoles[n.Role] {
		return n.Box
	}
	var u *ax.Box
	for j := i + 1; j < ix.e[i].end; j++ {
		b := ix.e[j].n.Box
		if !sized(b) {
			continue
		}
		if u == nil {
			c := *b
			u = &c
			continue
		}
		x0, y0 := math.Min(u.X, b.X), math.Min(u.Y, b.Y)
		x1, y1 := math.Max(u.X+u.W, b.X+b.W), math.Max(u.Y+u.H, b.Y+b.H)
		u.X, u.Y, u.W, u.H = x0, y0, x1-x0, y1-y0
	}
	if u == nil {
		return n.Box
	}
	return u
}
