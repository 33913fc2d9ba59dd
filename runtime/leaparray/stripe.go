package leaparray

import (
	goruntime "runtime"
	_ "unsafe" // for go:linkname
)

// procPin and procUnpin are the runtime's pinning primitives (what sync.Pool
// uses). procPin returns the id of the processor (P) the goroutine runs on.
// The runtime keeps these two names linkable for outside packages.
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// Pinned is the processor a goroutine is pinned to between Pin and Unpin.
type Pinned int

// Pin pins the calling goroutine to its processor (P) until Unpin, as
// sync.Pool does, and returns the processor's id. While pinned the goroutine
// cannot be preempted or moved, so on a stripe that belongs to its processor
// alone (ids below the stripe count) a write needs no locked instruction:
// no other goroutine can write that stripe in the meantime. Keep pinned
// sections to a few counter writes: no blocking, no calls into user code.
func Pin() Pinned { return Pinned(procPin()) }

// Unpin ends the section started by Pin.
func Unpin() { procUnpin() }

// stripeCount is how many processor-owned stripes new windows and gauges
// get: GOMAXPROCS or the number of CPUs, whichever is larger, rounded up to
// a power of two, at most maxStripes. Counting the CPUs too means that a
// window made while GOMAXPROCS was low (early in a program, or before the
// runtime raised it to a container's new CPU limit) still has a stripe for
// every processor the machine can run. Processors with higher ids write the
// shared stripe with compare-and-swap instead.
func stripeCount() int {
	procs := max(goruntime.GOMAXPROCS(0), goruntime.NumCPU())
	n := 1
	for n < procs && n < maxStripes {
		n *= 2
	}
	return n
}
