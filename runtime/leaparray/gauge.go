package leaparray

import (
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/procslots"
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Gauge is a counter that goes up and down (calls in flight), striped like
// a Window's buckets so concurrent updates from different processors do not
// share a cache line. Reads sum the stripes; a read racing with updates sees
// some of them, as any atomic counter read would.
//
// A gauge made by Window.NewGauge gets a processor's stripe when its window
// does (see stripes.go): the runtime updates a resource's gauge next to its
// window, so the window's view of contention serves both, and the gauge's
// update stays small enough to inline. Until then a processor adds to the
// shared stripe atomically.
type Gauge struct {
	// shared is written by atomic adds, on a line of its own.
	shared *atomic.Uint64
	// Slot i of procs is processor i's stripe (a line of its own), or nil
	// until it has one (a procslots.Table, as Window's). hi is one more
	// than the highest index with a stripe.
	procs procslots.Table
	hi    atomic.Int32
}

func newGauge() *Gauge {
	g := &Gauge{shared: &alignedWords(wordsPerLine)[0]}
	g.procs.Init()
	return g
}

// NewGauge returns a zero Gauge with a stripe for every processor below
// maxOwned, for gauges written without a window to follow.
func NewGauge() *Gauge {
	g := newGauge()
	for i := range maxOwned {
		g.claim(i)
	}
	return g
}

// NewGauge returns a zero Gauge that gets a processor's stripe when w does.
// A window has at most one such gauge; a second call replaces the first's
// link (the first keeps working on its shared stripe).
func (w *Window) NewGauge() *Gauge {
	g := newGauge()
	w.gauge.Store(g)
	// A processor that claimed before the link would otherwise go on
	// writing the gauge's shared stripe.
	for i := range maxOwned {
		if w.owns(i) {
			g.claim(i)
		}
	}
	return g
}

// Add adds delta (which may be negative) to the shared stripe.
func (g *Gauge) Add(delta int64) { g.shared.Add(uint64(delta)) }

// AddPinned adds delta from a goroutine pinned to p: a load and a
// plain store on p's own stripe, or an atomic add on the shared one when p
// has none.
func (g *Gauge) AddPinned(delta int64, p stripe.P) {
	if i := p.Index(); uint(i) < maxOwned {
		if c := g.cell(i); c != nil {
			stripe.Store(c, c.Load()+uint64(delta))
			return
		}
	}
	g.Add(delta)
}

// cell is processor i's stripe (i < maxOwned), or nil.
func (g *Gauge) cell(i int) *atomic.Uint64 { return (*atomic.Uint64)(g.procs.Load(i)) }

// claim gives processor i a stripe. Only processor i, pinned, or the
// goroutine making the gauge calls it, so the slot has one writer.
func (g *Gauge) claim(i int) {
	if g.cell(i) != nil {
		return
	}
	g.procs.Store(i, unsafe.Pointer(&alignedWords(wordsPerLine)[0]))
	for h := g.hi.Load(); h <= int32(i); h = g.hi.Load() {
		if g.hi.CompareAndSwap(h, int32(i+1)) {
			break
		}
	}
}

// Load returns the sum of all stripes.
func (g *Gauge) Load() int64 {
	sum := g.shared.Load()
	for i, hi := 0, int(g.hi.Load()); i < hi && i < maxOwned; i++ {
		if c := g.cell(i); c != nil {
			sum += c.Load()
		}
	}
	return int64(sum) // two's complement: stripes may be negative individually
}
