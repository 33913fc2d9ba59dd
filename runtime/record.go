package runtime

import "github.com/sentinelgen/sentinelgen/runtime/internal/stripe"

// The statistics layer's writes. Entry and Exit each record through one of
// these functions, which pin the goroutine to its processor for the
// duration (so counter writes to the processor's own stripes need no locked
// instruction, see package stripe) and unpin before returning. Pinned code
// must not block, take locks or run user code; these functions only write
// counters and read breaker state, and breaker state changes, which call
// listeners, happen after they return.

// recordBlock counts a blocked call in the second-level window id.
func (r *Resource) recordBlock(via *node, id, acquire int64) {
	p := stripe.Pin()
	r.stats.second.AtID(id, p).Add(evBlock, acquire)
	if via != nil {
		via.second.AtID(id, p).Add(evBlock, acquire)
	}
	stripe.Unpin()
}

// recordPass counts an admitted call and takes its exit ticket (see
// tickets.go).
func (r *Resource) recordPass(rs *ruleSet, via *node, id, nowMs, acquire int64, counted bool) ticket {
	p := stripe.Pin()
	r.stats.enter(p, id, nowMs, acquire, counted)
	if via != nil {
		via.enter(p, id, nowMs, acquire, counted)
	}
	for _, w := range rs.ownWindows {
		w.AtPinned(nowMs, p).Add(0, acquire)
	}
	t := exitTickets.take(p)
	stripe.Unpin()
	return t
}

// recordExit counts the end of the call e in window id at nowMs, and
// records its outcome in each breaker of the rule set that admitted it. It
// returns a bit per breaker whose state the outcome may change (see
// breaker.recordAndJudge), and ok false when e's ticket was already used:
// the call ended before, through a copy of e.
func (e *Entry) recordExit(id, nowMs, rtMs int64) (changes uint64, ok bool) {
	if !e.ticket.use() {
		return 0, false
	}
	acquire, stats := int64(e.acquire), e.res.stats
	p := stripe.Pin()
	stats.exit(p, id, rtMs, acquire, e.failed)
	if e.via != nil {
		e.via.exit(p, id, rtMs, acquire, e.failed)
	}
	for i, b := range e.rules.degrade {
		c := b.window.AtID(id, p) // same bucket width: same window ID
		if b.window.WidthMs() != stats.second.WidthMs() {
			c = b.window.AtPinned(nowMs, p)
		}
		if b.recordAndJudge(c, b.isBad(rtMs, e.failed), e.probes&(1<<i) != 0) {
			changes |= 1 << i
		}
	}
	stripe.Unpin()
	return changes, true
}
