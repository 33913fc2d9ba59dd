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
}

// noRules is the rule set of a resource no rule names.
var noRules ruleSet
