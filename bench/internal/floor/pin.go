package floor

import _ "unsafe" // for go:linkname

// The Go runtime's pinning primitives, as the runtime's stripe package uses
// them (see its package doc for why they are linkable).
//
//go:linkname procPin runtime.procPin
func procPin() int

//go:linkname procUnpin runtime.procUnpin
func procUnpin()
