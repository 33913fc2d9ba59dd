// Package stripe is how the runtime's counters avoid locked instructions:
// each processor (P) writes a stripe of its own, pinned to that processor,
// with plain stores. It is internal so that pinning, which reaches into the
// Go runtime, is never API.
//
// Pin pins the calling goroutine to its processor through the Go runtime's
// procPin, which sync.Pool uses. That function is internal to the Go
// runtime: it stays linkable from outside only because widely used packages
// linked to it before Go 1.23 restricted go:linkname, and the runtime keeps
// such names on a list it promises not to break (the "hall of shame"
// comment above procPin in runtime/proc.go; go.dev/issue/67401). It is not
// a supported API. Building with the tag sentinel_nolinkname drops the
// linkname: Pin then pins nothing and returns Shared, so every write takes
// the shared stripe with compare-and-swap, and windows get no owned
// stripes (Count returns 0). Results are the same, only slower under
// contention.
//
// Store is the single-writer store of an owned stripe: a plain store where
// a 64-bit store is one instruction (64-bit platforms), an atomic store
// elsewhere (a plain 64-bit store on 386 or arm is two stores, and a reader
// between them sees a torn value) and under the race detector.
package stripe

import "runtime"

// P is the processor a goroutine is pinned to between Pin and Unpin, or
// Shared. The zero value is Shared, so a P that did not come from Pin
// never addresses an owned stripe.
type P struct{ plus1 int }

// Shared is the P of a goroutine that is not pinned: it owns no stripe.
var Shared P

// Index is the processor's id, or -1 for Shared. A stripe array of n owned
// stripes is owned by p when uint(p.Index()) < uint(n).
func (p P) Index() int { return p.plus1 - 1 }

// Of returns the P with index i, for tests that address stripes directly.
func Of(i int) P { return P{plus1: i + 1} }

// maxStripes caps how many processor-owned stripes a counter is split into:
// reads sum every stripe, so more stripes make reads slower.
const maxStripes = 16

// Count is how many processor-owned stripes new counters get: GOMAXPROCS or
// the number of CPUs, whichever is larger, rounded up to a power of two, at
// most 16; 0 when pinning is off. Counting the CPUs too means that a counter
// made while GOMAXPROCS was low (early in a program, or before the runtime
// raised it to a container's new CPU limit) still has a stripe for every
// processor the machine can run. Processors with higher ids write the
// shared stripe with compare-and-swap instead.
func Count() int {
	if !Linked {
		return 0
	}
	procs := max(runtime.GOMAXPROCS(0), runtime.NumCPU())
	n := 1
	for n < procs && n < maxStripes {
		n *= 2
	}
	return n
}
