package runtime

import (
	"testing"
	"time"
)

// enterN enters one call acquiring acquire tokens of args at the manual
// clock's time and exits it at once; it reports whether the call passed.
func enterN(pc *paramChecks, clock *ManualClock, acquire int64, args ...ParamArg) bool {
	var h paramHeld
	if pc.enter(&h, args, int64(clock.Now()), acquire) != nil {
		return false
	}
	pc.exit(&h, acquire)
	return true
}

// A call refused before the bucket is consulted (acquire above
// count+burst) does not record the value, as Sentinel's
// passDefaultLocalCheck returns before timeCounters.putIfAbsent: the
// value's bucket starts at the first call that reaches it, and its refills
// are timed from there. The scenario is the one the conformance replay
// found: with the value recorded at the refused call, the last call came
// 3.5 s after that first sight, past the 3 s duration, and was refilled.
func TestParamRefusedFirstSightDoesNotRecordValue(t *testing.T) {
	clock := useManualClock(t)
	r := qps(1)
	r.DurationInSec = 3
	pc := paramSeam(t, r)
	v := StringArg("sku-1")
	if enterN(pc, clock, 3, v) {
		t.Fatal("acquire 3 of a bucket of 1 passed")
	}
	clock.Advance(1000 * time.Millisecond)
	if !enterN(pc, clock, 1, v) {
		t.Fatal("first call reaching the bucket refused")
	}
	clock.Advance(2500 * time.Millisecond)
	if enterN(pc, clock, 1, v) {
		t.Fatal("refilled 2.5 s after the first pass, within the 3 s duration: refills timed from the refused call")
	}
	clock.Advance(501 * time.Millisecond)
	if !enterN(pc, clock, 1, v) {
		t.Fatal("not refilled 3.001 s after the first pass")
	}
}

// The same holds for a value whose item sets its bucket (count+burst of
// the item), and with a burst: only acquire > count+burst is refused
// before the value is recorded.
func TestParamRefusedFirstSightItemAndBurst(t *testing.T) {
	clock := useManualClock(t)
	r := qps(5)
	r.DurationInSec = 2
	r.BurstCount = 1
	r.Items = []ParamFlowItem{{Object: "7", ClassType: "int", Count: 1}}
	pc := paramSeam(t, r)
	v := IntArg(7)
	if enterN(pc, clock, 3, v) {
		t.Fatal("acquire 3 of the item's bucket of 1+1 passed")
	}
	clock.Advance(1500 * time.Millisecond)
	if !enterN(pc, clock, 2, v) {
		t.Fatal("acquire 2 of a fresh bucket of 2 refused")
	}
	clock.Advance(1000 * time.Millisecond) // 2.5 s after the refused call, 1 s after the first pass
	if enterN(pc, clock, 1, v) {
		t.Fatal("refilled 1 s after the first pass, within the 2 s duration")
	}
}
