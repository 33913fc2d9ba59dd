package rules

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// The zero FlowGrade is QPS, as Java's FlowRule defaults to: a rule built
// in code without a grade admits Count calls per second, even when each
// call ends before the next begins (a concurrency limit would admit them
// all).
func TestZeroFlowGradeLimitsQPS(t *testing.T) {
	clearRuntimeRules(t)
	clock := runtime.NewManualClock(time.Hour)
	runtime.SetClock(clock)
	t.Cleanup(func() { runtime.SetClock(nil) })
	res := runtime.NewResource("zero-grade-qps")
	if err := runtime.LoadRules(runtime.Rules{Flow: []runtime.FlowRule{{Resource: "zero-grade-qps", Count: 3}}}); err != nil {
		t.Fatal(err)
	}
	passed := 0
	for range 5 {
		e, blocked := res.Entry(context.Background())
		if blocked == nil {
			passed++
			e.Exit()
		}
	}
	if passed != 3 {
		t.Fatalf("%d of 5 sequential calls passed in one second, want 3 (QPS 3)", passed)
	}
}

// Sentinel JSON keeps Sentinel's numbers: grade 0 is the thread
// (concurrency) grade, 1 QPS; the writer maps them back.
func TestSentinelGradeNumbers(t *testing.T) {
	s := mustParseText(t, "g-flow.json", `[{"resource": "a", "grade": 0, "count": 2}, {"resource": "b", "grade": 1, "count": 2}, {"resource": "c", "count": 2}]`)
	want := []runtime.FlowGrade{runtime.FlowGradeConcurrency, runtime.FlowGradeQPS, runtime.FlowGradeQPS}
	for i, r := range s.Flow {
		if r.Grade != want[i] {
			t.Errorf("rule %d: grade %d, want %d", i, r.Grade, want[i])
		}
	}
	p := mustParseText(t, "g-param-flow.json", `[{"resource": "a", "grade": 0, "paramIdx": 0, "count": 2}, {"resource": "a", "paramIdx": 0, "count": 2}]`)
	if p.ParamFlow[0].Grade != runtime.FlowGradeConcurrency || p.ParamFlow[1].Grade != runtime.FlowGradeQPS {
		t.Errorf("param-flow grades %d, %d", p.ParamFlow[0].Grade, p.ParamFlow[1].Grade)
	}
	data, err := Encode(Set{Flow: s.Flow[:2]}, FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if a, b, _ := strings.Cut(string(data), `"resource": "b"`); !strings.Contains(a, `"grade": 0`) || !strings.Contains(b, `"grade": 1`) {
		t.Errorf("written grades:\n%s", data)
	}
	toml, _ := Encode(Set{Flow: s.Flow[:2]}, FormatTOML)
	if !strings.Contains(string(toml), `grade = "concurrency"`) || strings.Count(string(toml), "grade") != 1 {
		t.Errorf("TOML:\n%s", toml)
	}
}
