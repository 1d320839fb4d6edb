package main

import (
	"os"
	"syscall"
	"unsafe"
)

// termColumns is the width of the terminal f is, or 0 when it cannot tell.
func termColumns(f *os.File) int {
	var ws struct{ Row, Col, X, Y uint16 }
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(syscall.TIOCGWINSZ), uintptr(unsafe.Pointer(&ws))); errno != 0 {
		return 0
	}
	return int(ws.Col)
}
