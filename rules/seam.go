package rules

import "github.com/sentinelgen/sentinelgen/runtime"

// The calls into the runtime that the rules package makes for the rule
// kinds of issue 14 are kept here, one function each, so that a change of
// the runtime's API is a change to this file only.

func validateSystemRules(rules []runtime.SystemRule) error { return runtime.ValidateSystemRules(rules) }

func validateAuthorityRules(rules []runtime.AuthorityRule) error {
	return runtime.ValidateAuthorityRules(rules)
}

// currentParamFlow, currentSystem and currentAuthority are the rules of
// the new kinds in force.
func currentParamFlow() []runtime.ParamFlowRule { return runtime.ParamFlowRules() }
func currentSystem() []runtime.SystemRule       { return runtime.SystemRules() }
func currentAuthority() []runtime.AuthorityRule { return runtime.AuthorityRules() }

// declaredParamNames returns the parameter names, after a leading
// context.Context, that the generated code declared for resource
// (runtime.WithParamNames); ok is false when the resource declared none (it
// is not in this binary, or its code was generated without names). Only
// declared resources are looked at: a rule naming a resource must not
// declare it.
func declaredParamNames(resource string) (names []string, ok bool) {
	for _, r := range runtime.Resources() {
		if r.Name() == resource {
			names = r.ParamNames()
			return names, names != nil
		}
	}
	return nil, false
}

// declaredParamKeys returns the key kinds of the parameters, after a
// leading context.Context, that the generated code declared for resource
// (runtime.WithParamKeys); ok is false when it declared none (code
// generated before kinds were declared, or a resource not in this binary).
func declaredParamKeys(resource string) (kinds []runtime.ParamKeyKind, ok bool) {
	for _, r := range runtime.Resources() {
		if r.Name() == resource {
			return r.ParamKeys()
		}
	}
	return nil, false
}
