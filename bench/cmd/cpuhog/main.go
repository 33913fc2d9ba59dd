// Command cpuhog keeps N threads busy on arithmetic, so that benchmarks can be
// measured on a machine that another program is loading. It is the separate
// process behind the benchmarks' loaded mode (BENCH_LOAD, see README.md): a
// process of its own competes for the cores as any other program would,
// which goroutines inside the measured binary would not.
//
// Usage:
//
//	cpuhog -n 2 -for 10m -parent 1234
//
// It never outlives what started it: it exits after -for, and as soon as its
// parent process dies (its parent PID is no longer -parent, or no longer the
// one it started with when -parent is not given), so a crashed benchmark run
// leaves no hog behind. Naming the parent closes the gap between fork and the
// hog's first instruction, in which the parent may already have died.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"
)

// parentPoll is how often the hog checks that its parent is still alive.
const parentPoll = 100 * time.Millisecond

func main() {
	n := flag.Int("n", 1, "number of busy threads")
	limit := flag.Duration("for", 10*time.Minute, "exit after this long at the latest")
	parent := flag.Int("parent", 0, "exit when the parent process is no longer this PID (default: the parent at start)")
	flag.Parse()
	if *n < 1 || *limit <= 0 {
		fmt.Fprintln(os.Stderr, "cpuhog: -n must be at least 1 and -for positive")
		os.Exit(2)
	}
	if *parent == 0 {
		*parent = os.Getppid()
	}
	// One P per spinner plus one for the watcher, so the watcher is never
	// starved by the spinners it has to stop.
	runtime.GOMAXPROCS(*n + 1)
	for i := 0; i < *n; i++ {
		go spin(uint64(i) + 1)
	}
	os.Exit(watch(*parent, time.Now().Add(*limit)))
}

// watch returns when the deadline passes or the parent is gone: the exit
// status is 0 for the deadline and 3 for a lost parent.
func watch(parent int, deadline time.Time) int {
	if os.Getppid() != parent {
		return 3
	}
	ticker := time.NewTicker(parentPoll)
	defer ticker.Stop()
	for now := range ticker.C {
		if os.Getppid() != parent {
			return 3
		}
		if now.After(deadline) {
			return 0
		}
	}
	return 0
}

// sink receives the spinners' results so the arithmetic cannot be removed.
var sink [64]uint64

// spin runs integer arithmetic (an xorshift generator) until the process
// exits, locked to its own thread so that each spinner is one busy OS thread.
func spin(seed uint64) {
	runtime.LockOSThread()
	x := seed * 0x9E3779B97F4A7C15
	for {
		for i := 0; i < 1<<20; i++ {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
		sink[seed%uint64(len(sink))] = x
	}
}
