package runtime

import (
	"sync"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// AcquireOverMaxRule is the rule text (BlockError.Rule) of a call refused
// because its AcquireCount is over MaxAcquireCount: the window counters
// cannot count it exactly, and counting it as less would admit calls a
// limit should refuse.
const AcquireOverMaxRule = "AcquireCount over runtime.MaxAcquireCount (1048576)"

// overAcquireErrs holds each resource's error for calls over the cap, made
// on the resource's first such call (*Resource to *BlockError).
var overAcquireErrs sync.Map

// refuseOverAcquire refuses a call whose AcquireCount is over
// MaxAcquireCount: it clears *e, counts one blocked call in the resource's
// window, and returns the resource's error for it.
func (r *Resource) refuseOverAcquire(e *Entry) *BlockError {
	var blocked *BlockError
	if v, ok := overAcquireErrs.Load(r); ok {
		blocked = v.(*BlockError)
	} else {
		v, _ := overAcquireErrs.LoadOrStore(r, newBlockError(BlockTypeFlow, r.name, AcquireOverMaxRule))
		blocked = v.(*BlockError)
	}
	e.clear()
	nowNs, ok := nowCached()
	if !ok {
		nowNs = nowNanos()
	}
	id := r.stats.second.ID(nowNs / 1e6)
	return r.recordBlock(stripe.Pin(), nil, id, 1, blocked)
}
