package rules

import (
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
	// FlowAt[i] is where Flow[i] was read; same length as Flow, or nil for
	// sets built in code.
	FlowAt []Position
	// DegradeAt[i] is where Degrade[i] was read, like FlowAt.
	DegradeAt []Position
	// Warnings are non-fatal findings while reading, e.g. an unknown JSON
	// field that was ignored.
	Warnings []*Error
}

// Merge returns the concatenation of s and o: rules, positions and warnings
// of s first. When only one side carries positions the other side's rules get
// zero Positions, so FlowAt and DegradeAt keep the length of their rules.
func (s Set) Merge(o Set) Set {
	return Set{
		Flow:      concat(s.Flow, o.Flow),
		Degrade:   concat(s.Degrade, o.Degrade),
		FlowAt:    mergePositions(s.FlowAt, len(s.Flow), o.FlowAt, len(o.Flow)),
		DegradeAt: mergePositions(s.DegradeAt, len(s.Degrade), o.DegradeAt, len(o.Degrade)),
		Warnings:  concat(s.Warnings, o.Warnings),
	}
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

func mergePositions(a []Position, na int, b []Position, nb int) []Position {
	if a == nil && b == nil {
		return nil
	}
	out := make([]Position, 0, na+nb)
	out = append(out, padPositions(a, na)...)
	return append(out, padPositions(b, nb)...)
}

// padPositions returns p cut or padded with zero Positions to length n, so a
// Set whose positions are out of step with its rules still merges sanely.
func padPositions(p []Position, n int) []Position {
	if len(p) >= n {
		return p[:n]
	}
	return append(append([]Position(nil), p...), make([]Position, n-len(p))...)
}

// Equal reports whether s and o hold the same rules in the same order;
// positions and warnings are ignored. Rules are compared as the runtime
// enforces them (see NormalizeFlow and NormalizeDegrade), so a field left at
// zero equals the runtime default it stands for.
func (s Set) Equal(o Set) bool {
	return equalEnforced(s.Flow, o.Flow, NormalizeFlow) && equalEnforced(s.Degrade, o.Degrade, NormalizeDegrade)
}

// equalEnforced reports whether a and b hold the same rules in the same
// order once normalize has filled in the defaults.
func equalEnforced[R comparable](a, b []R, normalize func(R) R) bool {
	return slices.EqualFunc(a, b, func(x, y R) bool { return normalize(x) == normalize(y) })
}

// NormalizeFlow returns r with the fields whose zero value the runtime reads
// as a default set to that default: ColdFactor 0 becomes 3, StatIntervalMs
// and ClusterConfig.WindowIntervalMs 0 become 1000. Two flow rules mean the
// same thing exactly when their normalized forms are ==, which is how
// Set.Equal and the linter compare them.
func NormalizeFlow(r runtime.FlowRule) runtime.FlowRule {
	orDefault(&r.ColdFactor, runtime.DefaultColdFactor)
	orDefault(&r.StatIntervalMs, runtime.DefaultStatIntervalMs)
	orDefault(&r.ClusterConfig.WindowIntervalMs, runtime.DefaultStatIntervalMs)
	return r
}

// NormalizeDegrade is NormalizeFlow for degrade rules: MinRequestAmount 0
// becomes 5 and StatIntervalMs 0 becomes 1000.
func NormalizeDegrade(r runtime.DegradeRule) runtime.DegradeRule {
	orDefault(&r.MinRequestAmount, runtime.DefaultMinRequestAmount)
	orDefault(&r.StatIntervalMs, runtime.DefaultStatIntervalMs)
	return r
}

// orDefault sets *field to def when it is zero.
func orDefault(field *int, def int) {
	if *field == 0 {
		*field = def
	}
}
