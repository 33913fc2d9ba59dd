package runtime

import (
	"sync"
	"sync/atomic"
)

// Whose calls a flow rule counts (FlowRule.LimitApp).
const (
	appAll   uint8 = iota // "" or "default": every caller
	appOne                // one origin, named by the rule
	appOther              // origins no flow rule of the resource names
)

// Sentinel's names for the two LimitApp values that name no origin.
const (
	limitAppDefault = "default"
	limitAppOther   = "other"
)

func appOf(limitApp string) uint8 {
	switch limitApp {
	case "", limitAppDefault:
		return appAll
	case limitAppOther:
		return appOther
	}
	return appOne
}

// maxOtherOrigins bounds the per-origin nodes a resource keeps for the
// origins its "other" rules count. Origins arriving beyond it share one
// node: they are then limited together, more strictly than one by one, but
// never unlimited, and a caller inventing origins cannot grow memory
// without end.
const maxOtherOrigins = 1024

// originNodes is the per-origin statistics of one resource's flow rules
// (Sentinel's origin nodes): one node per origin a rule names, made at load,
// and for "other" rules one node per other origin, made at its first call.
// Only resources with such rules have them, and only their calls are
// counted there.
type originNodes struct {
	named  map[string]*node // immutable once published
	others *otherOrigins    // nil without "other" rules
	warm   bool             // a warm-up rule reads these nodes
}

// otherOrigins is the nodes of the origins no rule names. It outlives rule
// sets: a reload that keeps an "other" rule keeps the origins' statistics.
type otherOrigins struct {
	nodes    sync.Map // origin -> *node
	count    atomic.Int32
	overflow *node
	warm     atomic.Bool
}

// buildOriginNodes makes the origin nodes for the flow rules at idx, keeping
// the nodes of old for origins that are still named. nil when every rule
// counts every caller.
func buildOriginNodes(old *originNodes, flow []FlowRule, idx []int) *originNodes {
	var o *originNodes
	for _, i := range idx {
		r := &flow[i]
		app := appOf(r.LimitApp)
		if app == appAll {
			continue
		}
		if o == nil {
			o = &originNodes{named: map[string]*node{}}
		}
		if app == appOne && o.named[r.LimitApp] == nil {
			n := (*node)(nil)
			if old != nil {
				n = old.named[r.LimitApp]
			}
			if n == nil {
				n = newNode()
			}
			o.named[r.LimitApp] = n
		}
		if app == appOther && o.others == nil {
			if old != nil && old.others != nil {
				o.others = old.others
			} else {
				o.others = &otherOrigins{overflow: newNode()}
			}
		}
		warm := r.ControlBehavior == BehaviorWarmUp || r.ControlBehavior == BehaviorWarmUpRateLimiter
		o.warm = o.warm || warm && r.Strategy == StrategyDirect
	}
	if o != nil && o.warm {
		for _, n := range o.named {
			n.enablePerSecond()
		}
		if x := o.others; x != nil {
			x.warm.Store(true)
			x.overflow.enablePerSecond()
			x.nodes.Range(func(_, v any) bool { v.(*node).enablePerSecond(); return true })
		}
	}
	return o
}

// of returns the node of a call from origin (not empty) and whether the
// origin is one no flow rule of the resource names ("other"). The node is
// nil for such an origin when the resource has no "other" rule: nothing
// reads its statistics.
func (o *originNodes) of(origin string) (n *node, other bool) {
	if n := o.named[origin]; n != nil {
		return n, false
	}
	if o.others == nil {
		return nil, true
	}
	return o.others.of(origin), true
}

// of returns origin's node, making it at the origin's first call. Racing
// first calls of new origins may pass the bound by as many nodes as there
// are racing goroutines.
func (x *otherOrigins) of(origin string) *node {
	if v, ok := x.nodes.Load(origin); ok {
		return v.(*node)
	}
	if x.count.Load() >= maxOtherOrigins {
		return x.overflow
	}
	n := newNode()
	if x.warm.Load() {
		n.enablePerSecond()
	}
	v, loaded := x.nodes.LoadOrStore(origin, n)
	if !loaded {
		x.count.Add(1)
	}
	return v.(*node)
}
