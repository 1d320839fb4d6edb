package store

import (
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// silentProxy forwards TCP connections to the test cluster until
// silence: then it drops every connection it forwards and holds new ones
// open without a word, as a server whose machine went away does (no
// reset, no refusal: the client's connect_timeout ends the wait).
type silentProxy struct {
	l      net.Listener
	mu     sync.Mutex
	quiet  bool
	conns  []net.Conn
	remote func() (net.Conn, error)
}

func newSilentProxy(t *testing.T) *silentProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &silentProxy{l: l, remote: func() (net.Conn, error) {
		if testCluster.Host != "" {
			return net.Dial("tcp", net.JoinHostPort(testCluster.Host, fmt.Sprint(testCluster.Port)))
		}
		return net.Dial("unix", filepath.Join(testCluster.Socket, fmt.Sprintf(".s.PGSQL.%d", testCluster.Port)))
	}}
	go p.serve()
	t.Cleanup(func() { l.Close(); p.silence() })
	return p
}

func (p *silentProxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		p.conns = append(p.conns, c)
		quiet := p.quiet
		p.mu.Unlock()
		if quiet {
			continue // held open, never answered
		}
		r, err := p.remote()
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, r)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(r, c); r.Close() }()
		go func() { _, _ = io.Copy(c, r); c.Close() }()
	}
}

// silence drops every connection and answers none from now on.
func (p *silentProxy) silence() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.quiet = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestImportWhenTheServerGoesAwayBetweenBatches: a PostgreSQL server
// that stops answering between two batches of an import (its machine
// gone: the next connection times out) is the store failing (IsFailure:
// the command line's exit 5), not bad input or the caller's deadline (exit
// 2, before); the rows of the committed batch stay, and the error says how
// many and that importing again completes it.
func TestImportWhenTheServerGoesAwayBetweenBatches(t *testing.T) {
	if !onPostgres() {
		t.Skip("about a PostgreSQL server going away")
	}
	target := testTarget(t)
	_, schema, _ := strings.Cut(target, "&search_path=")
	p := newSilentProxy(t)
	url := fmt.Sprintf("postgres://postgres@%s/postgres?sslmode=disable&connect_timeout=1&search_path=%s", p.l.Addr(), schema)
	ctx := context.Background()
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var lines []string
	for i := range importBatchRows + 10 {
		lines = append(lines, strings.Replace(elementLine, `"key":"k1"`, fmt.Sprintf(`"key":"k%04d"`, i), 1))
	}
	f := importFile(t, lines...)
	gone := false
	afterImportBatch = func() {
		if !gone {
			gone = true
			p.silence()
		}
	}
	t.Cleanup(func() { afterImportBatch = nil })
	n, err := db.ImportCache(ctx, f)
	if !gone {
		t.Fatalf("the import wrote in one batch (%d rows, %v)", n, err)
	}
	if err == nil || !IsFailure(err) {
		t.Fatalf("ImportCache = %d, %v; want a store failure", n, err)
	}
	if n == 0 || n >= len(lines) || !strings.Contains(err.Error(), "importing the file again completes it") {
		t.Errorf("ImportCache = %d, %v; want the first batch's rows counted and the advice", n, err)
	}
	t.Log(err)
}

// TestAServerThatDoesNotAnswerIsAFailure: connecting to a server that
// never answers ends in connect_timeout, which is the store failing, not
// a usage error; a connection the caller gave up on (its context
// cancelled) is neither.
func TestAServerThatDoesNotAnswerIsAFailure(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
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
	url := fmt.Sprintf("postgres://e2e@%s/e2e?connect_timeout=1", l.Addr())
	_, err = Open(context.Background(), url)
	if err == nil || !IsFailure(err) {
		t.Errorf("Open of a server that does not answer: %v; want a store failure", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err = Open(ctx, url); err == nil || IsFailure(err) {
		t.Errorf("Open with a cancelled context: %v; want no store failure", err)
	}
}
