package runtime

import (
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// Counters of a node's second-level window (Sentinel's MetricEvent). Every
// flow check reads the pass counter of every processor's stripe, so the pass
// counter gets a cache line of its own: the other counters, written at exit
// and on blocks, then never share a line with what other cores keep reading.
const (
	evPass    = 0
	evBlock   = 8 // first word of the next cache line
	evSuccess = 9
	evError   = 10
	evRT      = 11 // sum of response times in ms
	numEvents = 12
)

// node is the statistics of one traffic source: a resource, or a resource
// seen through one entrance (for chain rules). It is Sentinel's
// StatisticNode.
type node struct {
	second *leaparray.Window
	// inFlight is the number of calls admitted and not yet exited.
	inFlight *leaparray.Gauge
	// perSecond counts passes in 1-second buckets, to give warm-up the
	// previous second's rate. Nil until a warm-up rule reads this node, so
	// resources without warm-up pay nothing for it.
	perSecond atomic.Pointer[leaparray.Window]
	// held counts the places in flight concurrency rules reserved on this
	// node (see flow_reserve.go); nil until such a rule reads the node.
	held atomic.Pointer[heldCount]
}

func newNode() *node {
	mem := new(nodeMem)
	mem.init()
	return &mem.n
}

// nodeMem is a node with its second-level window and in-flight gauge, in
// one allocation (their counter words take one more: see
// leaparray.NewSecondIn). Large loads make a node per resource, or per
// resource and origin, and what the garbage collector pays for grows with
// the objects and pointers each one takes.
type nodeMem struct {
	n      node
	second leaparray.Window
	gauge  leaparray.Gauge
}

// init gives the zero node its windows, which it holds in mem; mem may sit
// inside a larger object (see resourceMem).
func (mem *nodeMem) init() {
	leaparray.NewSecondIn(&mem.second, &mem.gauge, numEvents)
	mem.n.second, mem.n.inFlight = &mem.second, &mem.gauge
}

// enablePerSecond turns on the previous-second counter (idempotent).
func (n *node) enablePerSecond() {
	if n.perSecond.Load() == nil {
		n.perSecond.CompareAndSwap(nil, leaparray.MustNew(leaparray.Config{IntervalMs: 2000, Buckets: 2, Counters: 1}))
	}
}

// passCount is the pass count over the second-level window (calls per
// second), including capacity borrowed into it by prioritized calls.
func (n *node) passCount(nowMs int64) int64 {
	return n.second.CountWithBorrowed(nowMs, evPass)
}

// fits reports whether the pass count of the second-level window id (with
// what was borrowed into it) plus acquire is at most limit: the question
// every QPS check on this node asks. It pins so that the window can answer
// from this processor's cached bound (see leaparray.Window.FitsPinned).
func (n *node) fits(id, acquire, limit int64) bool {
	p := stripe.Pin()
	ok := n.second.FitsPinned(id, acquire, limit, p)
	stripe.Unpin()
	return ok
}

// previousSecondPass is the pass count of the last whole second.
func (n *node) previousSecondPass(nowMs int64) int64 {
	if w := n.perSecond.Load(); w != nil {
		return w.Previous(nowMs, 0)
	}
	return 0
}

// enter records an admitted call in window id at nowMs. counted is false
// for a call that borrowed its pass from a future window: the borrow
// already accounts for it. The caller is pinned to p (see record.go).
func (n *node) enter(p stripe.P, id, nowMs, acquire int64, counted bool) {
	n.inFlight.AddPinned(1, p)
	// TryAdd inlines, sparing a call per counter in the common case.
	if c := n.second.AtID(id, p); counted && !c.TryAdd(evPass, acquire) {
		c.Add(evPass, acquire)
	}
	if n.perSecond.Load() != nil {
		n.enterPerSecond(p, nowMs, acquire)
	}
}

// enterPerSecond counts an admitted call in the previous-second counter,
// which must be on (see enablePerSecond). The caller is pinned to p.
func (n *node) enterPerSecond(p stripe.P, nowMs, acquire int64) {
	n.perSecond.Load().AtPinned(nowMs, p).Add(0, acquire)
}

// exit records the end of an admitted call in window id, as enter.
func (n *node) exit(p stripe.P, id, rtMs, acquire int64, failed bool) {
	n.inFlight.AddPinned(-1, p)
	c := n.second.AtID(id, p)
	if !c.TryAdd(evSuccess, acquire) {
		c.Add(evSuccess, acquire)
	}
	if rtMs > 0 || failed {
		n.exitRT(c, rtMs, acquire, failed)
	}
}

// exitRT records a call's response time and failure through c, exit's
// cursor.
func (n *node) exitRT(c leaparray.Cursor, rtMs, acquire int64, failed bool) {
	if rtMs > 0 {
		c.Add(evRT, rtMs*acquire)
	}
	if failed {
		c.Add(evError, acquire)
	}
}
