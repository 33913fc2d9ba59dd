package transport

import "github.com/sentinelgen/sentinelgen/runtime"

// currentRules is every kind of rule in force, the base a push replaces one
// kind of. The runtime has getters for flow and degrade rules; param-flow,
// system and authority rules cannot be in force until the runtime enforces
// them (LoadRules refuses them), so nil is what is in force for those.
// When the runtime gains ParamFlowRules, SystemRules and AuthorityRules,
// they belong here, or a push of one kind would drop the others.
func currentRules() runtime.Rules {
	return runtime.Rules{Flow: runtime.FlowRules(), Degrade: runtime.DegradeRules()}
}
