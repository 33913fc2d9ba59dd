package runtime

import "github.com/sentinelgen/sentinelgen/runtime/internal/stripe"

// The statistics layer's writes. Entry pins the goroutine to its processor
// from its first check and ends with recordBlock (blockedDirect on the
// direct path), or with the pass's records at the end of Resource.enter or
// enterGeneral, which unpin; Exit, the recording of a call's end, pins for
// its writes. Writes to the processor's own stripes then need no locked
// instruction (see package stripe). Pinned code must not block, take locks
// or run user code: these functions only write counters and read breaker
// state, and a breaker's state change, which calls listeners, runs after
// the Unpin. Passes and blocks also count towards the next audit of the
// default clock (clockAudits, see package coarseclock), which runs after
// the Unpin too.

// recordBlock counts a blocked call in the second-level window id, unpins
// (the caller is pinned to p) and returns blocked.
func (r *Resource) recordBlock(p stripe.P, via *node, id, acquire int64, blocked *BlockError) *BlockError {
	if c := r.stats.second.AtID(id, p); !c.TryAdd(evBlock, acquire) {
		c.Add(evBlock, acquire)
	}
	if via != nil {
		via.second.AtID(id, p).Add(evBlock, acquire)
	}
	audit := clockAudits.Due(p)
	counted := blocked.countPinned(p, uint32(acquire))
	stripe.Unpin()
	if !counted {
		blocked.countShared(uint32(acquire))
	}
	if audit {
		blocked.checkTally(r.stats.second)
		auditClock()
	}
	return blocked
}
