package locate

import (
	"math"
	"strconv"
	"strings"
)

// parseColor reads a computed CSS colour: rgb(r, g, b), rgba(r, g, b, a),
// the space-separated rgb(r g b / a) form, #rgb or #rrggbb. Channels are
// 0–255. A fully transparent colour is not a colour.
func parseColor(s string) (r, g, b float64, ok bool) {
	s = strings.TrimSpace(strings.ToLower(s))
	if strings.HasPrefix(s, "#") {
		h := s[1:]
		if len(h) == 3 || len(h) == 4 {
			h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
		}
		if len(h) != 6 && len(h) != 8 {
			return 0, 0, 0, false
		}
		v, err := strconv.ParseUint(h[:6], 16, 32)
		if err != nil {
			return 0, 0, 0, false
		}
		if len(h) == 8 && h[6:] == "00" {
			return 0, 0, 0, false
		}
		return float64(v >> 16 & 0xff), float64(v >> 8 & 0xff), float64(v & 0xff), true
	}
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return 0, 0, 0, false
	}
	fn := s[:open]
	if fn != "rgb" && fn != "rgba" {
		return 0, 0, 0, false
	}
	body := strings.NewReplacer(",", " ", "/", " ").Replace(s[open+1 : len(s)-1])
	f := strings.Fields(body)
	if len(f) != 3 && len(f) != 4 {
		return 0, 0, 0, false
	}
	var v [4]float64
	v[3] = 1
	for i, p := range f {
		pct := strings.HasSuffix(p, "%")
		x, err := strconv.ParseFloat(strings.TrimSuffix(p, "%"), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, 0, 0, false
		}
		if pct {
			if i < 3 {
				x = x * 255 / 100
			} else {
				x /= 100
			}
		}
		v[i] = x
	}
	if v[3] <= 0.05 {
		return 0, 0, 0, false
	}
	clamp := func(x float64) float64 { return math.Max(0, math.Min(255, x)) }
	return clamp(v[0]), clamp(v[1]), clamp(v[2]), true
}

// hueClasses are the colour names by hue, in degrees, with where each
// class ends.
var hueClasses = []struct {
	end  float64
	name string
}{
	{15, "red"}, {42, "orange"}, {70, "yellow"}, {165, "green"}, {195, "cyan"},
	{250, "blue"}, {290, "purple"}, {345, "pink"}, {360, "red"},
}

// classify names a CSS colour the way a person would: one primary class and
// the classes it is close to (a slate grey is also a little blue, an indigo
// also a little purple). It returns "" for no colour.
//
// Low chroma (max−min channel under 0.15) is black, grey or white by
// lightness; otherwise the hue decides, with very dark and very light
// colours black and white, and dark oranges brown.
func classify(css string) (primary string, near []string) {
	r, g, b, ok := parseColor(css)
	if !ok {
		return "", nil
	}
	r, g, b = r/255, g/255, b/255
	hi, lo := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	chroma := hi - lo
	light := (hi + lo) / 2
	hue := 0.0
	if chroma > 0 {
		switch hi {
		case r:
			hue = math.Mod((g-b)/chroma, 6)
		case g:
			hue = (b-r)/chroma + 2
		default:
			hue = (r-g)/chroma + 4
		}
		hue *= 60
		if hue < 0 {
			hue += 360
		}
	}
	byHue := func(h float64) string {
		for _, c := range hueClasses {
			if h < c.end {
				return c.name
			}
		}
		return "red"
	}
	add := func(c string) {
		if c == "" || c == primary {
			return
		}
		for _, n := range near {
			if n == c {
				return
			}
		}
		near = append(near, c)
	}
	grey := func() string {
		switch {
		case light < 0.2:
			return "black"
		case light > 0.9:
			return "white"
		}
		return "grey"
	}
	if chroma < 0.15 || light < 0.1 || light > 0.95 {
		primary = grey()
		switch {
		case primary == "grey" && light < 0.3:
			add("black")
		case primary == "grey" && light > 0.8:
			add("white")
		case primary == "black" && light >= 0.12:
			add("grey")
		case primary == "white" && light < 0.97:
			add("grey")
		}
		if chroma >= 0.07 {
			add(byHue(hue))
		}
		return primary, near
	}
	primary = byHue(hue)
	// Neighbouring hues within 10° are near.
	add(byHue(math.Mod(hue+10, 360)))
	add(byHue(math.Mod(hue+350, 360)))
	switch {
	case primary == "orange" && light < 0.33:
		primary = "brown"
		near = removeStr(near, "brown")
		add("orange")
	case primary == "red" && light > 0.75:
		primary = "pink"
		near = removeStr(near, "pink")
		add("red")
	case primary == "pink" && light < 0.35:
		add("purple")
	}
	if chroma < 0.3 {
		add("grey")
	}
	return primary, near
}

func removeStr(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// colorMatch says how well a node's colour fits a colour class: 1 for its
// primary class, 0.4 for a near one, 0 otherwise; and the primary class.
func colorMatch(css, want string) (float64, string) {
	p, near := classify(css)
	if p == "" {
		return 0, ""
	}
	if p == want {
		return 1, p
	}
	for _, n := range near {
		if n == want {
			return 0.4, p
		}
	}
	return 0, p
}
