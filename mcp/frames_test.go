package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rawClient speaks newline-delimited JSON-RPC to `e2e mcp` over its real
// standard input and output, frame by frame.
type rawClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte
	stderr *lockedBuffer
	exited chan struct{}
}

func startRaw(t *testing.T, args ...string) *rawClient {
	t.Helper()
	cmd := exec.Command(e2eBinary(t), append([]string{"mcp"}, args...)...)
	c := &rawClient{t: t, cmd: cmd, lines: make(chan []byte, 64), stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = c.stderr
	var err error
	if c.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(c.lines)
		br := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				c.lines <- line
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { cmd.Wait(); close(c.exited) }()
	t.Cleanup(func() {
		c.in.Close()
		select {
		case <-c.exited:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			<-c.exited
		}
		if s := c.stderr.String(); strings.Contains(s, "panic") {
			t.Errorf("the server panicked:\n%s", s)
		}
	})
	return c
}

func (c *rawClient) send(frame []byte) {
	c.t.Helper()
	if _, err := c.in.Write(frame); err != nil {
		c.t.Fatalf("write: %v (the server is gone?)\n%s", err, c.stderr.String())
	}
}

type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// until reads replies up to the one whose id is id and returns those
// before it.
func (c *rawClient) until(id int) []rpcReply {
	c.t.Helper()
	var before []rpcReply
	timeout := time.After(2 * time.Minute) // a failure detector, not a margin
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("the server closed its output before answering id %d; before: %+v\nstderr:\n%s", id, before, c.stderr.String())
			}
			var r rpcReply
			if err := json.Unmarshal(line, &r); err != nil {
				c.t.Fatalf("a reply that is not JSON: %v: %.200q", err, line)
			}
			if string(r.ID) == strconv.Itoa(id) && r.Error == nil {
				return before
			}
			before = append(before, r)
		case <-timeout:
			c.t.Fatalf("no answer to id %d; before: %+v\nstderr:\n%s", id, before, c.stderr.String())
		}
	}
}

// vmHWM is the peak resident memory of process pid, in bytes.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// TestMCPStdioMalformedFrames: over the built binary's real standard input
// and output, every kind of malformed line is answered with a JSON-RPC
// error (parse error or invalid request, id null where it has none usable)
// or dropped, and the valid request after it is answered: one bad line
// never stops the server. A line over the frame bound is refused without
// being held in memory.
func TestMCPStdioMalformedFrames(t *testing.T) {
	dir := projectDir(t, fixtureURL(t), nil)
	// Each kind of frame goes to a server of its own, so that each is seen
	// to be survived (or not) on its own.
	server := func(t *testing.T) *rawClient {
		c := startRaw(t, "--config", dir)
		c.send([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}` + "\n"))
		c.until(1)
		c.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
		return c
	}

	deep := `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"a":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}`
	huge := func(n int) []byte {
		b := make([]byte, 0, n+64)
		b = append(b, `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"pad":"`...)
		b = append(b, bytes.Repeat([]byte("x"), n)...)
		return append(b, `"}}`+"\n"...)
	}
	const (
		none = 0 // dropped: no reply
	)
	for i, tc := range []struct {
		name  string
		frame []byte
		code  int64  // the error's code; none: no reply
		id    string // the error's id
	}{
		{"not JSON", []byte("hello, server\n"), -32700, "null"},
		{"truncated JSON", []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"` + "\n"), -32700, "null"},
		{"wrong version", []byte(`{"jsonrpc":"1.0","id":3,"method":"ping"}` + "\n"), -32600, "3"},
		{"missing version", []byte(`{"id":4,"method":"ping"}` + "\n"), -32600, "4"},
		{"version key in capitals", []byte(`{"JSONRPC":"2.0","id":4,"method":"ping"}` + "\n"), -32600, "4"},
		{"object id", []byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n"), -32600, "null"},
		{"array id", []byte(`{"jsonrpc":"2.0","id":[1],"method":"ping"}` + "\n"), -32600, "null"},
		{"boolean id", []byte(`{"jsonrpc":"2.0","id":true,"method":"ping"}` + "\n"), -32600, "null"},
		{"fractional id", []byte(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n"), -32600, "null"},
		{"batch", []byte(`[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","id":8,"method":"ping"}]` + "\n"), -32600, "null"},
		{"empty batch", []byte("[]\n"), -32600, "null"},
		{"NUL byte", []byte("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\x00\n"), -32700, "null"},
		{"NUL in a string", []byte("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"pi\x00ng\"}\n"), -32700, "null"},
		{"not UTF-8", []byte("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}\n"), -32700, "null"},
		{"deep nesting", []byte(deep + "\n"), -32600, "null"},
		{"two messages on a line", []byte(`{"jsonrpc":"2.0","id":10,"method":"ping"}{"jsonrpc":"2.0","id":11,"method":"ping"}` + "\n"), -32700, "null"},
		{"a number", []byte("42\n"), -32600, "null"},
		{"method not a string", []byte(`{"jsonrpc":"2.0","id":12,"method":5}` + "\n"), -32600, "12"},
		{"params not structured", []byte(`{"jsonrpc":"2.0","id":13,"method":"ping","params":5}` + "\n"), -32600, "13"},
		{"error not an object", []byte(`{"jsonrpc":"2.0","id":14,"error":"boom"}` + "\n"), -32600, "14"},
		{"neither request nor response", []byte(`{"jsonrpc":"2.0","id":15}` + "\n"), -32600, "15"},
		{"response nobody asked for", []byte(`{"jsonrpc":"2.0","id":16,"result":{}}` + "\n"), none, ""},
		{"blank line", []byte("   \r\n"), none, ""},
		{"trailing spaces and CRLF", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}` + "  \r\n"), none, ""},
		{"frame over 16 MiB", huge(MaxFrameBytes + 1), -32600, "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := server(t)
			c.send(tc.frame)
			id := 1000 + i
			c.send([]byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", id)))
			before := c.until(id)
			switch {
			case tc.code == none && len(before) != 0:
				t.Errorf("want no reply, got %+v", before)
			case tc.code != none && len(before) != 1:
				t.Errorf("want one error reply, got %+v", before)
			case tc.code != none:
				r := before[0]
				if r.Error == nil || r.Error.Code != tc.code || string(r.ID) != tc.id || r.Error.Message == "" {
					t.Errorf("reply %s %+v, want code %d id %s", r.ID, r.Error, tc.code, tc.id)
				}
				if strings.Contains(tc.name, "16 MiB") && !strings.Contains(r.Error.Message, "at most 16777216 bytes") {
					t.Errorf("the bound is not said: %q", r.Error.Message)
				}
			}
		})
	}

	// A line of 256 MiB is refused as it streams: the server never holds it.
	c := server(t)
	before := vmHWM(t, c.cmd.Process.Pid)
	big := huge(256 << 20)
	c.send(big)
	c.send([]byte(`{"jsonrpc":"2.0","id":2000,"method":"ping"}` + "\n"))
	if got := c.until(2000); len(got) != 1 || got[0].Error == nil || got[0].Error.Code != -32600 {
		t.Errorf("256 MiB line: %+v", got)
	}
	after := vmHWM(t, c.cmd.Process.Pid)
	if after-before > 128<<20 {
		t.Errorf("reading a 256 MiB line raised the server's peak memory by %d MiB (from %d MiB)", (after-before)>>20, before>>20)
	}
	t.Logf("peak resident memory: %d MiB before the 256 MiB line, %d MiB after", before>>20, after>>20)
	// And the tools still answer.
	c.send([]byte(`{"jsonrpc":"2.0","id":2001,"method":"tools/list"}` + "\n"))
	c.until(2001)
}
