package runtime

import "sync/atomic"

// Exact concurrency limits.
//
// A concurrency rule compares the calls in flight with its count. Reading
// the node's in-flight gauge and joining it later, as a plain check would,
// lets every caller that read the same count pass together, so a burst
// admits more than the count. Instead the call reserves first: it adds
// itself to the node's reservation counter (one atomic add, which orders
// racing callers) and compares the result, and a refused call, for this rule
// or any later check, gives the place back. The last of the calls in flight
// to reserve saw every other one's place, so no more than the count are ever
// in flight. Under a burst a caller may be refused while another's place,
// about to be given back, still counts: the limit errs towards refusing.
//
// Cost: only calls of a resource with such a rule pay it, an atomic add at
// Entry and one at Exit on a counter of the node's own, in a cache line of
// its own; the counter exists only on nodes a concurrency rule has read, and
// rules of other grades, and the common call, never touch it. A call reserves
// at most once per node (the flags in Entry.guard say where), so two rules
// on one node compare the same count.
//
// A rule loaded while calls are in flight counts the calls admitted from
// then on; a reload keeps the count, which lives in the node.

// heldCount is a node's reservation counter: calls admitted by a concurrency
// rule reading the node and not yet exited.
type heldCount struct {
	_ [64]byte
	n atomic.Int64
	_ [56]byte
}

// heldCounter returns n's reservation counter, making it on first use: at
// load for the nodes a rule names, at the first call for the node of an
// origin first seen then (an allocation while pinned, which the Go runtime
// allows: a pinned goroutine does no GC assist work).
func (n *node) heldCounter() *heldCount {
	if c := n.held.Load(); c != nil {
		return c
	}
	n.held.CompareAndSwap(nil, new(heldCount))
	return n.held.Load()
}

// reserve decides call e against concurrency rule f (f.exact): it reserves
// a place on the node the rule counts, unless e already holds one there,
// and reports whether the calls in flight, this one included, leave room for
// acquire. A refused call keeps its reservation flags: the caller drops it,
// which gives every place back. The call comes from Resource.enterGeneral,
// pinned; reserve does not block.
func (f *flowCheck) reserve(r *Resource, e *Entry, via *node, acquire int64) bool {
	var src *node
	var bit guardFlags
	switch {
	case f.rule.Strategy == StrategyChain:
		if via != f.ref {
			return true // the call came through another entrance, or none
		}
		src, bit = via, guardHeldVia
		e.via = via // Entry sets it for an admitted call; a drop needs it now
	case f.app != appAll:
		if src = e.origin(); src == nil {
			return true
		}
		bit = guardHeldFrom
	default:
		src, bit = r.stats, guardHeldOwn
	}
	if e.guard == 0 {
		e.from = nil // guard did not run: from is left over from an earlier call
	}
	var inFlight int64
	if e.guard&bit != 0 {
		inFlight = src.held.Load().n.Load()
	} else {
		e.guard |= bit
		inFlight = src.heldCounter().n.Add(1)
	}
	// As Sentinel: the calls in flight before this one plus its acquire
	// count stay within the count (limit is its floor: the counts are
	// whole).
	return inFlight-1+acquire <= f.limit
}

// releaseHeld gives back the places in flight e, a call of r, reserved
// (guardHeld). r is passed: a call dropped at Entry has no e.res yet.
func (e *Entry) releaseHeld(r *Resource) {
	if e.guard&guardHeldOwn != 0 {
		r.stats.held.Load().n.Add(-1)
	}
	if e.guard&guardHeldFrom != 0 {
		e.from.held.Load().n.Add(-1)
	}
	if e.guard&guardHeldVia != 0 {
		e.via.held.Load().n.Add(-1)
	}
	e.guard &^= guardHeld
}
