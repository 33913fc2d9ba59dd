package runtime

// SCAFFOLD (lead, 2026-12-01): the param-flow helper replaces this file. The
// names below are the seam between the rule framework (rules.go, ruleset.go,
// resource.go, record.go) and hot-parameter flow control.

// paramChecks is one resource's hot-parameter checks, built at load.
type paramChecks struct{}

// paramHeld is what an admitted call holds of its param checks (for the
// concurrency grade), kept in the Entry and released at Exit.
type paramHeld struct{}

// buildParamChecks makes res's checks for rules[idx...], reusing the state of
// old's checks whose rule is unchanged. nil when idx is empty.
func buildParamChecks(res *Resource, old *paramChecks, rules []ParamFlowRule, idx []int) *paramChecks {
	return nil
}

// enter checks args against every param rule; it returns the block error of
// the first that refuses, or nil having recorded the call in *held. It may
// sleep (rate limiter) through the Clock.
func (pc *paramChecks) enter(held *paramHeld, args []ParamArg, nowNs, acquire int64) *BlockError {
	return nil
}

// exit releases what enter recorded in held.
func (pc *paramChecks) exit(held *paramHeld, acquire int64) {}

// ValidateParamFlowRules reports every invalid rule of rules (see RuleError)
// without loading them.
func ValidateParamFlowRules(rules []ParamFlowRule) error { return nil }
