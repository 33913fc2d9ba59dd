package runtime

import "testing"

// TestFlowGradeSentinelNumbers holds Sentinel's numbering (0 thread, 1 QPS)
// against the Go values, whose zero is QPS.
func TestFlowGradeSentinelNumbers(t *testing.T) {
	for _, c := range []struct {
		g FlowGrade
		n int32
	}{{FlowGradeQPS, 1}, {FlowGradeConcurrency, 0}, {FlowGrade(7), -1}} {
		if got := c.g.SentinelNumber(); got != c.n {
			t.Errorf("%d.SentinelNumber() = %d, want %d", c.g, got, c.n)
		}
		if c.n < 0 {
			continue
		}
		if g, ok := FlowGradeOfSentinel(int64(c.n)); !ok || g != c.g {
			t.Errorf("FlowGradeOfSentinel(%d) = %d, %v; want %d", c.n, g, ok, c.g)
		}
	}
	if _, ok := FlowGradeOfSentinel(2); ok {
		t.Error("FlowGradeOfSentinel(2) is a grade")
	}
}
