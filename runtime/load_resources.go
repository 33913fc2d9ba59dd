package runtime

import (
	"sync/atomic"

	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// loadResources returns the handles of the resources a load changes, in
// slot order (see ruleChanges), creating those that do not exist yet, and
// creates the resources flow's relate rules among them refer to. A first
// load of 100k rules creates 100k resources here, so it works in the
// registry's hash order (one sweep through its table, not a cache miss per
// name) and allocates the new resources in batches.
func loadResources(c *ruleChanges, flow []FlowRule) []*Resource {
	registry.Lock()
	defer registry.Unlock()
	t := &registry.byName
	out := make([]*Resource, len(c.names))
	missing := 0
	for _, k := range c.byHash {
		if out[k], _ = t.find(c.names[k], c.hash[k]); out[k] == nil {
			missing++
		}
	}
	if missing != 0 {
		t.reserve(missing)
		b := resourceBatch{left: missing}
		for _, k := range c.byHash {
			if out[k] == nil {
				out[k] = b.next(c.names[k])
				t.add(out[k], c.hash[k])
			}
		}
	}
	var idx []int
	for k := range c.names {
		idx = c.flow.positions(idx[:0], k)
		for _, p := range idx {
			if r := &flow[p]; r.Strategy == StrategyRelate {
				lookupOrCreateLocked(r.RefResource)
			}
		}
	}
	return out
}

// resourceBatch makes new resources in batches of up to batchResources:
// their handles, nodes, windows and gauges in one object per batch, and
// their counter words in one more, rather than two objects per resource.
// Resources are never freed, so a batch costs no memory that one object
// per resource would give back.
type resourceBatch struct {
	mem   []resourceMem
	words []atomic.Uint64
	left  int // resources still to make, batches included
}

// batchResources caps a batch (about 450 KB and 390 KB of objects).
const batchResources = 1024

// next returns a new resource named name; b.left must be positive.
func (b *resourceBatch) next(name string) *Resource {
	if len(b.mem) == 0 {
		n := min(b.left, batchResources)
		b.mem, b.words = make([]resourceMem, n), leaparray.AlignedWords(n*secondWords)
	}
	mem := &b.mem[0]
	mem.stats.initOn(b.words[:secondWords:secondWords])
	b.mem, b.words, b.left = b.mem[1:], b.words[secondWords:], b.left-1
	return mem.named(name)
}
