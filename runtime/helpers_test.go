package runtime

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// testStart is where manual clocks start: a whole second, so tests can reason
// in offsets from it.
const testStart = 1000 * time.Second

var resourceSeq atomic.Int64

// uniqueName returns a resource name no other test uses: the registry is
// process-wide.
func uniqueName(t *testing.T, base string) string {
	return t.Name() + "/" + base + "#" + time.Duration(resourceSeq.Add(1)).String()
}

// useManualClock installs a manual clock at testStart and clears all rules
// when the test ends.
func useManualClock(t *testing.T) *ManualClock {
	t.Helper()
	c := NewManualClock(testStart)
	SetClock(c)
	t.Cleanup(func() {
		SetClock(nil)
		if err := LoadRules(Rules{}); err != nil {
			t.Errorf("clearing rules: %v", err)
		}
	})
	return c
}

func mustLoadFlow(t *testing.T, rules ...FlowRule) {
	t.Helper()
	if err := LoadFlowRules(rules); err != nil {
		t.Fatal(err)
	}
}

func mustLoadDegrade(t *testing.T, rules ...DegradeRule) {
	t.Helper()
	if err := LoadDegradeRules(rules); err != nil {
		t.Fatal(err)
	}
}

// call makes one guarded call that lasts rt (advancing clock) and fails with
// err; it reports whether the call was admitted.
func call(r *Resource, clock *ManualClock, rt time.Duration, err error) (bool, *BlockError) {
	return callCtx(context.Background(), r, clock, rt, err)
}

func callCtx(ctx context.Context, r *Resource, clock *ManualClock, rt time.Duration, err error, opts ...EntryOption) (bool, *BlockError) {
	e, be := r.Entry(ctx, opts...)
	if be != nil {
		return false, be
	}
	clock.Advance(rt)
	e.TraceError(err)
	e.Exit()
	return true, nil
}

// passesPerSecond sends perSecond calls spread evenly over each of seconds
// seconds and returns how many passed in each second.
func passesPerSecond(r *Resource, clock *ManualClock, seconds, perSecond int) []int {
	out := make([]int, seconds)
	step := time.Second / time.Duration(perSecond)
	for s := range seconds {
		secondStart := clock.Now().Truncate(time.Second)
		for i := range perSecond {
			clock.Set(secondStart + time.Duration(i)*step)
			if ok, _ := call(r, clock, 0, nil); ok {
				out[s]++
			}
		}
		clock.Set(secondStart + time.Second)
	}
	return out
}

var errBusiness = errors.New("business failure")
