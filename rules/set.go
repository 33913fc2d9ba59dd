package rules

import "github.com/sentinelgen/sentinelgen/runtime"

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
// enforces them, so a field left at zero equals the runtime default it stands
// for (ColdFactor 0 and 3, StatIntervalMs 0 and 1000, MinRequestAmount 0 and
// 5, WindowIntervalMs 0 and 1000).
func (s Set) Equal(o Set) bool {
	if len(s.Flow) != len(o.Flow) || len(s.Degrade) != len(o.Degrade) {
		return false
	}
	for i := range s.Flow {
		if normalizeFlow(s.Flow[i]) != normalizeFlow(o.Flow[i]) {
			return false
		}
	}
	for i := range s.Degrade {
		if normalizeDegrade(s.Degrade[i]) != normalizeDegrade(o.Degrade[i]) {
			return false
		}
	}
	return true
}

// normalizeFlow fills the fields whose zero value the runtime reads as a
// default, giving the form in which two rules mean the same thing.
func normalizeFlow(r runtime.FlowRule) runtime.FlowRule {
	if r.ColdFactor == 0 {
		r.ColdFactor = runtime.DefaultColdFactor
	}
	if r.StatIntervalMs == 0 {
		r.StatIntervalMs = runtime.DefaultStatIntervalMs
	}
	if r.ClusterConfig.WindowIntervalMs == 0 {
		r.ClusterConfig.WindowIntervalMs = runtime.DefaultStatIntervalMs
	}
	return r
}

// normalizeDegrade is normalizeFlow for degrade rules.
func normalizeDegrade(r runtime.DegradeRule) runtime.DegradeRule {
	if r.MinRequestAmount == 0 {
		r.MinRequestAmount = runtime.DefaultMinRequestAmount
	}
	if r.StatIntervalMs == 0 {
		r.StatIntervalMs = runtime.DefaultStatIntervalMs
	}
	return r
}
