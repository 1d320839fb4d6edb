//go:build unix

package store

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// exists asks the kernel whether process pid exists (signal 0).
func exists(pid int) tristate {
	err := syscall.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, syscall.EPERM):
		return yes
	case errors.Is(err, syscall.ESRCH):
		return no
	}
	return unknown
}

// processStart is a token that differs between two processes that had the
// same id: on Linux the boot id and the process's start time in clock
// ticks since boot (/proc/PID/stat field 22); "" elsewhere or when it
// cannot be read.
func processStart(pid int) string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(s[i+1:]) // field 3 onwards
	if len(fields) < 20 {
		return ""
	}
	return strings.TrimSpace(string(boot)) + ":" + fields[19]
}
