package leaparray

import (
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Gauge is a counter that goes up and down (calls in flight), striped like
// a Window's buckets so concurrent updates from different processors do not
// share a cache line. Reads sum the stripes; a read racing with updates sees
// some of them, as any atomic counter read would.
type Gauge struct {
	// words holds one stripe per cache line: stripe i is words[i*wordsPerLine].
	// Stripes 0..owned-1 belong to processors 0..owned-1 (plain stores under
	// pinning); stripe owned is shared (atomic adds), as in Window.
	words []atomic.Uint64
	first unsafe.Pointer // &words[0], for index-free addressing on the hot path
	owned int
}

// NewGauge returns a zero Gauge.
func NewGauge() *Gauge {
	owned := stripe.Count()
	words := alignedWords((owned + 1) * wordsPerLine)
	return &Gauge{words: words, first: unsafe.Pointer(&words[0]), owned: owned}
}

// cell is stripe i (0 <= i <= g.owned).
func (g *Gauge) cell(i int) *atomic.Uint64 {
	return (*atomic.Uint64)(unsafe.Add(g.first, uintptr(i)*wordsPerLine*wordBytes))
}

// Add adds delta (which may be negative) to the shared stripe.
func (g *Gauge) Add(delta int64) { g.cell(g.owned).Add(uint64(delta)) }

// AddPinned adds delta from a goroutine pinned to p: a load and a
// plain store on p's own stripe, or an atomic add on the shared one when p
// has no stripe of its own.
func (g *Gauge) AddPinned(delta int64, p stripe.P) {
	if i := p.Index(); uint(i) < uint(g.owned) {
		c := g.cell(i)
		stripe.Store(c, c.Load()+uint64(delta))
		return
	}
	g.Add(delta)
}

// Load returns the sum of all stripes.
func (g *Gauge) Load() int64 {
	var sum uint64
	for i := 0; i < len(g.words); i += wordsPerLine {
		sum += g.words[i].Load()
	}
	return int64(sum) // two's complement: stripes may be negative individually
}
