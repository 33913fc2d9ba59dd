package gateway

import (
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Constant arguments, Sentinel's: every request of a rule without a
// parameter item shares the key "$D" (one budget for the resource), and a
// value that a rule's pattern does not match becomes "$NM", which the rule
// lets through (an item with a budget no gateway reaches).
const (
	defaultKey    = "$D"
	notMatchedKey = "$NM"
	// unlimited is the budget of "$NM", Sentinel's 10 000 000.
	unlimited = 10_000_000
)

// ToParamFlowRules converts gateway rules to the runtime's hot-parameter
// rules the way Sentinel's GatewayRuleConverter does: count, grade,
// burst, behavior and queueing time carry over, intervalSec becomes
// DurationInSec, and a rule with a pattern gets an item making "$NM"
// unlimited. Unlike Sentinel, which shares one argument among all the
// rules of a resource without a parameter item, each rule reads its own
// argument: ParamIdx is the rule's position among the rules of its
// resource, in the order given.
func ToParamFlowRules(rules []FlowRule) []runtime.ParamFlowRule {
	out := make([]runtime.ParamFlowRule, 0, len(rules))
	next := map[string]int{}
	for _, r := range rules {
		r = Normalize(r)
		idx := next[r.Resource]
		next[r.Resource]++
		p := runtime.ParamFlowRule{
			Resource:          r.Resource,
			Grade:             r.Grade,
			ParamIdx:          idx,
			Count:             r.Count,
			ControlBehavior:   r.ControlBehavior,
			MaxQueueingTimeMs: r.MaxQueueingTimeoutMs,
			BurstCount:        r.Burst,
			DurationInSec:     r.IntervalSec,
		}
		if r.ParamItem != nil && r.ParamItem.Pattern != "" {
			p.Items = []runtime.ParamFlowItem{{Object: notMatchedKey, ClassType: "String", Count: unlimited}}
		}
		out = append(out, p)
	}
	return out
}
