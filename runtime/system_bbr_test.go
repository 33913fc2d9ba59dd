package runtime

import "testing"

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
	systemReadings.set(5, -1)
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
