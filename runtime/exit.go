package runtime

import (
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"github.com/sentinelgen/sentinelgen/runtime/internal/ticket"
	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// exitTickets makes the first Exit of an Entry or any copy of it the only
// one that counts (see package ticket). Entry takes a ticket from it unless
// entered in place; Exit ends it.
var exitTickets = ticket.New()

// Ending a call: the direct path and the general one, for the reason
// Entry has both (see enter.go). Exit times every call's end and ends its
// exit ticket; then a call that did not go through guard, came through no
// tracked entrance and has at most one circuit breaker, whose bucket is a
// power-of-two multiple of the second-level window's (Sentinel's default
// statIntervalMs is), is recorded by Exit too, with few variables, and any
// other by exitGeneral. Both record the same
// (TestDirectPathMatchesGeneralPath).

// Exit ends the call: it records the response time (at the Clock's
// precision, milliseconds with the default clock), success and error counts,
// and lets circuit breakers judge the outcome. Call it once per admitted
// call, usually deferred right after Entry returned no *BlockError. Later
// calls, on this Entry or on a copy, do nothing (but a copy of an Entry
// entered in place ends its call again; see InPlace).
func (e *Entry) Exit() {
	if e.res == nil || e.exited {
		return
	}
	e.exited = true
	nowNs, ok := nowCached()
	if !ok {
		nowNs = nowNanos()
	}
	nowMs := nowNs / 1e6
	// A reading just after the default clock wakes can be a fraction of a
	// millisecond ahead of the cached readings that follow it.
	rtMs, id := int64(0), e.secondID
	if nowNs != e.startNs {
		rtMs = max(nowMs-e.startNs/1e6, 0)
		id = e.res.stats.second.ID(nowMs)
	}
	p := stripe.Pin()
	ended := true // by this Exit: false when a copy of e ended the call
	if t := e.ticket; t == 0 {
		// No ticket: entered in place (see Entry.InPlace), or every slot
		// was held; e.exited alone guards the call.
	} else if s := exitTickets.OwnSlot(t, p); s != nil {
		ended = exitTickets.EndOwn(s, t)
	} else {
		ended = exitTickets.EndElsewhere(t)
	}
	if !ended {
		stripe.Unpin() // a copy of e has ended the call
		return
	}
	degrade := e.rules.degrade
	if e.guard != 0 || e.via != nil || len(degrade) > 1 || len(degrade) == 1 && degrade[0].secondShift < 0 {
		e.exitGeneral(p, id, nowMs, rtMs)
		return
	}
	stats, acquire := e.res.stats, int64(e.acquire)
	// stats.exit, written here (a call of its own costs more than its
	// body's common case).
	stats.inFlight.AddPinned(-1, p)
	c := stats.second.AtID(id, p)
	if !c.TryAdd(evSuccess, acquire) {
		c.Add(evSuccess, acquire)
	}
	if rtMs > 0 || e.failed {
		stats.exitRT(c, rtMs, acquire, e.failed)
	}
	if len(degrade) == 0 {
		stripe.Unpin()
		return
	}
	b := degrade[0]
	bc := b.window.AtID(id>>b.secondShift, p)
	change := false
	if bad := b.isBad(rtMs, e.failed); bad || !b.recordSettled(bc) {
		change = b.recordAndJudge(bc, bad, e.probes&1 != 0)
	}
	stripe.Unpin()
	if change {
		b.change(nowMs, rtMs, e.failed)
	}
}

// exitGeneral records the end of any call that Exit does not record itself
// (see Exit): Exit has timed it and ended its ticket, and is pinned to p;
// exitGeneral unpins.
func (e *Entry) exitGeneral(p stripe.P, id, nowMs, rtMs int64) {
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
		e.exitGuarded(id, nowMs, rtMs, acquire)
	}
	for i := 0; changes != 0; i++ {
		if changes&(1<<i) != 0 {
			e.rules.degrade[i].change(nowMs, rtMs, e.failed)
			changes &^= 1 << i
		}
	}
}

// exitGuarded records the end of a call that went through guard (see
// Resource.enterGeneral) or holds a concurrency reservation: in its origin's
// node, in the inbound aggregate, to its hot-parameter checks, and gives
// back its places in flight. The caller is unpinned.
func (e *Entry) exitGuarded(id, nowMs, rtMs, acquire int64) {
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
