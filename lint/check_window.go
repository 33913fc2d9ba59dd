package lint

import (
	"strconv"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Window limits, as runtime/validate.go's bucketsFor applies them to flow
// rules: buckets at most flowBucketMs wide, but no more than 60 buckets'
// worth of splitting for long intervals.
const (
	flowBucketMs       = 250
	maxWindowBuckets   = 600
	longIntervalSplits = 60
)

// flowBucketWidthMs is the width of the buckets the runtime gives a flow
// rule's window of intervalMs (mirroring runtime's bucketsFor: the fewest
// buckets no wider than 250 ms, or intervalMs/60 for long intervals,
// rounded up to a divisor of intervalMs). It returns 0 for an interval the
// runtime rejects.
func flowBucketWidthMs(intervalMs int) int {
	if intervalMs < 2 {
		return intervalMs
	}
	width := max(flowBucketMs, intervalMs/longIntervalSplits)
	for n := max(2, (intervalMs+width-1)/width); n <= min(intervalMs, maxWindowBuckets); n++ {
		if intervalMs%n == 0 {
			return intervalMs / n
		}
	}
	return 0
}

// checkCoarseWindow reports QPS rules whose window does not measure what a
// per-second count means. Rate limiters pace calls instead of counting them
// in a window, and are left alone.
func checkCoarseWindow(p *pass) {
	for i, r := range p.set.Flow {
		if r.Grade != runtime.FlowGradeQPS || r.ControlBehavior == runtime.BehaviorRateLimiter || r.ControlBehavior == runtime.BehaviorWarmUpRateLimiter {
			continue
		}
		interval := r.StatIntervalMs
		if interval == 0 || interval == runtime.DefaultStatIntervalMs {
			continue
		}
		width := flowBucketWidthMs(interval)
		if width == 0 {
			continue // invalid: the reader reports it
		}
		coarse := ""
		if width > flowBucketMs {
			coarse = " in buckets of " + strconv.Itoa(width) + " ms (wider than 250 ms)"
		}
		p.report(p.flowAt(i), "",
			"%s counts over %d ms%s while count %s reads as calls per second: a window other than 1 s averages bursts away (a 1000 QPS limit over a 10 s window let through about 600 QPS of a load test); keep statIntervalMs at 1000 for per-second limits",
			flowRuleName(r), interval, coarse, formatCount(r.Count))
	}
}
