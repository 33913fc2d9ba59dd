//go:build unix

package runtime

import "syscall"

// processCPU is the CPU time the process has used, user and system, in
// nanoseconds, all threads (the garbage collector's included).
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
