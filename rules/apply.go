package rules

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sentinelgen/sentinelgen/gateway"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Apply validates s and puts all its rules in force together
// (runtime.LoadRules): either every kind changes or nothing does. A
// param-flow rule that names its parameter (param = "sku") gets the index
// that name has among the parameters the resource's generated code
// declared; a name the resource does not have is an error at the rule.
//
// Apply is Update with a function that returns s: it is serialized with
// every other change made through this package and advances Generation.
func Apply(s Set) error {
	_, err := Update(func(Set) (Set, error) { return s, nil })
	return err
}

// apply validates s and puts it in force; Update calls it under its lock.
func apply(s Set) error {
	if err := Validate(s); err != nil {
		return err
	}
	s, err := Resolve(s)
	if err != nil {
		return err
	}
	if !s.HasGateway && len(s.GatewayFlow)+len(s.APIGroups) == 0 {
		// The gateway's rules stay as they are; its resources take no
		// other hot-parameter rule.
		if err := paramOnGateway(s, gateway.Rules()); err != nil {
			return err
		}
		return loadRuntime(s)
	}
	return applyWithGateway(s) // gateway.go
}

// loadRuntime puts s's runtime kinds in force together.
func loadRuntime(s Set) error {
	return runtime.LoadRules(runtime.Rules{
		Flow:      s.Flow,
		Degrade:   s.Degrade,
		ParamFlow: s.ParamFlow,
		System:    s.System,
		Authority: s.Authority,
	})
}

// Resolve returns s with every param-flow rule that names its parameter
// (param = "sku") given the index of that name among the parameters the
// resource's generated code declared (runtime.WithParamNames), and
// ParamFlowParam cleared: the set as the runtime holds it, which Current
// returns and Equal compares. s is left alone. A name the resource does not
// declare is an error at the rule, and so is a rule that can never apply to
// the resource's generated code (runtime.WithParamKeys): an index past its
// parameters, or a parameter whose type gives no key.
func Resolve(s Set) (Set, error) {
	paramFlow, err := resolveParams(s)
	if err != nil {
		return Set{}, err
	}
	if err := checkParamKeys(s, paramFlow); err != nil {
		return Set{}, err
	}
	s.ParamFlow, s.ParamFlowParam = paramFlow, nil
	return s, nil
}

// resolveParams returns s's param-flow rules with every parameter name
// turned into its index; s is left alone.
func resolveParams(s Set) ([]runtime.ParamFlowRule, error) {
	if !slices.ContainsFunc(s.ParamFlowParam, func(n string) bool { return n != "" }) {
		return s.ParamFlow, nil
	}
	out := slices.Clone(s.ParamFlow)
	var errs []error
	for i, name := range padTo(s.ParamFlowParam, len(out)) {
		if name == "" {
			continue
		}
		idx, msg := paramIndex(out[i].Resource, name)
		if msg != "" {
			errs = append(errs, &Error{Pos: fieldPosition(positionAt(s.ParamFlowAt, i, tomlTable(KindParamFlow)), "param"), Field: "param", Msg: msg})
			continue
		}
		out[i].ParamIdx = idx
	}
	return out, errors.Join(errs...)
}

// paramIndex returns the index (see runtime.ParamFlowRule.ParamIdx) of the
// parameter called name among those resource's generated code declared, or
// a message saying why there is none.
func paramIndex(resource, name string) (int, string) {
	names, ok := declaredParamNames(resource)
	if !ok {
		return 0, fmt.Sprintf("cannot resolve parameter %q: resource %q declares no parameter names in this program (give paramIdx instead, or regenerate its wrapper)", name, resource)
	}
	if i := slices.Index(names, name); i >= 0 {
		return i, ""
	}
	msg := fmt.Sprintf("resource %q has no parameter %q", resource, name)
	if len(names) > 0 {
		msg += "; its parameters are " + strings.Join(names, ", ")
	}
	if sg := suggest(name, names); sg != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", sg)
	}
	return 0, msg
}

// Current returns the rules in force now, without positions. Param-flow
// rules carry the index they were resolved to, not a name.
func Current() Set {
	return Set{
		Flow:      runtime.FlowRules(),
		Degrade:   runtime.DegradeRules(),
		ParamFlow: runtime.ParamFlowRules(),
		System:    runtime.SystemRules(),
		Authority: runtime.AuthorityRules(),
		// The gateway's rules in force, whoever loaded them, so that a
		// write-back keeps them; HasGateway only when there are some.
		GatewayFlow: gateway.Rules(),
		APIGroups:   gateway.APIDefinitions(),
		HasGateway:  len(gateway.Rules())+len(gateway.APIDefinitions()) != 0,
	}
}

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
