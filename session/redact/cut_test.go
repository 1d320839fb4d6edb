package redact

import "testing"

func TestCutHidesTheStartOfASecret(t *testing.T) {
	r := New(`hun"ter2`, "pässwort")
	for _, c := range []struct{ in, want string }{
		{"the pw is hun", "the pw is " + Marker},
		{`quoted hun\"te`, "quoted " + Marker},                  // the Go-quoted form's start
		{"url hun%22t", "url " + Marker},                        // the URL-encoded form's start
		{"p", Marker},                                           // one byte of "pässwort" is its start
		{"pw hun\"ter2 and more", "pw " + Marker + " and more"}, // whole forms as String
		{"nothing here", "nothing here"},
		{"", ""},
	} {
		if got := r.Cut(c.in); got != c.want {
			t.Errorf("Cut(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var nilR *Redactor
	if got := nilR.Cut("abc"); got != "abc" {
		t.Errorf("nil Cut = %q", got)
	}
}
