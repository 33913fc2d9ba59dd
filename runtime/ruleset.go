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
	// origins is the per-origin statistics of flow rules with a LimitApp
	// other than "default"; nil without such rules.
	origins *originNodes
	// authority is the origin white and black lists, checked first.
	authority []*authorityCheck
	// param is the hot-parameter checks (see paramflow_check.go); nil
	// without param rules.
	param *paramChecks
	// guarded is true when the resource has authority or param rules: the
	// checks before the flow rules, which the pass path skips otherwise.
	guarded bool
	// oneFlow and oneDegrade back flow and degrade while a resource has one
	// rule of the kind, as most do: a load of 100k rules then allocates two
	// objects fewer per resource.
	oneFlow    [1]*flowCheck
	oneDegrade [1]*breaker
}

// noRules is the rule set of a resource no rule names.
var noRules ruleSet
