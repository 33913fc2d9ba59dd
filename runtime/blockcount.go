package runtime

import "sync/atomic"

// Blocked counts the calls (times their acquire count) this error was
// returned for since its rule was loaded, modulo 2³²: read it at least once
// per 2³² blocks and take differences in uint32 arithmetic (uint32(b-a)),
// as the block log and the Prometheus exporter do. A reload that leaves a
// flow rule unchanged at the same index keeps its error, and so the count;
// otherwise the rule's new error counts from zero, and readers that track
// errors by pointer never count a block twice. It costs one atomic add on
// the block path.
func (e *BlockError) Blocked() uint32 { return atomic.LoadUint32(&e.blocked) }

// BlockErrors appends to buf the block errors of the resource's flow rules
// (in check order) and circuit breakers in force, and returns the extended
// slice: with Blocked, what blocked the resource's calls, rule by rule.
// Errors made as calls are refused (param-flow values, authority origins,
// system protection) are not listed.
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
