package genericfunc

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"example.com/golden/ruletest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

type celsius float64

func TestGenericFunctionsAdmitted(t *testing.T) {
	ruletest.UseFlow(t)
	got, err := GuardedMap(context.Background(), []int{1, 2}, strconv.Itoa)
	if err != nil || len(got) != 2 || got[1] != "2" {
		t.Fatalf("GuardedMap = %q, %v; want [1 2]", got, err)
	}
	if got, err := GuardedMap(context.Background(), []int(nil), strconv.Itoa); got == nil || len(got) != 0 || err != ErrEmpty {
		t.Fatalf("GuardedMap(nil) = %#v, %v; want the fallback's empty slice and ErrEmpty", got, err)
	}
	if s, err := GuardedSum([]celsius{1.5, 2}); s != 3.5 || err != nil {
		t.Fatalf("GuardedSum = %v, %v; want 3.5", s, err)
	}
	if m, err := GuardedMax("a", "b"); m != "b" || err != nil {
		t.Fatalf("GuardedMax = %q, %v; want b", m, err)
	}
}

func TestGenericFunctionsBlocked(t *testing.T) {
	ruletest.UseFlow(t,
		runtime.FlowRule{Resource: "genericfunc.map", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "genericfunc.sum", Grade: runtime.FlowGradeQPS, Count: 0},
		runtime.FlowRule{Resource: "genericfunc.max", Grade: runtime.FlowGradeQPS, Count: 0})
	if got, err := GuardedMap(context.Background(), []int{1}, strconv.Itoa); len(got) != 0 || !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked GuardedMap = %q, %v; want the fallback given the block error", got, err)
	}
	if s, err := GuardedSum([]int64{1, 2}); s != -1 || err != nil {
		t.Fatalf("blocked GuardedSum = %v, %v; want the blockHandler's -1", s, err)
	}
	if m, err := GuardedMax(3, 4); m != 0 || !errors.Is(err, runtime.ErrBlocked) {
		t.Fatalf("blocked GuardedMax = %v, %v; want 0 and the block error", m, err)
	}
}
