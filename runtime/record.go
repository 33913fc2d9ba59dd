package runtime

import (
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// The statistics layer's writes. Entry pins the goroutine to its processor
// from its first check and ends with recordBlock (blockedCommon for the
// common call), or with the pass's records at the end of Resource.enter or
// enterAny, which unpin; Exit, the recording of a call's end, pins for its
// writes. Writes to the processor's own stripes then need no locked
// instruction (see package stripe). Pinned code must not block, take locks
// or run user code: these functions only write counters and read breaker
// state, and a breaker's state change, which calls listeners, runs after
// the Unpin. Passes and blocks also count towards the next audit of the
// default clock (clock_audit.go), which runs after the Unpin too.

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

// exitAny records the end of any call that is not Exit's common one (see
// exit_common.go): Exit has timed it and ended its ticket, and is pinned to
// p; exitAny unpins.
func (e *Entry) exitAny(p stripe.P, id, nowMs, rtMs int64) {
	acquire, stats := int64(e.acquire), e.res.stats
	stats.exit(p, id, rtMs, acquire, e.failed)
	if e.via != nil {
		e.via.exit(p, id, rtMs, acquire, e.failed)
	}
	// Breakers record and decide here (reads only); a state change, which
	// calls listeners, waits until after Unpin.
	var changes uint64
	for i, b := range e.rules.degrade {
		var c leaparray.Cursor
		if sh := b.secondShift; sh >= 0 {
			c = b.window.AtID(id>>sh, p) // stats.second is a NewSecond window
		} else {
			c = b.window.AtPinned(nowMs, p)
		}
		if b.recordAndJudge(c, b.isBad(rtMs, e.failed), e.probes&(1<<i) != 0) {
			changes |= 1 << i
		}
	}
	stripe.Unpin()
	if e.guard != 0 {
		e.exitRare(id, nowMs, rtMs, acquire)
	}
	for i := 0; changes != 0; i++ {
		if changes&(1<<i) != 0 {
			e.rules.degrade[i].change(nowMs, rtMs, e.failed)
			changes &^= 1 << i
		}
	}
}

// exitRare records the end of a call that went through guard (see
// Resource.enterAny) or holds a concurrency reservation: in its origin's
// node, in the inbound aggregate, to its hot-parameter checks, and gives
// back its places in flight. The caller is unpinned.
func (e *Entry) exitRare(id, nowMs, rtMs, acquire int64) {
	if e.from != nil {
		e.from.exit(stripe.Pin(), id, rtMs, acquire, e.failed)
		stripe.Unpin()
	}
	if e.guard&guardInbound != 0 {
		inboundStats.exit(nowMs, rtMs, acquire)
	}
	if e.rules.param != nil {
		e.rules.param.exit(&e.params, acquire)
	}
	if e.guard&guardHeld != 0 {
		e.releaseHeld(e.res)
	}
}
