//go:build !linux

package main

import "os"

// termColumns is the width of the terminal f is, or 0 when it cannot tell.
func termColumns(*os.File) int { return 0 }
