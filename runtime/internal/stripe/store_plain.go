//go:build !race && (amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x || wasm)

package stripe

import (
	"sync/atomic"
	"unsafe"
)

// Store writes v to a word that only the calling goroutine writes (its
// processor's stripe, under Pin). On these 64-bit platforms a plain store
// suffices: the word is aligned and one machine word, so concurrent atomic
// loads see the old or the new value, never a mix, and no other writer
// exists. atomic.Uint64.Store would be an implicitly locked exchange on
// amd64, costing as much as the read-modify-write pinning exists to avoid.
func Store(p *atomic.Uint64, v uint64) { *(*uint64)(unsafe.Pointer(p)) = v }
