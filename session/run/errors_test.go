package run

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/session/testfile"
)

// doubledPrefix returns the phrase that starts two colon-separated parts
// of msg in a row ("start run: start run: …"), or "".
func doubledPrefix(msg string) string {
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts); i++ {
		if parts[i] == parts[i-1] {
			return parts[i]
		}
	}
	return ""
}

// TestStoreErrorsSayTheirPhraseOnce: when the store fails to start the
// run, or to save a test, the run's error names what failed once; it said
// "start run: start run: …" and `save test "x": save test "x": …`.
func TestStoreErrorsSayTheirPhraseOnce(t *testing.T) {
	tt, err := testfile.Parse("t.e2e.yaml", []byte("name: plain\nurl: /login\nsteps:\n  - navigate: /login\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, want string
		closeAt    func(e *env) func(int64)
	}{
		{"start", "start run", func(e *env) func(int64) { e.db.Close(); return nil }},
		{"save", "save test", func(e *env) func(int64) { return func(int64) { e.db.Close() } }},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			r, err := New(Options{Config: e.cfg, Project: "fixture", Store: e.db, Browser: shared, Out: &e.out, OnRunStart: c.closeAt(e)})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err = r.Run(ctx, []*testfile.Test{tt})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Run = %v, want an error saying %q", err, c.want)
			}
			if d := doubledPrefix(err.Error()); d != "" {
				t.Errorf("%q says %q twice", err, d)
			}
		})
	}
}
