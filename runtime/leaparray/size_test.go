package leaparray

import (
	"testing"
	"unsafe"
)

// A window and a gauge keep their processors' stripes in a one-word
// procslots.Table, so that the many windows never written hard take no
// slot per processor: a Window fits the allocator's 112-byte class and a
// Gauge its 24-byte one, which a resource's statistics (its handle, node,
// window and gauge in one object) and a breaker's window are sized by.
func TestWindowAndGaugeSizes(t *testing.T) {
	if got := unsafe.Sizeof(Window{}); got > 112 {
		t.Errorf("Window is %d bytes, want at most 112", got)
	}
	if got := unsafe.Sizeof(Gauge{}); got > 24 {
		t.Errorf("Gauge is %d bytes, want at most 24", got)
	}
}
