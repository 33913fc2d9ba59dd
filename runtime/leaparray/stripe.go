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

// stripeHint returns the current processor's id. It is only a hint: the
// goroutine may move to another processor right after, which costs a shared
// cache line at worst, never a wrong count.
func stripeHint() int {
	id := procPin()
	procUnpin()
	return id
}

// stripeCount is how many stripes new windows get: GOMAXPROCS rounded up to
// a power of two, at most maxStripes.
func stripeCount() int {
	n := 1
	for n < goruntime.GOMAXPROCS(0) && n < maxStripes {
		n *= 2
	}
	return n
}
