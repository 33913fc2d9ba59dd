package procslots

import (
	"sync/atomic"
	"unsafe"
)

// Len is how many slots a Table has: processors 0 to Len-1.
const Len = 16

// Table is Len pointer slots, nil until stored. Init must run before
// any other method (a zero Table has no slots to read). Loads and stores
// are atomic. Each slot must have one writer at a time (the processor it
// belongs to, in the runtime's use); stores to different slots may run
// concurrently.
type Table struct {
	// slots is the *[Len]unsafe.Pointer holding the slots: empty until
	// the first store, then an array of the table's own.
	slots unsafe.Pointer
}

// empty is the slots of every table before its first store. It is never
// written: Store replaces it before storing.
var empty [Len]unsafe.Pointer

// Init makes t an empty table, all slots nil. Call it once, before t is
// shared.
func (t *Table) Init() { t.slots = unsafe.Pointer(&empty) }

// Load returns slot i, or nil when it was never stored; i must be between
// 0 and Len-1. It reads the slot without a test for an empty table (the
// empty one has slots too), which keeps it small enough to inline where
// callers are themselves inlined.
func (t *Table) Load(i int) unsafe.Pointer {
	return atomic.LoadPointer(&(*[Len]unsafe.Pointer)(atomic.LoadPointer(&t.slots))[i])
}

// Store sets slot i, which must be between 0 and Len-1, to p. The first
// store gives t slots of its own.
func (t *Table) Store(i int, p unsafe.Pointer) {
	s := atomic.LoadPointer(&t.slots)
	if s == unsafe.Pointer(&empty) {
		// Two processors may store their first slots at once: one array
		// wins, and both store into it.
		atomic.CompareAndSwapPointer(&t.slots, s, unsafe.Pointer(new([Len]unsafe.Pointer)))
		s = atomic.LoadPointer(&t.slots)
	}
	atomic.StorePointer(&(*[Len]unsafe.Pointer)(s)[i], p)
}
