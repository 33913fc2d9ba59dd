package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/rules"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// limiterKey identifies one limiter: two flow rules with the same key
// measure the same traffic in the same way, so both are enforced on every
// call and only the stricter one can ever act.
type limiterKey struct {
	// limitApp is in the key: rules for different callers ("default",
	// "other", an origin) measure different traffic.
	resource, ref, limitApp string
	grade                   runtime.FlowGrade
	strategy                runtime.FlowStrategy
	behavior                runtime.ControlBehavior
	cluster                 bool
}

// repeat is a flow rule (later) that configures the same limiter as an
// earlier one (first).
type repeat struct {
	first, later int
	diffs        []string // differing fields as "count 500 instead of 1000"; none for an identical copy
}

// flowRepeats lists every flow rule that repeats the limiter of an earlier
// rule, each compared with the first rule of its limiter.
func flowRepeats(flow []runtime.FlowRule) []repeat {
	firstOf := map[limiterKey]int{}
	var out []repeat
	for i, r := range flow {
		k := limiterKey{r.Resource, r.RefResource, rules.NormalizeFlow(r).LimitApp, r.Grade, r.Strategy, r.ControlBehavior, r.ClusterMode}
		first, seen := firstOf[k]
		if !seen {
			firstOf[k] = i
			continue
		}
		out = append(out, repeat{first: first, later: i, diffs: flowDiffs(flow[first], r)})
	}
	return out
}

// flowDiffs names the settings in which b differs from a, compared as the
// runtime enforces them (rules.NormalizeFlow): a zero that stands for a
// default equals that default.
func flowDiffs(a, b runtime.FlowRule) []string {
	a, b = rules.NormalizeFlow(a), rules.NormalizeFlow(b)
	var d []string
	diff := func(field string, x, y any) {
		if x != y {
			d = append(d, fmt.Sprintf("%s %v instead of %v", field, y, x))
		}
	}
	diff("count", a.Count, b.Count)
	diff("warmUpPeriodSec", a.WarmUpPeriodSec, b.WarmUpPeriodSec)
	diff("coldFactor", a.ColdFactor, b.ColdFactor)
	diff("maxQueueingTimeMs", a.MaxQueueingTimeMs, b.MaxQueueingTimeMs)
	diff("statIntervalMs", a.StatIntervalMs, b.StatIntervalMs)
	if a.ClusterConfig != b.ClusterConfig {
		d = append(d, "clusterConfig")
	}
	return d
}

// checkConflictingRules reports a limiter configured twice differently.
func checkConflictingRules(p *pass) {
	for _, rp := range flowRepeats(p.set.Flow) {
		if len(rp.diffs) == 0 {
			continue
		}
		at := p.flowAt(rp.later)
		p.report(at, "",
			"%s configures the same limiter as the rule at %s, but with %s; both are enforced on every call, so the stricter setting wins whichever was meant: keep one rule",
			flowRuleName(p.set.Flow[rp.later]), where(p.flowAt(rp.first), at), strings.Join(rp.diffs, ", "))
	}
}

// checkDuplicateRules reports identical copies of a flow or degrade rule.
func checkDuplicateRules(p *pass) {
	for _, rp := range flowRepeats(p.set.Flow) {
		if len(rp.diffs) == 0 {
			at := p.flowAt(rp.later)
			p.report(at, "", "%s repeats the rule at %s exactly; delete one copy",
				flowRuleName(p.set.Flow[rp.later]), where(p.flowAt(rp.first), at))
		}
	}
	firstOf := map[runtime.DegradeRule]int{}
	for i, r := range p.set.Degrade {
		r = rules.NormalizeDegrade(r)
		if first, seen := firstOf[r]; seen {
			at := p.degradeAt(i)
			p.report(at, "", "degrade rule for %q repeats the rule at %s exactly; delete one copy",
				r.Resource, where(p.degradeAt(first), at))
			continue
		}
		firstOf[r] = i
	}
}

// flowRuleName describes a flow rule by what makes it a limiter, e.g.
// `QPS flow rule for "createOrder" via entrance "web"`.
func flowRuleName(r runtime.FlowRule) string {
	s := "concurrency"
	if r.Grade == runtime.FlowGradeQPS {
		s = "QPS"
	}
	switch r.ControlBehavior {
	case runtime.BehaviorWarmUp:
		s += " warm-up"
	case runtime.BehaviorRateLimiter:
		s += " rate-limiter"
	case runtime.BehaviorWarmUpRateLimiter:
		s += " warm-up rate-limiter"
	}
	if r.ClusterMode {
		s += " cluster"
	}
	s += " flow rule for " + strconv.Quote(r.Resource)
	switch r.Strategy {
	case runtime.StrategyRelate:
		s += " related to " + strconv.Quote(r.RefResource)
	case runtime.StrategyChain:
		s += " via entrance " + strconv.Quote(r.RefResource)
	}
	return s
}
