package runtime

import "github.com/sentinelgen/sentinelgen/runtime/leaparray"

// ruleSet is the checks in force for one resource. It is immutable once
// published; a rule load builds a new one and swaps it in.
type ruleSet struct {
	flow    []*flowCheck
	degrade []*breaker
	// chained maps an entrance named by a chain rule to the statistics of
	// this resource's calls through it; nil without chain rules.
	chained map[string]*node
	// ownWindows are rule windows with a non-default interval that count
	// this resource's passes.
	ownWindows []*leaparray.Window
	// plain is true when every flow check is plainQPS and no chain rule or
	// rule window is involved: Entry then checks and records in one pinned
	// section (see Resource.Entry).
	plain bool
}

// isPlain computes plain.
func (rs *ruleSet) isPlain() bool {
	if rs.chained != nil || rs.ownWindows != nil {
		return false
	}
	for _, f := range rs.flow {
		if !f.plainQPS {
			return false
		}
	}
	return true
}
