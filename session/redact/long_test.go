package redact_test

import (
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/e2e-dev/e2e/session/redact"
)

func BenchmarkAddPEM(b *testing.B) {
	raw := make([]byte, 2400)
	rand.Read(raw)
	enc := base64.StdEncoding.EncodeToString(raw)
	var sb strings.Builder
	sb.WriteString("-----BEGIN PRIVATE KEY-----\n")
	for len(enc) > 64 {
		sb.WriteString(enc[:64] + "\n")
		enc = enc[64:]
	}
	sb.WriteString(enc + "\n-----END PRIVATE KEY-----\n")
	pem := sb.String()
	b.Logf("%d bytes, %d forms", len(pem), len(redact.Forms(pem)))
	b.ReportAllocs()
	for b.Loop() {
		redact.New(pem)
	}
}

// TestLongSecrets: a secret longer than the trie is found, whole and split
// over writes.
func TestLongSecrets(t *testing.T) {
	long := strings.Repeat(`ab"c`, 30) + "end"
	r := redact.New(long, strings.Repeat("ab", 20))
	if got := r.String("x " + long + " y " + long[:50] + " z"); got != "x *** y "+long[:50]+" z" {
		t.Errorf("got %q", got)
	}
	if got := r.String(`x "` + strings.ReplaceAll(long, `"`, `\"`) + `"`); got != `x "***"` {
		t.Errorf("quoted: %q", got)
	}
	var b strings.Builder
	w := r.Writer(&b)
	for i := 0; i < len(long); i += 7 {
		w.Write([]byte(long[i:min(i+7, len(long))]))
	}
	w.Write([]byte(" done\n"))
	w.Flush()
	if b.String() != "*** done\n" {
		t.Errorf("writer: %q", b.String())
	}
}
