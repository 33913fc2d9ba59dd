package runtime

import (
	"context"

	"github.com/sentinelgen/sentinelgen/runtime/internal/stripe"
)

// EntryArgsTo is EntryTo for a call whose arguments hot-parameter rules may
// check: args[i] is the key of the i-th parameter after a leading
// context.Context (see ParamFlowRule.ParamIdx). Callers build args only when
// HasParamRules reports true; with no param rule the call is EntryTo's.
func (r *Resource) EntryArgsTo(e *Entry, ctx context.Context, args []ParamArg, opts ...EntryOption) *BlockError {
	return r.enter(e, ctx, &args, opts)
}

// HasParamRules reports whether a hot-parameter rule names the resource, so
// that callers build argument keys only when a rule will read them. It
// inlines: one atomic load and two compares.
func (r *Resource) HasParamRules() bool {
	rs := r.rules.Load()
	return rs != nil && rs.param != nil
}

// guard runs the checks before the flow rules (see checkGuard) and, when
// one of them refuses the call, records the block and clears e.
func (r *Resource) guard(e *Entry, rs *ruleSet, ctx context.Context, args *[]ParamArg, via *node, nowNs, acquire int64) (int64, *BlockError) {
	nowNs, blocked := r.checkGuard(e, rs, ctx, args, nowNs, acquire)
	if blocked != nil {
		id := r.stats.second.ID(nowNs / 1e6)
		e.params = paramHeld{} // nothing held: the param checks refused or did not run
		return nowNs, r.dropGuarded(e, rs, id, acquire, r.recordBlock(stripe.Pin(), via, id, acquire, blocked))
	}
	return nowNs, nil
}

// checkGuard runs the checks Sentinel's slot chain runs before the flow rules, in
// its order: authority (AuthoritySlot), system protection (SystemSlot, for
// inbound resources), hot parameters (ParamFlowSlot). It marks e as guarded
// and records in it the call's origin node for per-origin flow rules (see
// originNodes.of) and whether the inbound aggregate counts the call; it
// returns the time after the checks (a param rate limiter may sleep), or the
// block error of the first check that refuses the call. The origin is read
// from ctx only when a rule of the resource needs it.
func (r *Resource) checkGuard(e *Entry, rs *ruleSet, ctx context.Context, args *[]ParamArg, nowNs, acquire int64) (_ int64, blocked *BlockError) {
	e.from, e.guard = nil, guardedCall
	if x := rs.extras; x != nil && (len(x.authority) != 0 || x.origins != nil) {
		if origin := OriginFrom(ctx); origin != "" { // a call without an origin passes, as in Sentinel
			for _, a := range x.authority {
				if blocked := a.check(origin); blocked != nil {
					return nowNs, blocked
				}
			}
			if x.origins != nil {
				var other bool
				if e.from, other = x.origins.of(origin); other {
					e.guard |= guardOther
				}
			}
		}
	}
	if sg := systemGuard.Load(); sg != nil && r.TrafficType() == TrafficInbound {
		if blocked := sg.check(r, nowNs/1e6, acquire); blocked != nil {
			return nowNs, blocked
		}
		e.guard |= guardInbound
	}
	if rs.param != nil {
		e.params = paramHeld{}
		var a []ParamArg
		if args != nil {
			a = *args
		}
		if blocked := rs.param.enter(&e.params, a, nowNs, acquire); blocked != nil {
			return nowNs, blocked
		}
		if rs.param.sleeps() { // only a queueing rate limiter sleeps: the rest keep nowNs
			nowNs = nowNanos()
		}
	}
	return nowNs, nil
}
