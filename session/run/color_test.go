package run

import (
	"testing"

	"github.com/e2e-dev/e2e/session"
)

func TestPalette(t *testing.T) {
	on, off := Palette{On: true}, Palette{}
	for _, c := range []struct {
		status string
		code   string
	}{
		{"passed", "32"}, {string(session.StatusHit), "32"}, {string(session.StatusLocated), "32"},
		{string(session.StatusRelocated), "33"}, {string(session.StatusSkipped), "2"},
		{string(session.StatusFailed), "31"}, {"failed", "31"},
	} {
		if got, want := on.Status(c.status, "x"), "\x1b["+c.code+"mx\x1b[0m"; got != want {
			t.Errorf("%s: %q, want %q", c.status, got, want)
		}
		if got := off.Status(c.status, "x"); got != "x" {
			t.Errorf("off, %s: %q", c.status, got)
		}
	}
	if on.Count(0, "0 failed", false) != "0 failed" || on.Count(2, "2 failed", false) != "\x1b[31m2 failed\x1b[0m" || on.Count(1, "1 flaky", true) != "\x1b[33m1 flaky\x1b[0m" {
		t.Error("Count colours only what is not zero")
	}
	if on.Pass("") != "" {
		t.Error("nothing to colour gets no codes")
	}
}
