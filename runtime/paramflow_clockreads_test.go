package runtime

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// countingClock is a ManualClock that counts its readings.
type countingClock struct {
	*ManualClock
	reads atomic.Int64
}

func (c *countingClock) Nanotime() int64 {
	c.reads.Add(1)
	return c.ManualClock.Nanotime()
}

// readsPerCall loads rules and reports how many clock readings one
// EntryArgsTo/Exit pair takes.
func readsPerCall(t *testing.T, c *countingClock, res *Resource, r Rules) int64 {
	t.Helper()
	mustLoad(t, r)
	var e Entry
	before := c.reads.Load()
	if be := res.EntryArgsTo(&e, context.Background(), []ParamArg{StringArg("k")}); be != nil {
		t.Fatalf("blocked: %v", be)
	}
	e.Exit()
	return c.reads.Load() - before
}

// A param rule that cannot sleep (reject grade, or a rate limiter without a
// queue) leaves the time read before it valid, so the call reads the clock
// as often as one without a param rule; a queueing rate limiter reads it
// again after its check.
func TestParamCheckReadsClockAgainOnlyWhenItMaySleep(t *testing.T) {
	c := &countingClock{ManualClock: NewManualClock(testStart)}
	SetClock(c)
	t.Cleanup(func() {
		SetClock(nil)
		if err := LoadRules(Rules{}); err != nil {
			t.Errorf("clearing rules: %v", err)
		}
	})
	res := NewResource(uniqueName(t, "reads"))
	flow := []FlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 1e9}}
	plain := readsPerCall(t, c, res, Rules{Flow: flow})
	reject := readsPerCall(t, c, res, Rules{Flow: flow,
		ParamFlow: []ParamFlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 1e6}}})
	if reject != plain {
		t.Errorf("reject-grade param rule: %d clock reads per call, want %d (as without it)", reject, plain)
	}
	c.Advance(time.Second)
	queued := readsPerCall(t, c, res, Rules{Flow: flow,
		ParamFlow: []ParamFlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 1e6,
			ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: 500}}})
	if queued != plain+1 {
		t.Errorf("queueing param rule: %d clock reads per call, want %d", queued, plain+1)
	}
}
