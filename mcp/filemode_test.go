package mcp

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWrittenTestFilesFollowTheUmask: a test file write_test creates has
// the mode the umask gives (0644 under 022, 0640 under 027), like a file an
// editor makes, not os.CreateTemp's 0600.
func TestWrittenTestFilesFollowTheUmask(t *testing.T) {
	for _, c := range []struct {
		umask int
		want  os.FileMode
	}{{0o022, 0o644}, {0o027, 0o640}} {
		old := syscall.Umask(c.umask)
		path := filepath.Join(t.TempDir(), "tests", "new.e2e.yaml")
		err := writeAtomic(path, "name: n\nsteps:\n  - click: the button\n")
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != c.want {
			t.Errorf("umask %03o: the test file is %v, want %v", c.umask, fi.Mode().Perm(), c.want)
		}
	}
}
