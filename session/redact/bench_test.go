package redact_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/redact"
)

// page is about 100 KB of snapshot-like text.
func page(withSecret bool) string {
	var b strings.Builder
	for i := 0; b.Len() < 100_000; i++ {
		fmt.Fprintf(&b, "  - row \"Alice %d admin hunter pass\" [ref=e%d]:\n    - button \"Menu\" [ref=e%d]\n", i, 2*i, 2*i+1)
		if withSecret && i%100 == 0 {
			b.WriteString(`    - text "got \"hunter2\\\"q\" at /x?pw=hunter2%22q"` + "\n")
		}
	}
	return b.String()
}

func benchString(b *testing.B, withSecret bool) {
	r := redact.New(`hunter2"q`, "pässwörd✓", "a&b=c d")
	s := page(withSecret)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(s)
	}
}

// BenchmarkString100KB: 100 KB with no secret in it, three nasty secrets known.
func BenchmarkString100KB(b *testing.B) { benchString(b, false) }

// BenchmarkString100KBWithSecrets: the same with 20 occurrences in 100 KB.
func BenchmarkString100KBWithSecrets(b *testing.B) { benchString(b, true) }

// BenchmarkStringShort: a step's error line.
func BenchmarkStringShort(b *testing.B) {
	r := redact.New(`hunter2"q`, "pässwörd✓", "a&b=c d")
	s := `no element matches "the Sign in button"; nearest: button "Sign up" (0.62)`
	b.ReportAllocs()
	for b.Loop() {
		_ = r.String(s)
	}
}

// BenchmarkAdd: learning one new nasty secret (all its forms, and the matcher rebuilt).
func BenchmarkAdd(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		redact.New(`mix "of" <all> & 'sorts' \ 50% ü`)
	}
}

func TestFormCounts(t *testing.T) {
	for _, s := range []string{"hunter2", `hunter2"q`, `mix "of" <all> & 'sorts' \ 50% ü`} {
		t.Logf("%q: %d forms", s, len(redact.Forms(s)))
	}
}
