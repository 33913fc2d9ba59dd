package rules

import (
	"sort"

	"github.com/sentinelgen/sentinelgen/runtime"
)

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

// declaredParamKeys returns a lookup of the key kinds and names of the
// parameters, after a leading context.Context, that the generated code
// declared for a resource (runtime.WithParamKeys, runtime.WithParamNames);
// ok is false when it declared no kinds (code generated before kinds were
// declared, or a resource not in this binary). The resources are read
// once, so that a set of many rules costs one pass over them.
func declaredParamKeys() func(resource string) (kinds []runtime.ParamKeyKind, names []string, ok bool) {
	rs := runtime.Resources() // sorted by name
	return func(resource string) ([]runtime.ParamKeyKind, []string, bool) {
		i := sort.Search(len(rs), func(i int) bool { return rs[i].Name() >= resource })
		if i == len(rs) || rs[i].Name() != resource {
			return nil, nil, false
		}
		kinds, ok := rs[i].ParamKeys()
		return kinds, rs[i].ParamNames(), ok
	}
}
