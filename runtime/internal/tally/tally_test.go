package tally

import (
	"sync"
	"testing"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// Counts added on each processor's cell add up in Sum, each cell counted
// apart.
func TestAddSums(t *testing.T) {
	tl := newCells(4)
	for i := range 4 {
		for range i + 1 {
			if !tl.Add(stripe.Of(i), 3) {
				t.Fatalf("processor %d has no cell in a tally of 4", i)
			}
		}
	}
	if got := tl.Sum(); got != 3*(1+2+3+4) {
		t.Fatalf("Sum = %d, want %d", got, 3*(1+2+3+4))
	}
	for i := range 4 {
		if got := tl.cells[i].n.Load(); got != uint64(3*(i+1)) {
			t.Fatalf("cell %d = %d, want %d", i, got, 3*(i+1))
		}
	}
}

// A processor without a cell (beyond the cells, or stripe.Shared, which
// is every caller without pinning) is refused, so that the caller counts
// elsewhere: the fallback.
func TestAddRefusesWithoutCell(t *testing.T) {
	tl := newCells(2)
	for _, p := range []stripe.P{stripe.Shared, stripe.Of(2), stripe.Of(15)} {
		if tl.Add(p, 1) {
			t.Fatalf("processor %d counted in a tally of 2 cells", p.Index())
		}
	}
	if tl.Sum() != 0 {
		t.Fatalf("Sum = %d after refused adds, want 0", tl.Sum())
	}
}

// Sum wraps modulo 2³², as the counts it feeds do.
func TestSumWraps(t *testing.T) {
	tl := newCells(2)
	tl.cells[0].n.Store(1<<32 - 1)
	tl.Add(stripe.Of(1), 2)
	if got := tl.Sum(); got != 1 {
		t.Fatalf("Sum = %d, want 1 (modulo 2³²)", got)
	}
}

// Each cell is alone on its cache line.
func TestCellsOnOwnLines(t *testing.T) {
	tl := New()
	if n := tl.Cells(); n < 2 || n > MaxCells || n&(n-1) != 0 {
		t.Fatalf("New made %d cells, want a power of two in [2, %d]", n, MaxCells)
	}
	if len(tl.cells) > 1 {
		a, b := &tl.cells[0], &tl.cells[1]
		if d := uintptr(unsafe.Pointer(b)) - uintptr(unsafe.Pointer(a)); d < 64 {
			t.Fatalf("cells %d bytes apart, want at least a cache line", d)
		}
	}
}

// Concurrent pinned writers, each on its own cell, lose no count.
func TestConcurrentWritersOnOwnCells(t *testing.T) {
	tl := newCells(4)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for range 10_000 {
				tl.Add(stripe.Of(i), 1)
			}
		})
	}
	wg.Wait()
	if got := tl.Sum(); got != 40_000 {
		t.Fatalf("Sum = %d, want 40000", got)
	}
}
