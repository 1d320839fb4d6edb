package testfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteFileModes: a new file takes the umask's mode; a replaced file
// keeps its own; nothing else is left in the directory.
func TestWriteFileModes(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "a.e2e.yaml")
	if err := WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file: %v, want -rw-r--r--", fi.Mode().Perm())
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	b, _ := os.ReadFile(path)
	if fi.Mode().Perm() != 0o600 || string(b) != "two" {
		t.Errorf("replaced file: %v %q, want -rw------- \"two\"", fi.Mode().Perm(), b)
	}
	if names, _ := os.ReadDir(dir); len(names) != 1 {
		t.Errorf("left in the directory: %v", names)
	}
}
