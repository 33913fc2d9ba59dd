package rulecheck

import (
	"math"
	"testing"
)

// Every check accepts what it should with "" and names the refused value
// and the accepted range in its reason.
func TestReasons(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"resource set", Resource("r"), ""},
		{"resource empty", Resource(""), "is empty"},
		{"count zero", Count(0), ""},
		{"count negative", Count(-3), "-3 must be a finite number >= 0"},
		{"count NaN", Count(math.NaN()), "NaN must be a finite number >= 0"},
		{"count +Inf", Count(math.Inf(1)), "+Inf must be a finite number >= 0"},
		{"non-negative zero", NonNegative(0), ""},
		{"non-negative -1", NonNegative(-1), "-1 must be >= 0"},
		{"positive 1", Positive(1), ""},
		{"positive 0", Positive(0), "0 must be > 0"},
		{"grade QPS", FlowGrade(GradeQPS), ""},
		{"grade concurrency", FlowGrade(GradeConcurrency), ""},
		{"grade 7", FlowGrade(7), "7 is not a flow grade (0 QPS, 1 concurrency)"},
		{"reject under concurrency", PerValueBehavior(BehaviorReject, GradeConcurrency), ""},
		{"rate limiter under QPS", PerValueBehavior(BehaviorRateLimiter, GradeQPS), ""},
		{"rate limiter under concurrency", PerValueBehavior(BehaviorRateLimiter, GradeConcurrency), "rate limiter needs Grade QPS"},
		{"warm-up", PerValueBehavior(1, GradeQPS), "1 is not a param-flow behavior (0 reject, 2 rate limiter)"},
		{"queueing at the bound", QueueingMs(500, 500), ""},
		{"queueing negative", QueueingMs(-1, 500), "-1 must be >= 0"},
		{"queueing over the bound", QueueingMs(501, 500), "501 is more than the 500 ms a caller may be kept waiting (runtime.SetMaxQueueingTime)"},
		{"queueing unbounded", QueueingMs(math.MaxInt32, math.MaxInt64), ""},
		{"interval default", IntervalMs(0, 3_600_000, 1000), ""},
		{"interval max", IntervalMs(3_600_000, 3_600_000, 1000), ""},
		{"interval over", IntervalMs(3_600_001, 3_600_000, 1000), "3600001 must be between 1 and 3600000 (0 means 1000)"},
		{"interval negative", IntervalMs(-1, 3_600_000, 1000), "-1 must be between 1 and 3600000 (0 means 1000)"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// BadNumber refuses exactly what no threshold can be.
func TestBadNumber(t *testing.T) {
	for v, want := range map[float64]bool{0: false, 1.5: false, math.MaxFloat64: false, -0.1: true, math.Inf(1): true, math.Inf(-1): true} {
		if got := BadNumber(v); got != want {
			t.Errorf("BadNumber(%v) = %v, want %v", v, got, want)
		}
	}
	if !BadNumber(math.NaN()) {
		t.Error("BadNumber(NaN) = false")
	}
}

// Counted reports each refused field once, under the caller's spelling,
// and nothing for a valid rule.
func TestCounted(t *testing.T) {
	var got []string
	report := Report(func(field, reason string) { got = append(got, field+": "+reason) })
	names := Names{Resource: "resource", Grade: "grade", Count: "count"}
	report.Counted(names, "r", GradeQPS, 5)
	if len(got) != 0 {
		t.Fatalf("a valid rule reported %q", got)
	}
	report.Counted(names, "", 9, -1)
	want := []string{"resource: is empty", "grade: 9 is not a flow grade (0 QPS, 1 concurrency)", "count: -1 must be a finite number >= 0"}
	if len(got) != len(want) {
		t.Fatalf("reported %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("report %d: %q, want %q", i, got[i], want[i])
		}
	}
}
