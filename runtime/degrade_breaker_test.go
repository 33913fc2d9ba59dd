package runtime

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime/leaparray"
)

// TestBreakerWindowFromSecondID checks that a breaker whose bucket is a
// power-of-two multiple of the second-level bucket finds its window ID from
// the call's second-level ID (what Exit does) exactly as its own window
// computes it from the time, for times on both sides of zero and at every
// bucket edge, and that other widths are left to the window.
func TestBreakerWindowFromSecondID(t *testing.T) {
	second := leaparray.NewSecond(numEvents)
	for _, tc := range []struct {
		statMs int
		shift  int8
	}{{500, 0}, {1000, 1}, {2000, 2}, {4000, 3}, {64000, 7}, {1500, -1}, {250, -1}, {3000, -1}} {
		b := newBreaker(DegradeRule{Resource: "r", Grade: DegradeErrorCount, Count: 1, TimeWindowSec: 1, StatIntervalMs: tc.statMs}, 0)
		if b.secondShift != tc.shift {
			t.Errorf("statIntervalMs %d: secondShift %d, want %d", tc.statMs, b.secondShift, tc.shift)
			continue
		}
		if tc.shift < 0 {
			continue
		}
		w := int64(tc.statMs)
		for _, base := range []int64{-3 * w, -w, 0, w, 1_700_000_000_000 - 1_700_000_000_000%w} {
			for _, d := range []int64{-501, -500, -499, -1, 0, 1, 499, 500, 501, w - 1, w, w + 1} {
				ms := base + d
				if got, want := second.ID(ms)>>tc.shift, b.window.ID(ms); got != want {
					t.Errorf("statIntervalMs %d, t=%d ms: second-level ID>>%d = %d, the breaker's window says %d", tc.statMs, ms, tc.shift, got, want)
				}
			}
		}
	}
}
