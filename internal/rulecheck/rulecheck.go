// Package rulecheck holds the field checks that the runtime's rule families
// and gateway's rules share, so that one mistake reads the same wherever it
// is reported. Each check returns why a value is refused, or "" when it is
// accepted; the caller names the field in its own spelling (Go field names
// in runtime, JSON names in gateway) and wraps the reason in its own error
// type, which keeps this package free of runtime's types (runtime imports
// it).
package rulecheck

import (
	"fmt"
	"math"
)

// The numbers of runtime.FlowGrade and runtime.ControlBehavior that the
// messages name; runtime's tests pin them to its constants.
const (
	// GradeQPS is runtime.FlowGradeQPS.
	GradeQPS = 0
	// GradeConcurrency is runtime.FlowGradeConcurrency.
	GradeConcurrency = 1
	// BehaviorReject is runtime.BehaviorReject.
	BehaviorReject = 0
	// BehaviorRateLimiter is runtime.BehaviorRateLimiter.
	BehaviorRateLimiter = 2
)

// Report receives one problem of a rule: the field, in the caller's
// spelling, and why its value is refused.
type Report func(field, reason string)

// Check reports reason under field, unless reason is "" (accepted).
func (r Report) Check(field, reason string) {
	if reason != "" {
		r(field, reason)
	}
}

// Names spells, in the caller's spelling, the fields every rule that counts
// calls has.
type Names struct{ Resource, Grade, Count string }

// Counted checks what every rule that counts calls states: the resource it
// guards, a flow grade and a threshold.
func (r Report) Counted(n Names, resource string, grade int32, count float64) {
	r.Check(n.Resource, Resource(resource))
	r.Check(n.Grade, FlowGrade(grade))
	r.Check(n.Count, Count(count))
}

// Empty is the reason a required name is refused when it is empty.
const Empty = "is empty"

// Resource says why a rule's resource name is refused: it is empty.
func Resource(name string) string {
	if name == "" {
		return Empty
	}
	return ""
}

// BadNumber reports whether v is no threshold: NaN, infinite or negative.
func BadNumber(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }

// Count says why a threshold is refused: it must be a finite number >= 0.
func Count(v float64) string {
	if BadNumber(v) {
		return fmt.Sprintf("%v must be a finite number >= 0", v)
	}
	return ""
}

// NonNegative says why an integer field that may not be negative is refused.
func NonNegative(n int64) string {
	if n < 0 {
		return fmt.Sprintf("%d must be >= 0", n)
	}
	return ""
}

// Positive says why an integer field that must be set is refused.
func Positive(n int64) string {
	if n <= 0 {
		return fmt.Sprintf("%d must be > 0", n)
	}
	return ""
}

// FlowGrade says why a flow grade is refused: it is neither QPS nor
// concurrency.
func FlowGrade(g int32) string {
	if g != GradeQPS && g != GradeConcurrency {
		return fmt.Sprintf("%d is not a flow grade (%d QPS, %d concurrency)", g, GradeQPS, GradeConcurrency)
	}
	return ""
}

// NeedsQPS is the reason a shaping behavior is refused under the
// concurrency grade; the caller puts the behavior's name before it.
const NeedsQPS = "needs Grade QPS"

// PerValueBehavior says why the control behavior b of a rule that limits
// each value on its own (a param-flow or gateway rule) is refused under
// grade g: such a rule rejects or paces with the rate limiter, and the rate
// limiter paces QPS only.
func PerValueBehavior(b, g int32) string {
	switch b {
	case BehaviorReject:
		return ""
	case BehaviorRateLimiter:
		if g == GradeConcurrency {
			return "rate limiter " + NeedsQPS
		}
		return ""
	}
	return fmt.Sprintf("%d is not a param-flow behavior (%d reject, %d rate limiter)", b, BehaviorReject, BehaviorRateLimiter)
}

// QueueingMs says why a rule's longest wait of ms milliseconds is refused:
// it is negative, or longer than limitMs, the bound
// runtime.SetMaxQueueingTime sets (math.MaxInt64 or more: no bound).
func QueueingMs(ms int, limitMs int64) string {
	if ms < 0 {
		return NonNegative(int64(ms))
	}
	if limitMs >= math.MaxInt || int64(ms) <= limitMs {
		return ""
	}
	return fmt.Sprintf("%d is more than the %d ms a caller may be kept waiting (runtime.SetMaxQueueingTime)", ms, limitMs)
}

// IntervalMs says why a statistic's span of ms milliseconds is refused: it
// is negative or above maxMs. 0 is accepted and stands for defaultMs.
func IntervalMs(ms, maxMs, defaultMs int) string {
	if ms < 0 || ms > maxMs {
		return fmt.Sprintf("%d must be between 1 and %d (0 means %d)", ms, maxMs, defaultMs)
	}
	return ""
}
