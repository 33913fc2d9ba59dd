package runtime

import (
	goruntime "runtime"
	"sync/atomic"
	"unsafe"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// Counting blocks without a write every core shares.
//
// BlockError.Blocked used to count with one atomic add per blocked call.
// When calls to one resource are blocked on several processors at once (an
// overload spread over cores, the time blocks are most frequent), that add
// is a locked write to one cache line from every core, and each core waits
// for the line: in BenchmarkEntryBlockParallel on the 2-core VM, 83% of
// blockedCommon's samples fell on the instruction after it. From one
// processor the add costs nothing measurable: the block path measured the
// same without it in bench's rotating harness.
//
// So an error blocked while its resource's second-level window has stripes
// on more than one processor (leaparray.Window.Stripes, the window's own
// sign of contention) gets a tally: a count per processor, each on a cache
// line of its own, written by the pinned caller with a plain store (see
// package stripe). Blocked adds the tally's counts to the shared one. An
// error blocked from one processor at a time never gets a tally, and a
// processor without a cell (a higher index than the tally has, or a build
// without pinning) goes on with the atomic add.

// blockTally is a BlockError's per-processor block counts.
type blockTally struct {
	cells []tallyCell
}

// tallyCell is one processor's count, alone on its cache line (64 bytes):
// whatever the slice's alignment, no two counts share a line.
type tallyCell struct {
	n atomic.Uint64
	_ [56]byte
}

// maxTallyCells caps a tally's cells, as leaparray caps the processors
// that own a stripe of one window: Blocked sums every cell.
const maxTallyCells = 16

// newBlockTally returns a tally with a cell for each processor there is
// now (a power of two, at least two, at most maxTallyCells).
func newBlockTally() *blockTally {
	n := 2
	for n < goruntime.GOMAXPROCS(0) && n < maxTallyCells {
		n *= 2
	}
	return &blockTally{cells: make([]tallyCell, n)}
}

// countPinned adds n to the calls e was returned for on p's cell of its
// tally, and reports whether it did: false when e has no tally yet or p no
// cell, and the caller must then call countShared. The caller is pinned to
// p, so the cell has one writer.
func (e *BlockError) countPinned(p stripe.P, n uint32) bool {
	t := (*blockTally)(atomic.LoadPointer(&e.tally))
	if t == nil || uint(p.Index()) >= uint(len(t.cells)) {
		return false
	}
	c := &t.cells[p.Index()].n
	stripe.Store(c, c.Load()+uint64(n))
	return true
}

// countShared adds n to the calls e was returned for with an atomic add,
// the count of errors without a tally (and of processors without a cell).
// Call it unpinned.
func (e *BlockError) countShared(n uint32) { atomic.AddUint32(&e.blocked, n) }

// checkTally gives e a tally when w, the blocked resource's second-level
// window, has stripes on more than one processor, unless e has one. The
// block paths call it with their clock audit, once every auditEvery
// recordings on the processor, which keeps w off the block path: looking
// at w on every block, or on every 64th atomic add (which puts the add's
// result on the path), measured up to 0.5 ns slower in bench's rotating
// harness, and a contended error still gets its tally within a few dozen
// blocks. Call it unpinned: making the tally allocates.
//
//go:noinline
func (e *BlockError) checkTally(w *leaparray.Window) {
	if w.Stripes() > 1 && atomic.LoadPointer(&e.tally) == nil {
		atomic.CompareAndSwapPointer(&e.tally, nil, unsafe.Pointer(newBlockTally()))
	}
}

// tallied is the sum of e's tally, modulo 2³² as Blocked is.
func (e *BlockError) tallied() uint32 {
	t := (*blockTally)(atomic.LoadPointer(&e.tally))
	if t == nil {
		return 0
	}
	var sum uint32
	for i := range t.cells {
		sum += uint32(t.cells[i].n.Load())
	}
	return sum
}
