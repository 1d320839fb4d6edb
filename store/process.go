package store

import (
	"os"
	"sync"
)

// process identifies the running e2e process in the runs it records.
type process struct {
	pid   int
	host  string
	start string // processStart(pid), "" where it cannot be told
}

var self = sync.OnceValue(func() process {
	host, _ := os.Hostname()
	pid := os.Getpid()
	return process{pid: pid, host: host, start: processStart(pid)}
})

// gone reports whether the process that recorded a run on this host, pid
// with start token start, has ended. It is sure of it only when the
// process no longer exists, or when a process with that id exists but
// started at another time (the id was reused); it answers false whenever in
// doubt, so a live run is never marked interrupted.
func gone(pid int, start string) bool {
	if pid <= 0 {
		return false
	}
	switch exists(pid) {
	case no:
		return true
	case unknown:
		return false
	}
	if start == "" {
		return false
	}
	now := processStart(pid)
	return now != "" && now != start
}

type tristate int

const (
	unknown tristate = iota
	yes
	no
)
