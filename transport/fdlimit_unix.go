//go:build unix

package transport

import "syscall"

// fdLimit is the process's file descriptor limit (its soft limit), or 1024
// when it cannot be read.
func fdLimit() int {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil || l.Cur == 0 {
		return 1024
	}
	return int(min(l.Cur, 1<<20))
}
