package runtime

import "github.com/sentinelgen/sentinelgen/runtime/leaparray"

// ruleSet is the checks in force for one resource. It is immutable once
// published; a rule load builds a new one and swaps it in. What few
// resources need lives in extras, so that the usual rule set (a flow rule
// and a breaker) stays small: a process with many resources holds one per
// resource.
type ruleSet struct {
	flow    []*flowCheck
	degrade []*breaker
	// param is the hot-parameter checks (see param_check.go); nil
	// without param rules.
	param *paramChecks
	// extras is the parts few resources have; nil when the resource has
	// none of them.
	extras *ruleExtras
	// oneFlow and oneDegrade back flow and degrade while a resource has one
	// rule of the kind, as most do: a load of 100k rules then allocates two
	// objects fewer per resource.
	oneFlow    [1]*flowCheck
	oneDegrade [1]*breaker
}

// ruleExtras is the parts of a rule set that few resources have.
type ruleExtras struct {
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
	// guarded is true when Entry runs guard before the flow rules: for
	// authority rules, per-origin nodes to select, or param checks (param
	// lives outside extras, so that HasParamRules and Exit read it
	// directly).
	guarded bool
}

// noRules is the rule set of a resource no rule names.
var noRules ruleSet

// makeExtras returns rs.extras, making it if need be; only while building
// rs.
func (rs *ruleSet) makeExtras() *ruleExtras {
	if rs.extras == nil {
		rs.extras = &ruleExtras{}
	}
	return rs.extras
}
