package main

import "testing"

func TestArgsInWords(t *testing.T) {
	for in, want := range map[string]string{
		"accepts 1 arg(s), received 0":   "accepts 1 argument, received 0",
		"accepts between 1 and 2 arg(s)": "accepts between 1 and 2 arguments",
		"requires at least 12 arg(s)":    "requires at least 12 arguments",
		"x9 arg(s) stays":                "x9 arg(s) stays",
		"no count arg(s)":                "no count arg(s)",
		"nothing to do":                  "nothing to do",
	} {
		if got := argsInWords(in); got != want {
			t.Errorf("argsInWords(%q) = %q, want %q", in, got, want)
		}
	}
}
