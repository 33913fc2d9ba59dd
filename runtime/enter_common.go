package runtime

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime/internal/coarseclock"
	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
	"github.com/sentinelgen/sentinelgen/runtime/internal/ticket"
	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// The common call, written apart from the rest.
//
// Most guarded calls have no options and a resource whose rules are at most
// one direct QPS rule (see flowCheck.direct) and circuit breakers that are
// all CLOSED, with no rule needing the checks before the flow rules
// (guard), or no rules at all. For that call Entry's work is short: read
// the clock, ask the window and count the pass in one step (leaparray's
// TakePinned), take an exit ticket unless the Entry is entered in place,
// and fill in the Entry. Inside enterAny, which handles every call, the same work paid
// for the general function's frame: its many variables, saved on entry and
// around its calls, cost about 4 ns of a 47 ns pass, measured in bench's
// rotating harness. So enter decides first whether the call is the common
// one and, if so, does that work itself, with few variables; any other call
// goes on to enterAny, one call more than before. Both record the same
// statistics and fill the same Entry (TestCommonPathMatchesGeneralPath).

// enter is EntryTo and EntryArgsTo. They inline, so callers call enter
// directly.
func (r *Resource) enter(e *Entry, ctx context.Context, args *[]ParamArg, opts []EntryOption) *BlockError {
	rs := r.rules.Load()
	if rs == nil {
		rs = &noRules
	}
	if len(opts) != 0 || !rs.common() || systemGuard.Load() != nil && r.TrafficType() == TrafficInbound {
		return r.enterAny(e, ctx, args, opts)
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
		return e.blockedCommon(w, p, id, f.blocked)
	}
	// An Entry entered in place takes no exit ticket (see Entry.InPlace);
	// the audit of the clock is then timed by the processor's recordings.
	var t ticket.T
	var audit bool
	if e.inPlace {
		audit = clockAudits.Due(p)
	} else {
		var seq uint64
		t, seq = exitTickets.Take(p)
		audit = coarseclock.DueAt(seq)
	}
	// Field by field, as in enterAny (from and params mean nothing with
	// guard 0), and before the rest of the records: a caller of Entry,
	// which returns the value, copies it at once in 16-byte loads, and
	// those stall on 8-byte stores still waiting to be written (about 2 ns
	// with the stores last, in bench's rotating harness).
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

// common reports whether rs is a common rule set, which enter handles
// itself: nothing for guard to check, no flow rule or one direct one, every
// breaker CLOSED.
func (rs *ruleSet) common() bool {
	return rs.x == nil && (len(rs.flow) == 0 || len(rs.flow) == 1 && rs.flow[0].direct) && rs.breakersClosed()
}

// blockedCommon is recordBlock for a common call blocked by its flow rule,
// with what that call knows: a fresh Entry to clear, no entrance, one
// call's worth to count.
func (e *Entry) blockedCommon(w *leaparray.Window, p stripe.P, id int64, blocked *BlockError) *BlockError {
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
