package hotkeys

import (
	"strings"
	"sync"
	"sync/atomic"
)

// Node is one tracked value and its state. It does not keep its key's hash:
// chains are short (the index grows to one head per value), so comparing
// keys costs no more than comparing hashes would, and the 8 bytes would
// take a node of a small state past the 80-byte size class.
type Node[V any] struct {
	// Val is the caller's state for the value. Fields that change after
	// Insert must be atomic: readers share the node.
	Val  V
	Key  Key
	next atomic.Pointer[Node[V]]
	// ref is CLOCK's reference bit, set by Get when clear.
	ref atomic.Uint32
}

// NewNode returns a node for k, holding its own copy of k's string: a key
// taken from a request must not keep the request's buffer alive.
func NewNode[V any](k Key) *Node[V] {
	k.S = strings.Clone(k.S)
	return &Node[V]{Key: k}
}

// index is the chain heads; it is replaced whole when the table grows.
type index[V any] struct {
	heads []atomic.Pointer[Node[V]]
	mask  uint64
}

func newIndex[V any](n int) *index[V] {
	return &index[V]{heads: make([]atomic.Pointer[Node[V]], n), mask: uint64(n - 1)}
}

// Table maps keys to nodes; see the package doc.
type Table[V any] struct {
	idx atomic.Pointer[index[V]]
	h   hasher
	// keep says whether a node must not be evicted now (a value with calls
	// in flight); nil spares none. Called only while inserting.
	keep func(*V) bool

	mu       sync.Mutex
	capacity int
	ring     []*Node[V] // every node in the table, in CLOCK order
	hand     int
}

// minBuckets is the index size of a new table; it doubles as values come,
// up to the first power of two >= capacity.
const minBuckets = 16

// New returns a table of at most capacity values (at least 1). keep, when
// not nil, spares the nodes it returns true for from eviction while others
// can go.
func New[V any](capacity int, keep func(*V) bool) *Table[V] {
	t := &Table[V]{h: newHasher(), keep: keep, capacity: max(capacity, 1)}
	t.idx.Store(newIndex[V](minBuckets))
	return t
}

// Hash returns k's hash in this table, for Get and Insert.
func (t *Table[V]) Hash(k Key) uint64 { return t.h.hash(k) }

// Get returns k's node, or nil when the table does not hold k (or, rarely,
// when it is growing: then Insert finds the node). h is t.Hash(k).
func (t *Table[V]) Get(k Key, h uint64) *Node[V] {
	ix := t.idx.Load()
	for n := ix.heads[h&ix.mask].Load(); n != nil; n = n.next.Load() {
		if n.Key == k {
			if n.ref.Load() == 0 {
				n.ref.Store(1)
			}
			return n
		}
	}
	return nil
}

// Insert adds n (from NewNode, its Val set up) under hash h unless the table
// holds its key already, and returns the node in the table: n, or the one
// that was there. A full table evicts one value first.
func (t *Table[V]) Insert(n *Node[V], h uint64) *Node[V] {
	t.mu.Lock()
	defer t.mu.Unlock()
	ix := t.idx.Load()
	for c := ix.heads[h&ix.mask].Load(); c != nil; c = c.next.Load() {
		if c.Key == n.Key {
			return c
		}
	}
	if len(t.ring) < t.capacity {
		if len(t.ring) >= len(ix.heads) && len(ix.heads) < t.capacity {
			ix = t.grow(ix)
		}
		t.ring = append(t.ring, n)
	} else {
		slot := t.victim()
		t.unlink(ix, t.ring[slot])
		t.ring[slot] = n
	}
	head := &ix.heads[h&ix.mask]
	n.next.Store(head.Load())
	head.Store(n) // publishes n, its Val included
	return n
}

// victim picks the ring slot to evict and moves the hand past it. It gives
// each referenced node a second chance and skips nodes keep spares; after
// two turns of the ring without a candidate it takes the slot at the hand.
func (t *Table[V]) victim() int {
	for range 2 * len(t.ring) {
		slot := t.hand
		t.hand = (t.hand + 1) % len(t.ring)
		c := t.ring[slot]
		if c.ref.Load() != 0 {
			c.ref.Store(0)
			continue
		}
		if t.keep != nil && t.keep(&c.Val) {
			continue
		}
		return slot
	}
	slot := t.hand
	t.hand = (t.hand + 1) % len(t.ring)
	return slot
}

// unlink removes c from its chain. c's own next pointer is left as it is, so
// a reader standing on c walks on down the chain.
func (t *Table[V]) unlink(ix *index[V], c *Node[V]) {
	p := &ix.heads[t.h.hash(c.Key)&ix.mask]
	for cur := p.Load(); cur != nil; cur = p.Load() {
		if cur == c {
			p.Store(c.next.Load())
			return
		}
		p = &cur.next
	}
}

// grow doubles the index and relinks every node into it. Nodes are moved one
// by one, each pointing only at nodes already moved, so a reader still on the
// old index always reaches the end of a chain; it may miss a key while the
// move runs, and Insert (which waits for the move) then finds it.
func (t *Table[V]) grow(old *index[V]) *index[V] {
	ix := newIndex[V](len(old.heads) * 2)
	for _, n := range t.ring {
		head := &ix.heads[t.h.hash(n.Key)&ix.mask]
		n.next.Store(head.Load())
		head.Store(n)
	}
	t.idx.Store(ix)
	return ix
}

// Len is the number of values held.
func (t *Table[V]) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.ring)
}

// Capacity is the most values the table holds.
func (t *Table[V]) Capacity() int { return t.capacity }
