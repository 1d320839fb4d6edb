package testfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to the file at path in one rename, so that no
// half-written file is ever seen, making its directory when missing. A new
// file gets the mode the user's umask gives (0644 under the usual 022), as
// an editor's would; a file that is replaced keeps its mode.
func WriteFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	mode := fs.FileMode(0o666) // less the umask, by open(2)
	keep := false
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		mode, keep = fi.Mode().Perm(), true
	}
	tmp, err := createTemp(dir, "."+filepath.Base(path)+".", ".tmp", mode)
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // gone after the rename; left only on failure
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if keep {
		// open(2) took the umask off; the replaced file's mode is kept whole.
		if err := tmp.Chmod(mode); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(name, path)
}

// createTemp is os.CreateTemp with the mode open(2) is given (os.CreateTemp
// always makes 0600).
func createTemp(dir, prefix, suffix string, mode fs.FileMode) (*os.File, error) {
	for range 100 {
		var b [6]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(filepath.Join(dir, prefix+hex.EncodeToString(b[:])+suffix), os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("create a temporary file in %s: too many tries", dir)
}
