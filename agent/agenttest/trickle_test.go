package agenttest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/e2e-dev/e2e/agent/agenttest"
)

// TestTrickleSendsTheAnswerByteByByte: a trickled answer arrives whole, in
// as many reads as it has bytes, and a client that gives up ends the
// handler (the server closes at the end of the test, which waits for it).
func TestTrickleSendsTheAnswerByteByByte(t *testing.T) {
	srv := agenttest.New(t, agenttest.Trickle(agenttest.Text("slow"), time.Millisecond), agenttest.Trickle(agenttest.Text("never"), time.Hour))
	res, err := http.Post(srv.URL()+"/chat/completions", "application/json", bytes.NewBufferString(`{"model":"m","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	var body []byte
	reads := 0
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		if n > 0 {
			reads++
			body = append(body, buf[:n]...)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	res.Body.Close()
	var answer struct {
		Choices []struct {
			Message struct{ Content string }
		}
	}
	if err := json.Unmarshal(body, &answer); err != nil || len(answer.Choices) != 1 || answer.Choices[0].Message.Content != "slow" {
		t.Fatalf("answer %s: %v", body, err)
	}
	if reads < len(body)/2 {
		t.Errorf("%d bytes came in %d reads: not trickled", len(body), reads)
	}

	// One byte, then an hour's wait: the client gives up after the first.
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/chat/completions", bytes.NewBufferString(`{"model":"m","messages":[]}`))
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(res.Body, buf[:1]); err != nil || buf[0] != '{' {
		t.Fatalf("first byte %q: %v", buf[:1], err)
	}
	cancel()
	res.Body.Close()
}
