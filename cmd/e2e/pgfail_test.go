package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestAServerThatDoesNotAnswerExits5: commands on a PostgreSQL server that
// does not answer (its machine gone: connect_timeout runs out) exit 5, the
// store's failure, not 2 as for a usage error.
func TestAServerThatDoesNotAnswerExits5(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // held open, never answered
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	url := "postgres://e2e@" + l.Addr().String() + "/e2e?connect_timeout=1"
	rows := filepath.Join(t.TempDir(), "rows.jsonl")
	must(t, os.WriteFile(rows, []byte(`{"kind":"element","key":"k1","branch":"main","commit":"c1","depth":1,"version":"v1.0.0","identity":{},`+
		`"project":"shop","test":"t","text":"the Save button","created_at":"2026-01-02T03:04:05Z","used_at":"2026-01-02T03:04:05Z","hits":0,`+
		`"selectors":[{"kind":"id","value":"#save"}],"node":{"tag":"button","role":"button","name":"Save","box":[1,2,3,4]},"intent":{}}`+"\n"), 0o644))
	for _, args := range [][]string{{"cache", "import", rows, "--db", url}, {"cache", "stats", "--db", url}} {
		code, out, errOut := e2e(t, args...)
		if code != exitStore || !strings.Contains(errOut, "failed to connect") {
			t.Errorf("e2e %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, exitStore, out, errOut)
		}
	}
}
