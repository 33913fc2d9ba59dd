package runtime

import (
	"context"
	"testing"
	"time"
)

// The pass and block paths must not allocate, with and without options and
// with every kind of check in the rule set.
func TestHotPathsDoNotAllocate(t *testing.T) {
	clock := useManualClock(t)
	pass := NewResource(uniqueName(t, "pass"))
	block := NewResource(uniqueName(t, "block"))
	degraded := NewResource(uniqueName(t, "degraded"))
	chained := NewResource(uniqueName(t, "chained"))
	entrance := uniqueName(t, "entrance")
	if err := LoadRules(Rules{Flow: []FlowRule{
		{Resource: pass.Name(), Grade: FlowGradeQPS, Count: 1e12},
		{Resource: pass.Name(), Grade: FlowGradeConcurrency, Count: 1e12},
		{Resource: pass.Name(), Grade: FlowGradeQPS, Count: 1e12, ControlBehavior: BehaviorWarmUp, WarmUpPeriodSec: 1},
		{Resource: block.Name(), Grade: FlowGradeQPS, Count: 0},
		{Resource: chained.Name(), Grade: FlowGradeQPS, Count: 1e12, Strategy: StrategyChain, RefResource: entrance},
	}, Degrade: []DegradeRule{
		{Resource: pass.Name(), Grade: DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 10},
		{Resource: pass.Name(), Grade: DegradeErrorRatio, Count: 1, TimeWindowSec: 10}, // judges, never opens
		{Resource: degraded.Name(), Grade: DegradeErrorCount, Count: 0, TimeWindowSec: 1000, MinRequestAmount: 1},
	}}); err != nil {
		t.Fatal(err)
	}
	failingCall(degraded, clock)
	ctx := context.Background()
	chainCtx := WithEntrance(ctx, entrance)
	opts := []EntryOption{AcquireCount(1), Prioritized()}
	overCap := []EntryOption{AcquireCount(MaxAcquireCount + 1)}
	cases := map[string]func(){
		"pass": func() {
			e, be := pass.Entry(ctx)
			if be != nil {
				t.Fatal(be)
			}
			clock.Advance(time.Millisecond)
			e.TraceError(errBusiness)
			e.Exit()
		},
		"pass with options": func() {
			e, be := pass.Entry(ctx, opts...)
			if be != nil {
				t.Fatal(be)
			}
			e.Exit()
		},
		"pass through chain": func() {
			e, be := chained.Entry(chainCtx)
			if be != nil {
				t.Fatal(be)
			}
			e.Exit()
		},
		"flow block": func() {
			if _, be := block.Entry(ctx); be == nil {
				t.Fatal("not blocked")
			}
		},
		"refused over the acquire cap": func() {
			if _, be := pass.Entry(ctx, overCap...); be == nil {
				t.Fatal("not blocked")
			}
		},
		"degrade block": func() {
			if _, be := degraded.Entry(ctx); be == nil {
				t.Fatal("not blocked")
			}
		},
	}
	for name, fn := range cases {
		if allocs := testing.AllocsPerRun(200, fn); allocs != 0 {
			t.Errorf("%s: %v allocations per call", name, allocs)
		}
	}
}
