package runtime

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime/internal/coarseclock"
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"github.com/sentinelgen/sentinelgen/runtime/internal/ticket"
	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// Entering a call: the direct path and the general one.
//
// Most guarded calls have no options and a resource whose rules are at most
// one direct QPS rule (see flowCheck.direct) and circuit breakers that are
// all CLOSED, with no rule needing the checks before the flow rules
// (guard), or no rules at all. For that call Entry's work is short: read
// the clock, ask the window and count the pass in one step (leaparray's
// TakePinned), take an exit ticket unless the Entry is entered in place,
// and fill in the Entry. Done inside enterGeneral, which handles every
// call, that work would pay for the general function's frame: its many
// variables, saved on entry and around its calls. So enter decides first
// whether the call takes the direct path (ruleSet.directOnly) and, if so,
// does that work itself, with few variables; any other call goes on to
// enterGeneral. Both record the same statistics and fill the same Entry
// (TestDirectPathMatchesGeneralPath).

// enter is EntryTo and EntryArgsTo. They inline, so callers call enter
// directly.
func (r *Resource) enter(e *Entry, ctx context.Context, args *[]ParamArg, opts []EntryOption) *BlockError {
	rs := r.rules.Load()
	if rs == nil {
		rs = &noRules
	}
	if len(opts) != 0 || !rs.directOnly() || systemGuard.Load() != nil && r.TrafficType() == TrafficInbound {
		return r.enterGeneral(e, ctx, args, opts)
	}
	nowNs, ok := nowCached()
	if !ok {
		nowNs = nowNanos()
	}
	w := r.stats.second
	id := w.ID(nowNs / 1e6)
	p := stripe.Pin()
	if len(rs.flow) == 0 {
		if c := w.AtID(id, p); !c.TryAdd(evPass, 1) {
			c.Add(evPass, 1)
		}
	} else if f := rs.flow[0]; !w.TakePinned(id, 1, f.limit, p) {
		return e.blockedDirect(w, p, id, f.blocked)
	}
	// An Entry entered in place takes no exit ticket (see Entry.InPlace);
	// the audit of the clock is then timed by the processor's recordings.
	var t ticket.ID
	var audit bool
	if e.inPlace {
		audit = clockAudits.Due(p)
	} else {
		var seq uint64
		t, seq = exitTickets.Take(p)
		audit = coarseclock.DueAt(seq)
	}
	// Field by field, as in enterGeneral (from and params mean nothing with
	// guard 0), and before the rest of the records: a caller of Entry,
	// which returns the value, copies it at once in 16-byte loads, and
	// those would stall on 8-byte stores still waiting to be written were
	// the stores last.
	e.res, e.rules, e.via = r, rs, nil
	e.startNs, e.secondID, e.probes, e.ticket = nowNs, id, 0, t
	e.acquire, e.failed, e.exited, e.guard, e.inPlace = 1, false, false, 0, false
	r.stats.inFlight.AddPinned(1, p)
	if r.stats.perSecond.Load() != nil {
		r.stats.enterPerSecond(p, nowNs/1e6, 1)
	}
	stripe.Unpin()
	if audit {
		auditClock()
	}
	return nil
}

// directOnly reports whether a call under rs takes enter's direct path:
// nothing for guard to check, no flow rule or one direct one, every breaker
// CLOSED.
func (rs *ruleSet) directOnly() bool {
	return rs.extras == nil && (len(rs.flow) == 0 || len(rs.flow) == 1 && rs.flow[0].direct) && rs.breakersClosed()
}

// blockedDirect is recordBlock for a call on the direct path blocked by its
// flow rule, with what that call knows: a fresh Entry to clear, no
// entrance, one call's worth to count.
func (e *Entry) blockedDirect(w *leaparray.Window, p stripe.P, id int64, blocked *BlockError) *BlockError {
	e.clear()
	if c := w.AtID(id, p); !c.TryAdd(evBlock, 1) {
		c.Add(evBlock, 1)
	}
	audit := clockAudits.Due(p)
	counted := blocked.countPinned(p, 1)
	stripe.Unpin()
	if !counted {
		blocked.countShared(1)
	}
	if audit {
		blocked.checkTally(w)
		auditClock()
	}
	return blocked
}

// enterGeneral is enter for every call that does not take the direct path
// (see enter): options, several flow rules or others than one direct QPS
// rule, breakers not all CLOSED, or checks before the flow rules (guard).
func (r *Resource) enterGeneral(e *Entry, ctx context.Context, args *[]ParamArg, opts []EntryOption) *BlockError {
	acquire, prioritized := int64(1), false
	if len(opts) != 0 {
		acquire, prioritized = applyEntryOptions(opts)
		if acquire > MaxAcquireCount {
			return r.refuseOverAcquire(e)
		}
	}
	rs := r.rules.Load()
	if rs == nil {
		rs = &noRules
	}
	var via *node
	x := rs.extras
	if x != nil && x.chained != nil {
		via = x.chained[EntranceFrom(ctx)]
	}
	nowNs, ok := nowCached()
	if !ok {
		nowNs = nowNanos()
	}
	// The checks before the flow rules cost two branches when no rule
	// needs them. What they find out (the origin's node, whether the
	// inbound aggregate counts the call) they write into *e, not into
	// variables of this function: a call without such rules then carries
	// nothing more through its checks (more variables would be spilled
	// around the loops below), and pays a store here, a branch at its end
	// and one in Exit.
	e.guard = 0
	if x != nil && x.guarded || systemGuard.Load() != nil && r.TrafficType() == TrafficInbound {
		var blocked *BlockError
		if nowNs, blocked = r.guard(e, rs, ctx, args, via, nowNs, acquire); blocked != nil {
			return blocked
		}
	}
	id := r.stats.second.ID(nowNs / 1e6)
	// Pinned from the first check to the last record (see record.go): a
	// direct QPS rule is decided from this processor's cached bound. Checks
	// that may sleep or call out, and breakers that are not all CLOSED, run
	// unpinned.
	p := stripe.Pin()
	counted := true
	for _, f := range rs.flow {
		if f.direct && !prioritized {
			if r.stats.second.FitsPinned(id, acquire, f.limit, p) {
				continue
			}
			if e.guard != 0 {
				return r.dropGuarded(e, rs, id, acquire, r.recordBlock(p, via, id, acquire, f.blocked))
			}
			e.clear()
			return r.recordBlock(p, via, id, acquire, f.blocked)
		}
		if f.app != appAll && !f.applies(e) {
			continue
		}
		if f.exact {
			// A concurrency rule reserves, pinned (atomics only), and a
			// refusal's drop gives back every place the call reserved.
			if f.reserve(r, e, via, acquire) {
				continue
			}
			return r.drop(e, rs, id, acquire, r.recordBlock(p, via, id, acquire, f.blocked))
		}
		stripe.Unpin()
		v := f.check(r, via, e.origin(), nowNs, id, acquire, prioritized)
		if v != verdictPass && v != verdictBlock {
			// The call slept: later checks and the statistics use the new time.
			counted = counted && v != verdictBorrowed
			nowNs = nowNanos()
			id = r.stats.second.ID(nowNs / 1e6)
		}
		p = stripe.Pin()
		if v == verdictBlock {
			return r.drop(e, rs, id, acquire, r.recordBlock(p, via, id, acquire, f.blocked))
		}
	}
	probes := uint64(0)
	if !rs.breakersClosed() {
		stripe.Unpin()
		var blocked *BlockError
		probes, blocked = rs.tryBreakers(nowNs / 1e6)
		p = stripe.Pin()
		if blocked != nil {
			return r.drop(e, rs, id, acquire, r.recordBlock(p, via, id, acquire, blocked))
		}
	}
	// Field by field: a composite literal through a pointer is built on
	// the stack and copied whole.
	e.res, e.rules, e.via = r, rs, via
	e.startNs, e.secondID, e.probes = nowNs, id, probes
	e.acquire, e.failed, e.exited = int32(acquire), false, false
	inPlace := e.inPlace
	e.inPlace = false
	// The pass's records (see record.go), written here rather than in a
	// function of their own, which would add a call and what it spills.
	// The exit ticket's sequence number, which counts this processor's
	// passes, also times the clock's audit.
	nowMs := nowNs / 1e6
	r.stats.enter(p, id, nowMs, acquire, counted)
	if via != nil {
		via.enter(p, id, nowMs, acquire, counted)
	}
	if rs.extras != nil {
		for _, w := range rs.extras.ownWindows {
			w.AtPinned(nowMs, p).Add(0, acquire)
		}
	}
	// As in enter: in place, no exit ticket.
	var t ticket.ID
	var audit bool
	if inPlace {
		audit = clockAudits.Due(p)
	} else {
		var seq uint64
		t, seq = exitTickets.Take(p)
		audit = coarseclock.DueAt(seq)
	}
	stripe.Unpin()
	e.ticket = t
	if audit {
		auditClock()
	}
	if e.guard != 0 {
		enterGuarded(e.from, e.guard&guardInbound != 0, id, nowMs, acquire, counted)
	}
	return nil
}

// enterGuarded records a call admitted after guard in the per-origin node
// and the inbound aggregate, when they count it (the call is unpinned).
func enterGuarded(from *node, sys bool, id, nowMs, acquire int64, counted bool) {
	if from != nil {
		from.enter(stripe.Pin(), id, nowMs, acquire, counted)
		stripe.Unpin()
	}
	if sys {
		inboundStats.enter(nowMs, acquire)
	}
}

// drop clears *e after a block by a flow rule or breaker (the call is
// unpinned) and returns blocked; for a call that went through guard, see
// dropGuarded.
func (r *Resource) drop(e *Entry, rs *ruleSet, id, acquire int64, blocked *BlockError) *BlockError {
	if e.guard != 0 {
		return r.dropGuarded(e, rs, id, acquire, blocked)
	}
	*e = Entry{}
	return blocked
}

// dropGuarded is drop for a call that went through guard: it counts the block
// in the origin's node and releases what the call's hot-parameter checks
// recorded in e.
func (r *Resource) dropGuarded(e *Entry, rs *ruleSet, id, acquire int64, blocked *BlockError) *BlockError {
	if from := e.from; from != nil {
		from.second.AtID(id, stripe.Pin()).Add(evBlock, acquire)
		stripe.Unpin()
	}
	if rs.param != nil {
		rs.param.exit(&e.params, acquire)
	}
	if e.guard&guardHeld != 0 {
		e.releaseHeld(r)
	}
	*e = Entry{}
	return blocked
}
