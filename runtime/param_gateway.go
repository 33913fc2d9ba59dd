package runtime

// The gateway's hot-parameter rules (package gateway converts its gateway
// flow rules into them) are kept apart from the user's, as Sentinel keeps
// GatewayRuleManager's rules apart from ParamFlowRuleManager's: a load of
// the user's hot-parameter rules (LoadParamFlowRules, LoadRules, a rules
// file reload) must not drop the gateway's limits, and a gateway reload
// must not drop the user's.
//
// In force, the param list of rulesInForce is the user's rules followed by
// the gateway's (gatewayParamInForce, its tail): each resource's checks are
// built from that one list, positions and all, so the install path is the
// same for both. Readers (ParamFlowRules, the param listeners) see the
// user's part only.

// kindGateway marks a load of the gateway's rules: next.param then holds
// the gateway's rules, which replace the tail of the list in force, and the
// user's part stays. allKinds leaves it out, so LoadRules keeps the tail.
const kindGateway ruleKinds = 1 << 5

// gatewayParamInForce is the gateway's part of rulesInForce.param. Guarded
// by rulesInForce's lock.
var gatewayParamInForce []ParamFlowRule

// LoadGatewayParamFlowRules replaces the hot-parameter rules of the gateway
// (package gateway calls it; applications use gateway.Load). It leaves the
// rules loaded by LoadParamFlowRules and LoadRules in force, which in turn
// leave these: ParamFlowRules and OnParamFlowRulesChange do not show them.
// If any rule is invalid nothing changes.
func LoadGatewayParamFlowRules(rules []ParamFlowRule) error {
	return load(ruleLists{param: rules}, kindParam|kindGateway)
}

// GatewayParamFlowRules returns a copy of the gateway's hot-parameter rules
// in force.
func GatewayParamFlowRules() []ParamFlowRule {
	rulesInForce.Lock()
	defer rulesInForce.Unlock()
	return cloneParamRules(gatewayParamInForce)
}

// joinGatewayParams returns the whole param list a load of kinds puts in
// force, next being that load's param rules, cur those in force. Callers
// hold rulesInForce's lock. A gateway load records its rules as in force
// here, before the list is installed: that is safe because it validates
// them first and the user's part, taken from cur, is valid already, so the
// load cannot fail after this point.
func joinGatewayParams(cur, next []ParamFlowRule, kinds ruleKinds) ([]ParamFlowRule, error) {
	if kinds&kindParam == 0 {
		return next, nil
	}
	if kinds&kindGateway == 0 {
		return append(next[:len(next):len(next)], gatewayParamInForce...), nil
	}
	if err := ValidateParamFlowRules(next); err != nil {
		return nil, err
	}
	user := userParams(cur)
	gatewayParamInForce = cloneParamRules(next)
	return append(user[:len(user):len(user)], next...), nil
}

// userParams is the user's part of a param list in force (see
// gatewayParamInForce). Callers hold rulesInForce's lock.
func userParams(inForce []ParamFlowRule) []ParamFlowRule {
	return inForce[:len(inForce)-len(gatewayParamInForce)]
}
