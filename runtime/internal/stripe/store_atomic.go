//go:build race || !(amd64 || arm64 || loong64 || mips64 || mips64le || ppc64 || ppc64le || riscv64 || s390x || wasm)

package stripe

import "sync/atomic"

// Store is the atomic build of Store (see store_plain.go): on 32-bit
// platforms a plain 64-bit store is two stores that a reader can see half
// done, and under the race detector, which cannot know the word has a single
// writer, a plain store would be reported.
func Store(p *atomic.Uint64, v uint64) { p.Store(v) }
