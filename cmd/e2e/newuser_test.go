package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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

// TestStudioWritesTestFilesByTheUmask: the test studio --new writes is
// created with the mode the umask gives (0644 under 022), not 0600.
func TestStudioWritesTestFilesByTheUmask(t *testing.T) {
	old := syscall.Umask(0o022)
	path := filepath.Join(t.TempDir(), "product.e2e.yaml")
	err := writeNewTest(path, "product", "/product", []string{"click: the Add to cart button"})
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("the new test file is %v, want -rw-r--r--", fi.Mode().Perm())
	}
}
