package locate

import (
	"slices"
	"testing"
)

func TestParseColor(t *testing.T) {
	tests := []struct {
		in      string
		r, g, b float64
		ok      bool
	}{
		{"rgb(29, 78, 216)", 29, 78, 216, true},
		{"rgba(29, 78, 216, 0.5)", 29, 78, 216, true},
		{"rgba(0, 0, 0, 0)", 0, 0, 0, false},
		{"rgb(29 78 216 / 50%)", 29, 78, 216, true},
		{"RGB(1,2,3)", 1, 2, 3, true},
		{"#1d4ed8", 29, 78, 216, true},
		{"#fff", 255, 255, 255, true},
		{"#00000000", 0, 0, 0, false},
		{"rgb(300, -4, 0)", 255, 0, 0, true},
		{"transparent", 0, 0, 0, false},
		{"", 0, 0, 0, false},
		{"rgb(1, 2)", 0, 0, 0, false},
		{"rgb(a, b, c)", 0, 0, 0, false},
		{"hsl(0, 100%, 50%)", 0, 0, 0, false},
	}
	for _, tt := range tests {
		r, g, b, ok := parseColor(tt.in)
		if ok != tt.ok || ok && (r != tt.r || g != tt.g || b != tt.b) {
			t.Errorf("parseColor(%q) = %v %v %v %v, want %v %v %v %v", tt.in, r, g, b, ok, tt.r, tt.g, tt.b, tt.ok)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		css     string
		primary string
		near    string // one class that must be near, or ""
	}{
		{"#1d4ed8", "blue", ""},       // blue-700, "Add to cart"
		{"#15803d", "green", ""},      // green-700, "Buy now"
		{"#6b7280", "grey", ""},       // gray-500, "Save for later"
		{"#b91c1c", "red", ""},        // red-700, "Compare"
		{"#2563eb", "blue", ""},       // blue-600
		{"#0ea5e9", "blue", "cyan"},   // sky-500
		{"#4f46e5", "blue", "purple"}, // indigo-600
		{"#9333ea", "purple", ""},
		{"#7c3aed", "purple", ""},
		{"#ec4899", "pink", ""},
		{"#f9a8d4", "pink", ""},
		{"#fca5a5", "pink", "red"}, // a light red reads pink
		{"#dc2626", "red", ""},
		{"#f97316", "orange", ""},
		{"#f59e0b", "orange", "yellow"},
		{"#eab308", "yellow", ""},
		{"#facc15", "yellow", ""},
		{"#22c55e", "green", ""},
		{"#84cc16", "green", ""},
		{"#06b6d4", "cyan", ""},
		{"#0d9488", "cyan", ""},
		{"#92400e", "brown", "orange"},
		{"#000000", "black", ""},
		{"#111827", "black", ""},             // gray-900
		{"rgb(30, 41, 59)", "black", "blue"}, // slate-800: dark, a little blue
		{"#ffffff", "white", ""},
		{"#f3f4f6", "white", "grey"},
		{"rgb(203, 213, 225)", "grey", "white"}, // slate-300
		{"#9ca3af", "grey", ""},
		{"rgb(232, 238, 252)", "white", "grey"},
	}
	for _, tt := range tests {
		p, near := classify(tt.css)
		if p != tt.primary {
			t.Errorf("classify(%s) = %s (near %v), want %s", tt.css, p, near, tt.primary)
		}
		if tt.near != "" && !slices.Contains(near, tt.near) {
			t.Errorf("classify(%s) near %v, want %s among them", tt.css, near, tt.near)
		}
	}
	if p, _ := classify("rgba(0, 0, 0, 0)"); p != "" {
		t.Errorf("transparent classified %q", p)
	}
}

func TestColorMatch(t *testing.T) {
	if m, _ := colorMatch("rgb(29, 78, 216)", "blue"); m != 1 {
		t.Errorf("blue: %v", m)
	}
	if m, _ := colorMatch("rgb(30, 41, 59)", "blue"); m != 0.4 {
		t.Errorf("slate-800 near blue: %v", m)
	}
	if m, p := colorMatch("rgb(21, 128, 61)", "blue"); m != 0 || p != "green" {
		t.Errorf("green as blue: %v %s", m, p)
	}
	if m, p := colorMatch("", "blue"); m != 0 || p != "" {
		t.Errorf("no colour: %v %s", m, p)
	}
}
