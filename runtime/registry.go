package runtime

import (
	"hash/maphash"
	"sync"
)

// registry is every resource by name, created by NewResource or by a load
// of rules naming it. Resources are never removed (handles live as long as
// the process), except by tests.
var registry struct {
	sync.Mutex
	byName resourceTable
}

// resourceTable is the registry's index: open addressing on the names'
// hashes (nameSeed's, as namer hashes them), probing linearly, with a
// name's first slot taken from the top bits of its hash. Slots are then in
// hash order, so a load, which has its new names' hashes sorted (see
// namer), looks them up and inserts them in a sweep through the table
// rather than with a cache miss or two per name: a map[string]*Resource
// took 30 ms of them for 100k new names.
type resourceTable struct {
	slots []tableSlot // a power of two of them, or none
	count int
	shift uint8 // 64 - log2(len(slots)): a hash's top bits are its first slot
}

// tableSlot is one resource, its name and the name's hash; r is nil in an
// empty slot. The name is the resource's, kept here so that a lookup that
// finds it reads no more memory than the slot (and, when the caller's
// string is the resource's own, as in a load of the rules in force, not
// even the name's bytes).
type tableSlot struct {
	h    uint64
	name string
	r    *Resource
}

// minTableSlots is the smallest table: a handful of resources fit without
// growing it.
const minTableSlots = 64

// hashName is the hash the table and namer give a name.
func hashName(name string) uint64 { return maphash.String(nameSeed, name) }

// find returns the resource named name (hash h), or nil and the empty slot
// where it would go.
func (t *resourceTable) find(name string, h uint64) (*Resource, int) {
	if len(t.slots) == 0 {
		return nil, -1
	}
	mask := len(t.slots) - 1
	for i := int(h >> t.shift); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.r == nil {
			return nil, i
		}
		if s.h == h && s.name == name {
			return s.r, i
		}
	}
}

// add inserts r, named name (hash h), which the table does not hold. The
// name is r's, passed in so that a load inserting many resources need not
// read each one's memory.
func (t *resourceTable) add(r *Resource, name string, h uint64) {
	t.reserve(1)
	_, i := t.find(name, h)
	t.slots[i] = tableSlot{h: h, name: name, r: r}
	t.count++
}

// reserve grows the table, if needed, so that n more resources fit with
// at least half the slots empty: linear probing keeps its probes short
// at that load.
func (t *resourceTable) reserve(n int) {
	need := 2 * (t.count + n)
	if need <= len(t.slots) {
		return
	}
	size, shift := minTableSlots, uint8(64-6)
	for size < need {
		size, shift = size*2, shift-1
	}
	old := t.slots
	t.slots, t.shift = make([]tableSlot, size), shift
	// In slot order, which is hash order but for the few that wrapped
	// round the end: the new table fills in one sweep too.
	for _, s := range old {
		if s.r != nil {
			_, i := t.find(s.name, s.h)
			t.slots[i] = s
		}
	}
}

// remove deletes the resource named name (hash h), if there is one,
// moving back the entries after it that its slot would otherwise cut off
// from their first slot (the deletion linear probing needs: no
// tombstones). Only tests remove resources.
func (t *resourceTable) remove(name string, h uint64) {
	r, i := t.find(name, h)
	if r == nil {
		return
	}
	mask := len(t.slots) - 1
	for j := (i + 1) & mask; t.slots[j].r != nil; j = (j + 1) & mask {
		// The entry at j stays unless i lies cyclically between its first
		// slot and j.
		home := int(t.slots[j].h >> t.shift)
		if (j-home)&mask >= (j-i)&mask {
			t.slots[i] = t.slots[j]
			i = j
		}
	}
	t.slots[i] = tableSlot{}
	t.count--
}

// each calls fn with every resource, in no particular order.
func (t *resourceTable) each(fn func(*Resource)) {
	for _, s := range t.slots {
		if s.r != nil {
			fn(s.r)
		}
	}
}
