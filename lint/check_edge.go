package lint

import (
	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// checkQueueAtEdge reports queueing rules on resources that requests enter
// the service through. A rate limiter with no queueing time rejects instead
// of waiting and is left alone.
func checkQueueAtEdge(p *pass) {
	for i, r := range p.set.Flow {
		if r.ControlBehavior != runtime.BehaviorRateLimiter && r.ControlBehavior != runtime.BehaviorWarmUpRateLimiter || r.MaxQueueingTimeMs <= 0 {
			continue
		}
		res := p.declared[r.Resource]
		if res == nil {
			continue
		}
		var edge string
		switch {
		case res.EntryType == annotate.EntryIn:
			edge = "an inbound resource (entryType=in)"
		case res.ResourceType == annotate.ResourceGateway:
			edge = "a gateway resource (resourceType=gateway)"
		default:
			continue
		}
		p.report(p.flowAt(i), "",
			"%s queues calls up to %d ms on %s: each waiting request holds its goroutine and connection at the edge while traffic peaks; reject at the edge (controlBehavior 0) and queue further in, at the dependency",
			flowRuleName(r), r.MaxQueueingTimeMs, edge)
	}
}
