package runtime

import (
	goruntime "runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/hotkeys"
)

// This file is the seam between the rule framework (rules.go, ruleset.go,
// resource.go, record.go) and hot-parameter flow control: buildParamChecks
// at load, enter and exit per call. The per-value algorithms are in
// param_value.go.

// paramChecks is one resource's hot-parameter checks, built at load and
// immutable after.
type paramChecks struct {
	rules []*paramRule
	// waits is true when a rule may make a call sleep (a rate limiter
	// with MaxQueueingTimeMs > 0): callers read the clock again after enter.
	waits bool
}

// paramHeld is what an admitted call holds of its param checks: the values
// whose calls in flight it counts (concurrency grade). It lives in the
// Entry and is released at Exit. A call with one such value allocates
// nothing; more (a slice argument, several rules) go to more. It is two
// pointers, so Entry stays small and comparable.
type paramHeld struct {
	one  *hotkeys.Node[paramValue]
	more *[]*hotkeys.Node[paramValue]
}

func (h *paramHeld) add(n *hotkeys.Node[paramValue]) {
	switch {
	case h.one == nil:
		h.one = n
	case h.more == nil:
		h.more = &[]*hotkeys.Node[paramValue]{n}
	default:
		*h.more = append(*h.more, n)
	}
}

// buildParamChecks makes res's checks for rules[idx...], reusing the state of
// old's checks whose rule is unchanged (their per-value tables: a reload that
// keeps a rule keeps its budgets). nil when idx is empty. The rules must
// have passed ValidateParamFlowRules.
func buildParamChecks(res *Resource, old *paramChecks, rules []ParamFlowRule, idx []int) *paramChecks {
	if len(idx) == 0 {
		return nil
	}
	var pool []*paramRule
	if old != nil {
		pool = slices.Clone(old.rules)
	}
	pc := &paramChecks{rules: make([]*paramRule, 0, len(idx))}
	for _, i := range idx {
		r := rules[i].normalized()
		pr := takeParamRule(&pool, r, i)
		pc.rules = append(pc.rules, pr)
		pc.waits = pc.waits || pr.mode == paramThrottle && r.MaxQueueingTimeMs > 0
	}
	return pc
}

// sleeps reports whether enter may sleep through the Clock, in which case
// the time read before enter is stale after it.
func (pc *paramChecks) sleeps() bool { return pc != nil && pc.waits }

// enter checks args against every param rule, in load order, and each
// element of a slice argument in turn; it returns the block error of the
// first value refused, or nil having recorded the call in *held. On a block
// it releases what it had recorded, so the caller has nothing to release;
// tokens taken for values before the refused one stay spent, as in
// Sentinel. A caller that blocks the call after enter admitted it (a flow
// rule or breaker later in the chain) must call exit. It may sleep (rate
// limiter) through the Clock.
func (pc *paramChecks) enter(held *paramHeld, args []ParamArg, nowNs, acquire int64) *BlockError {
	if pc == nil {
		return nil
	}
	nowMs := nowNs / 1e6
	for _, r := range pc.rules {
		a := r.arg(args)
		if a == nil {
			continue
		}
		if r.rule.ClusterMode && a.keys() > 0 {
			switch askParamCluster(&r.rule, acquire, a) {
			case TokenOK:
				continue
			case TokenBlocked:
				// The server does not say which value it refused: the
				// error names the first.
				pc.exit(held, acquire)
				atomic.AddUint32(&r.blocked.blocked, uint32(acquire))
				return r.blockFor(r.value(a.key(0)))
			}
			// Any other answer: the rule's local check, below.
		}
		for i, n := 0, a.keys(); i < n; i++ {
			v := r.value(a.key(i))
			var ok bool
			switch r.mode {
			case paramReject:
				ok = r.passTokens(&v.Val, nowMs, acquire)
			case paramThrottle:
				ok, nowMs = r.passThrottle(&v.Val, nowMs, acquire)
			default:
				if ok = v.Val.admitInFlight(); ok {
					held.add(v)
				}
			}
			if !ok {
				pc.exit(held, acquire)
				// The rule's own error counts its blocks over all values
				// (BlockErrors lists it); the caller's recordBlock counts
				// the value's.
				atomic.AddUint32(&r.blocked.blocked, uint32(acquire))
				return r.blockFor(v)
			}
		}
	}
	return nil
}

// exit releases what enter recorded in held and empties it. Concurrency is
// counted in calls, whatever their acquire count (Sentinel's thread count
// per value), so acquire is not used.
func (pc *paramChecks) exit(held *paramHeld, acquire int64) {
	if held.one != nil {
		held.one.Val.count.Add(-1)
	}
	if held.more != nil {
		for _, n := range *held.more {
			n.Val.count.Add(-1)
		}
	}
	*held = paramHeld{}
}

// paramMode is the algorithm of a rule, fixed at load.
type paramMode uint8

const (
	paramReject      paramMode = iota // QPS grade, token bucket
	paramThrottle                     // QPS grade, rate limiter
	paramConcurrency                  // calls in flight per value
)

// paramRule enforces one param-flow rule.
type paramRule struct {
	rule ParamFlowRule // normalized
	// blocked is the rule's error: never returned to a caller, it counts
	// the rule's blocks for BlockErrors; per-value errors copy its text.
	blocked *BlockError
	table   *hotkeys.Table[paramValue]
	// items maps the values of Items to their thresholds; read when a value
	// enters the table, never per call.
	items      map[hotkeys.Key]int64
	count      int64 // Count truncated, as Sentinel's (long) cast
	burst      int64
	durationMs int64
	maxQueueMs int64
	mode       paramMode
}

// Per-value table bounds: Sentinel's ParameterMetric keeps per rule at most
// min(4000·durationInSec, 200 000) values of a QPS rule, and 4000 per
// parameter index for thread counts.
const (
	paramValuesPerSecond = 4000
	maxParamValues       = 200_000
	maxParamThreadValues = 4000
)

// paramCapacity is how many values rule r tracks.
func paramCapacity(r ParamFlowRule) int {
	if r.Grade == FlowGradeConcurrency {
		return maxParamThreadValues
	}
	return int(min(satMul(paramValuesPerSecond, int64(r.DurationInSec)), maxParamValues))
}

func newParamRule(r ParamFlowRule, index int) *paramRule {
	pr := &paramRule{
		rule:       r,
		blocked:    newBlockError(BlockTypeParamFlow, r.Resource, r.describe(index)),
		count:      countLimit(r.Count),
		burst:      int64(r.BurstCount),
		durationMs: satMul(int64(r.DurationInSec), 1000),
		maxQueueMs: int64(r.MaxQueueingTimeMs),
	}
	var keep func(*paramValue) bool
	switch {
	case r.Grade == FlowGradeConcurrency:
		pr.mode = paramConcurrency
		// A value with calls in flight stays: evicting it would forget
		// them and let its limit be exceeded.
		keep = func(v *paramValue) bool { return v.count.Load() > 0 }
	case r.ControlBehavior == BehaviorRateLimiter:
		pr.mode = paramThrottle
	}
	if len(r.Items) != 0 {
		pr.items = make(map[hotkeys.Key]int64, len(r.Items))
		for _, it := range r.Items {
			k, _, _ := parseItem(it) // validated
			pr.items[k] = int64(it.Count)
		}
	}
	pr.table = hotkeys.New[paramValue](paramCapacity(r), keep)
	return pr
}

// takeParamRule returns a check of pool with rule r (removing it from
// pool), sharing its per-value table, or a new one. The reused check keeps
// its block error, and so its count and its values' errors, when the rule
// stays at its index; moved, it gets an error naming its new index, counted
// from zero as a flow rule's.
func takeParamRule(pool *[]*paramRule, r ParamFlowRule, index int) *paramRule {
	for k, pr := range *pool {
		if sameParamRule(pr.rule, r) { // rules.go
			*pool = slices.Delete(*pool, k, k+1)
			c := *pr
			if text := r.describe(index); text != pr.blocked.Rule() {
				c.blocked = newBlockError(BlockTypeParamFlow, r.Resource, text)
			}
			return &c
		}
	}
	return newParamRule(r, index)
}

// arg is the argument the rule reads, or nil when the call has none at its
// index. A negative index counts from the end, resolved per call (Sentinel
// writes the first call's resolution back into the rule).
func (r *paramRule) arg(args []ParamArg) *ParamArg {
	i := r.rule.ParamIdx
	if i < 0 {
		i += len(args)
	}
	if i < 0 || i >= len(args) {
		return nil
	}
	return &args[i]
}

// value returns k's node, adding it, fresh, when the table does not hold
// it.
func (r *paramRule) value(k hotkeys.Key) *hotkeys.Node[paramValue] {
	h := r.table.Hash(k)
	if n := r.table.Get(k, h); n != nil {
		return n
	}
	n := hotkeys.NewNode[paramValue](k)
	limit := r.count
	if c, ok := r.items[k]; ok {
		limit = c
	}
	n.Val.init(r.mode, limit)
	return r.table.Insert(n, h)
}

// valueBlock is the block error of one refused value, cached in its node so
// that blocking it again allocates nothing. base tells which rule (and rule
// index) it was made for: after a reload that moved the rule, it is remade.
type valueBlock struct {
	base *BlockError
	err  BlockError
}

// blockFor is the block error naming n's value.
func (r *paramRule) blockFor(n *hotkeys.Node[paramValue]) *BlockError {
	if vb := n.Val.blocked.Load(); vb != nil && vb.base == r.blocked {
		return &vb.err
	}
	text := n.Key.Text()
	// Field by field, not a copy of *r.blocked: its count is being added
	// to, and the value's error counts from zero.
	b := r.blocked
	vb := &valueBlock{base: b, err: BlockError{
		typ: b.typ, ruleAt: b.ruleAt, ruleEnd: b.ruleEnd,
		msg:    b.msg + " on value " + strconv.Quote(text),
		detail: text,
	}}
	n.Val.blocked.Store(vb)
	return &vb.err
}

// yield is what a CAS loop does after losing a race (Sentinel's
// Thread.yield), then it reads the time again.
func yield() int64 {
	goruntime.Gosched()
	return nowNanos() / 1e6
}

// sleepMs waits ms milliseconds through the Clock and returns the time after.
func sleepMs(ms int64) int64 {
	sleep(time.Duration(ms) * time.Millisecond)
	return nowNanos() / 1e6
}
