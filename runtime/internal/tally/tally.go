package tally

import (
	"runtime"
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Tally is a count per processor.
type Tally struct {
	cells []cell
}

// cell is one processor's count, alone on its cache line (64 bytes):
// whatever the slice's alignment, no two counts share a line.
type cell struct {
	n atomic.Uint64
	_ [56]byte
}

// MaxCells caps a tally's cells, as leaparray caps the processors that own
// a stripe of one window: Sum reads every cell.
const MaxCells = 16

// New returns a tally with a cell for each processor there is now (a power
// of two, at least two, at most MaxCells).
func New() *Tally {
	n := 2
	for n < runtime.GOMAXPROCS(0) && n < MaxCells {
		n *= 2
	}
	return newCells(n)
}

// newCells returns a tally of n cells.
func newCells(n int) *Tally { return &Tally{cells: make([]cell, n)} }

// Add adds n to p's cell and reports whether it did: false when p has no
// cell, and the caller must count n elsewhere. The caller is pinned to p,
// so the cell has one writer.
func (t *Tally) Add(p stripe.P, n uint32) bool {
	if uint(p.Index()) >= uint(len(t.cells)) {
		return false
	}
	c := &t.cells[p.Index()].n
	stripe.Store(c, c.Load()+uint64(n))
	return true
}

// Sum is the sum of the cells, modulo 2³².
func (t *Tally) Sum() uint32 {
	var sum uint32
	for i := range t.cells {
		sum += uint32(t.cells[i].n.Load())
	}
	return sum
}

// Cells is how many cells t has.
func (t *Tally) Cells() int { return len(t.cells) }
