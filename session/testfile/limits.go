package testfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// Limits on what is read, so that a hostile or broken file costs bounded
// time and memory.
const (
	// MaxFileSize is the largest test file or e2e.yaml read, in bytes.
	MaxFileSize = 1 << 20
	// MaxDepth is how deeply lists and mappings may nest in a file. The
	// YAML parser's cost grows with the square of the depth; real files
	// nest a handful of levels.
	MaxDepth = 64
	// MaxShown is how many problems [List.Error] prints; it counts the rest.
	MaxShown = 50
	// MaxExcerpt is how many characters of a source line an excerpt
	// shows; a longer line is cut around the problem, with "…".
	MaxExcerpt = 120
)

// readFile reads the file at path, but no more than MaxFileSize bytes of
// it. A larger file is a [List] with one problem that gives its size; what
// names the file's purpose, as in "test file", for that message. Other
// errors are the operating system's.
func readFile(path, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		size := int64(-1)
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		return nil, List{sizeError(path, what, src, size)}
	}
	return src, nil
}

// sizeError is the problem of a file over MaxFileSize, pointing where it
// passes the limit. src holds at least the first MaxFileSize+1 bytes; size
// is the whole file's, or -1 when unknown.
func sizeError(file, what string, src []byte, size int64) *Error {
	// line breaks are "\n", "\r\n" or "\r", as the decoder reads them
	head := src[:MaxFileSize]
	line, start := 1, 0
	for i, c := range head {
		if c == '\n' || (c == '\r' && (i+1 >= len(src) || src[i+1] != '\n')) {
			line, start = line+1, i+1
		}
	}
	col := 1 + utf8.RuneCount(head[start:])
	// the line up to a little past the limit is all an excerpt shows
	end := min(len(src), MaxFileSize+4*MaxExcerpt)
	if i := bytes.IndexAny(src[start:end], "\r\n"); i >= 0 {
		end = start + i
	}
	source := string(src[start:end])
	got := "more than 1048576 bytes"
	if size >= 0 {
		got = fmt.Sprintf("%d bytes", size)
	}
	return &Error{File: file, Line: line, Col: col, Width: 1, Source: source,
		Msg: fmt.Sprintf("%s is too large: %s, over the limit of %d bytes (1 MiB), which it passes here; split it into smaller files", what, got, MaxFileSize)}
}

// checkSize returns the problem of src being over MaxFileSize, or nil.
func checkSize(file, what string, src []byte) List {
	if len(src) <= MaxFileSize {
		return nil
	}
	return List{sizeError(file, what, src, int64(len(src)))}
}

// checkDepth records a problem, and reports false, when the source nests
// lists and mappings deeper than MaxDepth.
func (d *decoder) checkDepth() bool {
	line, col, _, deep := tooDeep([]rune(string(d.src)), MaxDepth)
	if !deep {
		return true
	}
	d.errs = append(d.errs, &Error{File: d.file, Line: line, Col: col, Width: 1, Source: d.line(line),
		Msg: fmt.Sprintf("lists and mappings nested more than %d levels deep; flatten the file (the YAML parser would take minutes and gigabytes to read it)", MaxDepth)})
	return false
}
