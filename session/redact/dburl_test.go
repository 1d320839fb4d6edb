package redact

import (
	"strings"
	"testing"
)

func TestMaskURL(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://e2e:hunter2@db/e2e":                          "postgres://e2e:xxxxx@db/e2e",
		`postgres://e2e:se"c\ret w@127.0.0.1:1/e2e?x=1`:          "postgres://e2e:xxxxx@127.0.0.1:1/e2e?x=1",
		"postgres://e2e:p@ss@db/e2e":                             "postgres://e2e:xxxxx@db/e2e",
		"postgres://e2e@db/e2e?sslmode=require&password=s3 cr3t": "postgres://e2e@db/e2e?sslmode=require&password=xxxxx",
		"postgres://e2e@db/e2e":                                  "postgres://e2e@db/e2e",
		"postgres://e2e:pa?ss@db/e2e":                            "postgres://e2e:xxxxx@db/e2e",
		".e2e/e2e.db":                                            ".e2e/e2e.db",
	} {
		if got := MaskURL(in); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(MaskURL(in), "hunter2") {
			t.Errorf("%q keeps the password", in)
		}
	}
}
