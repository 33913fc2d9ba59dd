// Package nametable is the adapters' table from a name (a gRPC method, a
// ServeMux pattern) to what guards it, for lookups made on every request.
//
// What it buys: a lookup hashes no more than 24 bytes of the name (its
// first, middle and last eight) with its length, by one multiplication,
// instead of the whole name with the map's hash, then confirms the slot by
// comparing the name; it reads an immutable table without a lock or an
// allocation. What it costs: a name seen for the first time copies the
// table under a mutex, and names alike in length and in those bytes share a
// slot sequence, each lookup among them comparing more names. Both suit the
// bounded set of names a program registers or calls, not names taken from
// requests, which an attacker could choose alike.
package nametable

import (
	"math/bits"
	"sync"
	"sync/atomic"
)

// Table is a table of values by name; the zero Table is empty and ready for
// use. It is safe for concurrent use.
type Table[V any] struct {
	t  atomic.Pointer[table[V]]
	mu sync.Mutex
}

// table is one immutable version: open addressing with linear probing, at
// most half full, so every probe sequence reaches an empty slot.
type table[V any] struct {
	shift uint // 64 minus log2 of len(slots)
	slots []slot[V]
	n     int
}

// slot holds a name, its hash (compared before the name, so that a probe
// past another name rarely compares strings) and its value.
type slot[V any] struct {
	hash uint64
	key  string
	val  V
	used bool
}

// Load returns the value of name and whether there is one.
func (m *Table[V]) Load(name string) (V, bool) {
	if t := m.t.Load(); t != nil {
		mask := uint64(len(t.slots) - 1)
		h := hash(name)
		for i := h >> t.shift; ; i = (i + 1) & mask {
			s := &t.slots[i]
			if !s.used {
				break
			}
			if s.hash == h && s.key == name {
				return s.val, true
			}
		}
	}
	var zero V
	return zero, false
}

// LoadOrMake returns the value of name, calling create to make it when
// there is none. create runs at most once per name, under the table's
// mutex.
func (m *Table[V]) LoadOrMake(name string, create func() V) V {
	if v, ok := m.Load(name); ok {
		return v
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if v, ok := m.Load(name); ok {
		return v
	}
	v := create()
	old := m.t.Load()
	n := 1
	if old != nil {
		n += old.n
	}
	// The smallest power of two at least twice the names, and at least 2.
	size := 2
	for size < 2*n {
		size *= 2
	}
	next := &table[V]{shift: uint(64 - bits.TrailingZeros(uint(size))), slots: make([]slot[V], size), n: n}
	if old != nil {
		for i := range old.slots {
			if s := &old.slots[i]; s.used {
				next.put(s.key, s.val)
			}
		}
	}
	next.put(name, v)
	m.t.Store(next)
	return v
}

// put stores a name the table does not hold, in its first free slot.
func (t *table[V]) put(name string, v V) {
	mask := uint64(len(t.slots) - 1)
	h := hash(name)
	i := h >> t.shift
	for t.slots[i].used {
		i = (i + 1) & mask
	}
	t.slots[i] = slot[V]{hash: h, key: name, val: v, used: true}
}

// Len is the number of names.
func (m *Table[V]) Len() int {
	if t := m.t.Load(); t != nil {
		return t.n
	}
	return 0
}

// hash mixes the length of s with its first, middle and last eight bytes
// (all of s when shorter) by one multiplication; a table takes the top
// bits, which the multiplication mixes best.
func hash(s string) uint64 {
	n := len(s)
	var a, b, c uint64
	if n >= 8 {
		a, b, c = load8(s, 0), load8(s, n/2-4), load8(s, n-8)
	} else {
		for i := range n {
			a = a<<8 | uint64(s[i])
		}
	}
	return (a ^ bits.RotateLeft64(b, 21) ^ bits.RotateLeft64(c, 43) ^ uint64(n)) * 0x9e3779b97f4a7c15
}

// load8 reads the eight bytes of s from i, little endian.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
