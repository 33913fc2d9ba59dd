package rules

import "github.com/sentinelgen/sentinelgen/runtime"

// Apply validates s and puts all its rules in force together
// (runtime.LoadRules): either every kind changes or nothing does.
func Apply(s Set) error {
	if err := Validate(s); err != nil {
		return err
	}
	return runtime.LoadRules(runtime.Rules{Flow: s.Flow, Degrade: s.Degrade})
}

// Current returns the rules in force now, without positions.
func Current() Set {
	return Set{Flow: runtime.FlowRules(), Degrade: runtime.DegradeRules()}
}
