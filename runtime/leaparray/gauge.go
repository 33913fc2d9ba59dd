package leaparray

import "sync/atomic"

// Gauge is a counter that goes up and down (calls in flight), striped like
// a Window's buckets so concurrent updates from different processors do not
// share a cache line. Reads sum the stripes; a read racing with updates sees
// some of them, as any atomic counter read would.
type Gauge struct {
	cells []paddedInt64
	mask  int
}

type paddedInt64 struct {
	v atomic.Int64
	_ [56]byte
}

// NewGauge returns a zero Gauge.
func NewGauge() *Gauge {
	n := stripeCount()
	return &Gauge{cells: make([]paddedInt64, n), mask: n - 1}
}

// Add adds delta (which may be negative).
func (g *Gauge) Add(delta int64) { g.cells[stripeHint()&g.mask].v.Add(delta) }

// Load returns the sum of all stripes.
func (g *Gauge) Load() int64 {
	var sum int64
	for i := range g.cells {
		sum += g.cells[i].v.Load()
	}
	return sum
}
