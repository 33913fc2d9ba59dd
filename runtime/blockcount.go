package runtime

import "sync/atomic"

// Blocked is the number of calls (times their acquire count) this rule has
// blocked since it was loaded. A reload that leaves the rule unchanged, at
// the same index, keeps its BlockError and so the count; otherwise the
// rule's new BlockError counts from zero, and readers that track errors by
// pointer (the block log, Prometheus) never count a block twice. It is one
// atomic add on the block path, read by metrics off the request path.
func (e *BlockError) Blocked() int64 { return atomic.LoadInt64(&e.blocked) }

// BlockErrors appends to buf the block errors of the rules in force for the
// resource, flow rules in check order then circuit breakers, and returns the
// extended slice: with Blocked, what blocked the resource's calls, rule by
// rule. Rule kinds the rule set does not hold (system protection, checked
// outside it) are not listed.
func (r *Resource) BlockErrors(buf []*BlockError) []*BlockError {
	rs := r.rules.Load()
	if rs == nil {
		return buf
	}
	for _, f := range rs.flow {
		buf = append(buf, f.blocked)
	}
	for _, b := range rs.degrade {
		buf = append(buf, b.blocked)
	}
	return buf
}
