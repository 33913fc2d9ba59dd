//go:build !race

package leaparray

import (
	"sync/atomic"
	"unsafe"
)

// storeOwned writes v to a word that only the calling goroutine writes (its
// processor's stripe, under Pin). A plain store suffices: the word is aligned
// and machine-sized, so concurrent atomic loads see the old or the new value,
// never a mix (the Go memory model guarantees this for word-sized accesses),
// and no other writer exists. atomic.Uint64.Store would be an implicitly
// locked exchange on amd64, costing as much as the read-modify-write the
// pinned path exists to avoid. Race-detector builds use the atomic store so
// that the detector, which cannot know the word is single-writer, stays quiet.
func storeOwned(p *atomic.Uint64, v uint64) { *(*uint64)(unsafe.Pointer(p)) = v }
