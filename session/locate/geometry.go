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
