package runtime

import "math"

// Rule fields are ints with no upper bound (math.MaxInt is a valid
// TimeWindowSec or MaxQueueingTimeMs), so durations derived from them are
// computed saturating: a huge setting means "for ever", never a product
// that wraps into the past.

// satMul is a*b for a, b >= 0, or math.MaxInt64 when that overflows.
func satMul(a, b int64) int64 {
	if b != 0 && a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

// satAdd is a+b for b >= 0, or math.MaxInt64 when that overflows.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
