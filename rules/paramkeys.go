package rules

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// checkParamKeys refuses the param-flow rules of s that can never apply to
// the resource's generated code: an index past the parameters the code
// declared, or a parameter whose type gives no key. paramFlow holds s's
// rules with names resolved to indexes. The messages are the rule
// linter's, said with what the running program knows (names and key
// kinds, not Go types). Resources declared without key kinds
// (runtime.WithParamKeys) are not checked.
func checkParamKeys(s Set, paramFlow []runtime.ParamFlowRule) error {
	if len(paramFlow) == 0 {
		return nil
	}
	var errs []error
	names := padTo(s.ParamFlowParam, len(paramFlow))
	declared := declaredParamKeys()
	for i, r := range paramFlow {
		kinds, params, ok := declared(r.Resource)
		if !ok {
			continue
		}
		field := "paramIdx"
		if names[i] != "" {
			field = "param"
		}
		at := fieldPosition(positionAt(s.ParamFlowAt, i, tomlTable(KindParamFlow)), field)
		if msg := paramKeyProblem(r, kinds, params); msg != "" {
			errs = append(errs, &Error{Pos: at, Field: field, Msg: msg})
		}
	}
	return errors.Join(errs...)
}

// paramKeyProblem says why rule r can never apply to a resource whose
// parameters have kinds and names, or "" when it can.
func paramKeyProblem(r runtime.ParamFlowRule, kinds []runtime.ParamKeyKind, names []string) string {
	n := len(kinds)
	idx := r.ParamIdx
	if idx < 0 {
		idx += n
	}
	switch {
	case n == 0:
		return fmt.Sprintf("paramIdx %d selects nothing: resource %q has no parameters after ctx, so the rule never applies", r.ParamIdx, r.Resource)
	case idx < 0 || idx >= n:
		return fmt.Sprintf("paramIdx %d is out of range: resource %q has %s after ctx, %s (negative indexes count from the end, down to %d), so the rule never applies",
			r.ParamIdx, r.Resource, countParams(n), paramList(names, n), -n)
	case kinds[idx] == runtime.ParamNoKey:
		return fmt.Sprintf("parameter %s (paramIdx %d) cannot be a hot-parameter key, so the rule never blocks: keys are strings, integers, floats, bools, slices of those, and types with a method ParamFlowKey() string; give the type that method or limit another parameter",
			paramName(names, idx), idx)
	}
	return ""
}

// countParams writes "1 parameter", "2 parameters".
func countParams(n int) string {
	if n == 1 {
		return "1 parameter"
	}
	return strconv.Itoa(n) + " parameters"
}

// paramList names n parameters with their indexes: "sku (0), req (1)".
func paramList(names []string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = paramName(names, i) + " (" + strconv.Itoa(i) + ")"
	}
	return strings.Join(parts, ", ")
}

// paramName is parameter i's declared name, or says it has none.
func paramName(names []string, i int) string {
	if i < len(names) && names[i] != "" {
		return names[i]
	}
	return "unnamed parameter " + strconv.Itoa(i)
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
