package rules

import (
	"reflect"
	"slices"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Set is one complete rule configuration; Apply puts all its kinds in force
// together.
type Set struct {
	// Flow holds the flow rules, in document order.
	Flow []runtime.FlowRule
	// Degrade holds the degrade (circuit breaker) rules, in document order.
	Degrade []runtime.DegradeRule
	// ParamFlow holds the hot-parameter rules, in document order.
	ParamFlow []runtime.ParamFlowRule
	// System holds the system adaptive protection rules, in document order.
	System []runtime.SystemRule
	// Authority holds the origin white and black lists, in document order.
	Authority []runtime.AuthorityRule

	// ParamFlowParam[i] is the parameter name ParamFlow[i] selects when its
	// document named the argument (TOML's param = "sku") instead of giving
	// paramIdx; "" when the rule has its index. Apply resolves names to
	// indexes through the resource's declared parameter names. nil when no
	// rule names its parameter, else as long as ParamFlow.
	ParamFlowParam []string

	// FlowAt[i] is where Flow[i] was read; same length as Flow, or nil for
	// sets built in code.
	FlowAt []Position
	// DegradeAt[i] is where Degrade[i] was read, like FlowAt.
	DegradeAt []Position
	// ParamFlowAt[i] is where ParamFlow[i] was read, like FlowAt.
	ParamFlowAt []Position
	// SystemAt[i] is where System[i] was read, like FlowAt.
	SystemAt []Position
	// AuthorityAt[i] is where Authority[i] was read, like FlowAt.
	AuthorityAt []Position
	// Warnings are non-fatal findings while reading, e.g. an unknown JSON
	// field that was ignored.
	Warnings []*Error
}

// Merge returns the concatenation of s and o: rules, positions and warnings
// of s first. When only one side carries positions the other side's rules get
// zero Positions, so the position lists keep the length of their rules.
func (s Set) Merge(o Set) Set {
	return Set{
		Flow:           concat(s.Flow, o.Flow),
		Degrade:        concat(s.Degrade, o.Degrade),
		ParamFlow:      concat(s.ParamFlow, o.ParamFlow),
		System:         concat(s.System, o.System),
		Authority:      concat(s.Authority, o.Authority),
		ParamFlowParam: mergePadded(s.ParamFlowParam, len(s.ParamFlow), o.ParamFlowParam, len(o.ParamFlow)),
		FlowAt:         mergePadded(s.FlowAt, len(s.Flow), o.FlowAt, len(o.Flow)),
		DegradeAt:      mergePadded(s.DegradeAt, len(s.Degrade), o.DegradeAt, len(o.Degrade)),
		ParamFlowAt:    mergePadded(s.ParamFlowAt, len(s.ParamFlow), o.ParamFlowAt, len(o.ParamFlow)),
		SystemAt:       mergePadded(s.SystemAt, len(s.System), o.SystemAt, len(o.System)),
		AuthorityAt:    mergePadded(s.AuthorityAt, len(s.Authority), o.AuthorityAt, len(o.Authority)),
		Warnings:       concat(s.Warnings, o.Warnings),
	}
}

// IsEmpty reports whether s holds no rule of any kind.
func (s Set) IsEmpty() bool {
	return len(s.Flow)+len(s.Degrade)+len(s.ParamFlow)+len(s.System)+len(s.Authority) == 0
}

// concat returns a new slice holding a then b, nil when both are empty, so a
// merged set never aliases the arrays of its parts.
func concat[T any](a, b []T) []T {
	if len(a)+len(b) == 0 {
		return nil
	}
	out := make([]T, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

// mergePadded concatenates two lists that run beside rule lists of length
// na and nb (positions, parameter names), nil when both are nil.
func mergePadded[T any](a []T, na int, b []T, nb int) []T {
	if a == nil && b == nil {
		return nil
	}
	out := make([]T, 0, na+nb)
	out = append(out, padTo(a, na)...)
	return append(out, padTo(b, nb)...)
}

// padTo returns p cut or padded with zero values to length n, so a Set
// whose side lists are out of step with its rules still merges sanely.
func padTo[T any](p []T, n int) []T {
	if len(p) >= n {
		return p[:n]
	}
	return append(append([]T(nil), p...), make([]T, n-len(p))...)
}

// Equal reports whether s and o hold the same rules in the same order;
// positions and warnings are ignored. Rules are compared as the runtime
// enforces them (see NormalizeFlow, NormalizeDegrade, NormalizeParamFlow and
// NormalizeSystem), so a field left at zero equals the runtime default it
// stands for. A param-flow rule that names its parameter equals only one
// naming the same parameter.
func (s Set) Equal(o Set) bool {
	return equalEnforced(s.Flow, o.Flow, NormalizeFlow) &&
		equalEnforced(s.Degrade, o.Degrade, NormalizeDegrade) &&
		slices.EqualFunc(s.ParamFlow, o.ParamFlow, EqualParamFlow) &&
		slices.Equal(padTo(s.ParamFlowParam, len(s.ParamFlow)), padTo(o.ParamFlowParam, len(o.ParamFlow))) &&
		equalEnforced(s.System, o.System, NormalizeSystem) &&
		slices.Equal(s.Authority, o.Authority)
}

// equalEnforced reports whether a and b hold the same rules in the same
// order once normalize has filled in the defaults.
func equalEnforced[R comparable](a, b []R, normalize func(R) R) bool {
	return slices.EqualFunc(a, b, func(x, y R) bool { return normalize(x) == normalize(y) })
}

// NormalizeFlow returns r with the fields whose zero value the runtime reads
// as a default set to that default: ColdFactor 0 becomes 3, StatIntervalMs
// and ClusterConfig.WindowIntervalMs 0 become 1000, LimitApp "" becomes
// "default". Two flow rules mean the same thing exactly when their
// normalized forms are ==, which is how Set.Equal and the linter compare
// them.
func NormalizeFlow(r runtime.FlowRule) runtime.FlowRule {
	orDefault(&r.ColdFactor, runtime.DefaultColdFactor)
	orDefault(&r.StatIntervalMs, runtime.DefaultStatIntervalMs)
	orDefault(&r.ClusterConfig.WindowIntervalMs, runtime.DefaultStatIntervalMs)
	if r.LimitApp == "" {
		r.LimitApp = limitAppDefault
	}
	return r
}

// limitAppDefault is Sentinel's limitApp for "every caller".
const limitAppDefault = "default"

// NormalizeDegrade is NormalizeFlow for degrade rules: MinRequestAmount 0
// becomes 5 and StatIntervalMs 0 becomes 1000.
func NormalizeDegrade(r runtime.DegradeRule) runtime.DegradeRule {
	orDefault(&r.MinRequestAmount, runtime.DefaultMinRequestAmount)
	orDefault(&r.StatIntervalMs, runtime.DefaultStatIntervalMs)
	return r
}

// NormalizeParamFlow is NormalizeFlow for hot-parameter rules:
// DurationInSec 0 becomes 1, ClusterConfig.WindowIntervalMs 0 becomes 1000,
// and an empty item list becomes nil. The items are copied, so changing the
// result leaves r's alone.
func NormalizeParamFlow(r runtime.ParamFlowRule) runtime.ParamFlowRule {
	orDefault(&r.DurationInSec, 1)
	orDefault(&r.ClusterConfig.WindowIntervalMs, runtime.DefaultStatIntervalMs)
	if len(r.Items) == 0 {
		r.Items = nil
	} else {
		r.Items = slices.Clone(r.Items)
	}
	return r
}

// EqualParamFlow reports whether a and b mean the same hot-parameter rule:
// equal once normalized, items in the same order.
func EqualParamFlow(a, b runtime.ParamFlowRule) bool {
	// Once normalized, an empty item list is nil on both sides, so
	// DeepEqual compares what == would if the struct were comparable.
	return reflect.DeepEqual(NormalizeParamFlow(a), NormalizeParamFlow(b))
}

// NormalizeSystem returns r with every negative (unset) threshold as -1,
// Sentinel's spelling of unset, so that rules differing only in how they
// say "unset" are equal.
func NormalizeSystem(r runtime.SystemRule) runtime.SystemRule {
	for _, f := range []*float64{&r.HighestSystemLoad, &r.HighestCPUUsage, &r.QPS} {
		if *f < 0 {
			*f = -1
		}
	}
	for _, n := range []*int64{&r.AvgRT, &r.MaxThread} {
		if *n < 0 {
			*n = -1
		}
	}
	return r
}

// orDefault sets *field to def when it is zero.
func orDefault(field *int, def int) {
	if *field == 0 {
		*field = def
	}
}
