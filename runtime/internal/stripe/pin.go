//go:build !sentinel_nolinkname

package stripe

import _ "unsafe" // for go:linkname

// Linked is true when Pin really pins (the build has no sentinel_nolinkname
// tag).
const Linked = true

// procPin and procUnpin are the Go runtime's pinning primitives; see the
// package doc for why they are linkable and what replaces them without.
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()

// Pin pins the calling goroutine to its processor until Unpin and returns
// it. While pinned the goroutine is neither preempted nor moved, so no other
// goroutine writes that processor's stripes in the meantime. Keep pinned
// sections to a few counter writes: no blocking, no locks, no calls into
// user code (listeners, token services).
func Pin() P { return P{plus1: procPin() + 1} }

// Unpin ends the section started by Pin.
func Unpin() { procUnpin() }
