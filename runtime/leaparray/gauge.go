package leaparray

import "sync/atomic"

// Gauge is a counter that goes up and down (calls in flight), striped like
// a Window's buckets so concurrent updates from different processors do not
// share a cache line. Reads sum the stripes; a read racing with updates sees
// some of them, as any atomic counter read would.
type Gauge struct {
	// words holds one stripe per cache line: stripe i is words[i*wordsPerLine].
	words   []atomic.Uint64
	stripes int
}

// NewGauge returns a zero Gauge.
func NewGauge() *Gauge {
	n := stripeCount()
	return &Gauge{words: alignedWords(n * wordsPerLine), stripes: n}
}

func (g *Gauge) cell(proc int) *atomic.Uint64 {
	return &g.words[(proc&(g.stripes-1))*wordsPerLine]
}

// Add adds delta (which may be negative).
func (g *Gauge) Add(delta int64) { g.cell(stripeHint()).Add(uint64(delta)) }

// AddPinned adds delta from a goroutine pinned to p (see Pin): a load and a
// plain store when the stripe belongs to p alone.
func (g *Gauge) AddPinned(delta int64, p Pinned) {
	c := g.cell(int(p))
	if int(p) < g.stripes {
		storeOwned(c, c.Load()+uint64(delta))
		return
	}
	c.Add(uint64(delta))
}

// Load returns the sum of all stripes.
func (g *Gauge) Load() int64 {
	var sum uint64
	for i := 0; i < len(g.words); i += wordsPerLine {
		sum += g.words[i].Load()
	}
	return int64(sum) // two's complement: stripes may be negative individually
}
