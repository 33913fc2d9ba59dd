package runtime

import (
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/sysreadings"
)

// With no call ended in the window, BBR's estimate is Sentinel's floor, not
// zero: ArrayMetric.maxSuccess is at least 1 (a maxSuccessQps of 2 with two
// buckets) and minRt is statisticMaxRt (5000 ms), so up to 10 calls in
// flight pass while the load is over its threshold; the 12th call, with 11
// in flight, is refused.
func TestSystemLoadBBRFloorWithoutSuccess(t *testing.T) {
	needReadings(t)
	useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	rule := unset
	rule.HighestSystemLoad = 1
	mustLoadSystem(t, rule)
	sysreadings.Sampled(5, -1)
	held := make([]Entry, 0, 11)
	defer func() {
		for i := range held {
			held[i].Exit()
		}
	}()
	for range 11 {
		e, be := in.Entry(nil)
		if be != nil {
			t.Fatalf("with %d in flight and no call ended: %v, want a pass (BBR floor 1·2·5000/1000 = 10)", len(held), be)
		}
		held = append(held, e)
	}
	if _, be := in.Entry(nil); be == nil || be.Rule() != "system load 1" {
		t.Fatalf("with 11 in flight: %v, want system load 1", be)
	}
}

// A batch call (AcquireCount) adds its response time once and its count to
// the successes, as Sentinel's StatisticNode.addRtAndSuccess does for the
// inbound entry node: one 30 ms call of 3 items averages 10 ms, which a
// 10 ms AvgRT threshold lets through.
func TestSystemAvgRTBatchCountsTimeOnce(t *testing.T) {
	clock := useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	rule := unset
	rule.AvgRT = 10
	mustLoadSystem(t, rule)
	var e Entry
	if be := in.EntryTo(&e, nil, AcquireCount(3)); be != nil {
		t.Fatal(be)
	}
	clock.Advance(30 * time.Millisecond)
	e.Exit()
	if ok, be := call(in, clock, 0, nil); !ok {
		t.Fatalf("after a 30 ms batch of 3 (mean 10 ms): %v, want a pass", be)
	}
	// A 40 ms call more: (30+0+40) ms over 3+1+1 successes is 14 ms.
	call(in, clock, 40*time.Millisecond, nil)
	if _, be := call(in, clock, 0, nil); be == nil || be.Rule() != "system rt 10" {
		t.Fatalf("mean 14 ms: %v, want system rt 10", be)
	}
}
