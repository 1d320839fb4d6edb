package tui

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is an output both the program and the test touch.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestPanicInTheSessionRestoresTheTerminal: a panic off the UI goroutine
// ends the studio, which leaves the alternate screen and shows the cursor
// again, and Run returns the panic with its stack.
func TestPanicInTheSessionRestoresTheTerminal(t *testing.T) {
	in, w := io.Pipe()
	defer w.Close()
	out := &syncBuffer{}
	app := NewApp(Options{Mode: ModeRun, Title: "t"}, WithIO(in, out))
	app.Go(func() { panic("boom in the session") })
	err := app.Run()
	if err == nil || !strings.Contains(err.Error(), "boom in the session") || !strings.Contains(err.Error(), "goroutine") {
		t.Fatalf("Run: %v", err)
	}
	o := out.String()
	if !strings.Contains(o, "\x1b[?1049l") || !strings.Contains(o, "\x1b[?25h") {
		t.Errorf("the terminal was not restored: %q", o[max(0, len(o)-80):])
	}
}
