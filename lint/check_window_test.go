package lint

import "testing"

// The widths the runtime's bucketsFor gives flow windows (runtime/validate.go):
// 250 ms up to 15 s, then a sixtieth of the interval, always a divisor.
func TestFlowBucketWidthMs(t *testing.T) {
	for _, c := range []struct{ interval, width int }{
		{1, 1},
		{500, 250},
		{1000, 250},
		{1100, 220}, // 5 buckets: 4 would be 275 ms wide
		{10_000, 250},
		{15_000, 250},
		{60_000, 1000},
		{3_600_000, 60_000},
		{7919, 0}, // prime: no split into at most 600 equal buckets
	} {
		if got := flowBucketWidthMs(c.interval); got != c.width {
			t.Errorf("flowBucketWidthMs(%d) = %d, want %d", c.interval, got, c.width)
		}
	}
}
