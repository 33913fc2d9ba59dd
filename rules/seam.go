package rules

import (
	"errors"
	"math"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// The calls into the runtime for the rule kinds of issue 14 that the runtime
// does not have yet are kept here, one function each, so that switching to
// the runtime's own (ValidateSystemRules, ValidateAuthorityRules,
// ParamFlowRules, SystemRules, AuthorityRules, (*Resource).ParamNames) is a
// change to this file only.

// validateSystemRules checks system rules as Sentinel's SystemRuleManager
// does before it reads them.
func validateSystemRules(rules []runtime.SystemRule) error {
	var errs []error
	bad := func(i int, field, reason string) {
		errs = append(errs, &runtime.RuleError{Kind: "system", Index: i, Field: field, Reason: reason})
	}
	for i, r := range rules {
		for _, f := range []struct {
			name string
			v    float64
		}{{"HighestSystemLoad", r.HighestSystemLoad}, {"HighestCPUUsage", r.HighestCPUUsage}, {"QPS", r.QPS}} {
			if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
				bad(i, f.name, "must be a finite number (negative for unset)")
			}
		}
		if r.HighestCPUUsage > 1 {
			bad(i, "HighestCPUUsage", "must be at most 1 (a fraction of the CPUs the process may use)")
		}
	}
	return errors.Join(errs...)
}

// validateAuthorityRules checks authority rules as Sentinel's
// AuthorityRuleManager does.
func validateAuthorityRules(rules []runtime.AuthorityRule) error {
	var errs []error
	bad := func(i int, r runtime.AuthorityRule, field, reason string) {
		errs = append(errs, &runtime.RuleError{Kind: "authority", Index: i, Resource: r.Resource, Field: field, Reason: reason})
	}
	for i, r := range rules {
		if r.Resource == "" {
			bad(i, r, "Resource", "is empty")
		}
		if r.LimitApp == "" {
			bad(i, r, "LimitApp", "is empty; list the origins, separated by commas")
		}
		if r.Strategy != runtime.AuthorityWhite && r.Strategy != runtime.AuthorityBlack {
			bad(i, r, "Strategy", "must be white (0) or black (1)")
		}
	}
	return errors.Join(errs...)
}

// currentParamFlow, currentSystem and currentAuthority are the rules of
// the new kinds in force.
func currentParamFlow() []runtime.ParamFlowRule { return nil }
func currentSystem() []runtime.SystemRule       { return nil }
func currentAuthority() []runtime.AuthorityRule { return nil }

// declaredParamNames returns the parameter names, after a leading
// context.Context, that the generated code declared for resource; ok is
// false when the resource declared none (it is not in this binary, or its
// code was generated before parameter names were recorded).
func declaredParamNames(resource string) (names []string, ok bool) {
	return nil, false
}
