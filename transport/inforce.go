package transport

import "github.com/sentinelgen/sentinelgen/runtime"

// currentRules is every kind of rule in force, the base a push replaces one
// kind of: LoadRules takes all kinds at once, so the kinds a push does not
// name must be passed as they are.
func currentRules() runtime.Rules {
	return runtime.Rules{
		Flow: runtime.FlowRules(), Degrade: runtime.DegradeRules(), ParamFlow: runtime.ParamFlowRules(),
		System: runtime.SystemRules(), Authority: runtime.AuthorityRules(),
	}
}
