package main

import (
	"net"
	"strings"
	"testing"
)

// TestFixtureServeOnABusyPort: a port in use is a usage error (exit 2)
// naming the flag that changes it, not "the database failed" (exit 5).
func TestFixtureServeOnABusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	code, out, errOut := e2e(t, "fixture", "serve", "--addr", addr)
	if code != exitUsage || out != "" || !strings.Contains(errOut, "--addr "+addr+": the port is in use") ||
		!strings.Contains(errOut, "pick a free port with --addr") {
		t.Errorf("exit %d, want %d\nstdout: %q\nstderr: %q", code, exitUsage, out, errOut)
	}
}
