package runtime

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime/internal/hotkeys"
)

// paramSeam builds the checks of rules for one resource, as a load would.
func paramSeam(t *testing.T, rules ...ParamFlowRule) *paramChecks {
	t.Helper()
	if err := ValidateParamFlowRules(rules); err != nil {
		t.Fatal(err)
	}
	idx := make([]int, len(rules))
	for i := range idx {
		idx[i] = i
	}
	return buildParamChecks(nil, nil, rules, idx)
}

// try enters one call with args at the manual clock's time and, if admitted,
// exits it at once; it reports whether the call passed.
func try(pc *paramChecks, clock *ManualClock, args ...ParamArg) bool {
	var h paramHeld
	if pc.enter(&h, args, int64(clock.Now()), 1) != nil {
		return false
	}
	pc.exit(&h, 1)
	return true
}

func passes(pc *paramChecks, clock *ManualClock, n int, args ...ParamArg) int {
	got := 0
	for range n {
		if try(pc, clock, args...) {
			got++
		}
	}
	return got
}

func qps(count float64) ParamFlowRule {
	return ParamFlowRule{Resource: "hot", Grade: FlowGradeQPS, Count: count}
}

// The token bucket is Sentinel's passDefaultLocalCheck: full at first
// sight, refilled only after more than a whole duration since the last
// refill, by passTime·count/duration, capped at count+burst.
func TestParamTokenBucket(t *testing.T) {
	clock := useManualClock(t)
	pc := paramSeam(t, qps(3))
	sku := StringArg("sku-1")
	if got := passes(pc, clock, 4, sku); got != 3 {
		t.Fatalf("first second: %d passes, want 3", got)
	}
	clock.Advance(999 * time.Millisecond)
	if try(pc, clock, sku) {
		t.Fatal("refilled before the duration passed")
	}
	clock.Advance(time.Millisecond) // passTime == 1000: not yet (Sentinel's strict >)
	if try(pc, clock, sku) {
		t.Fatal("refilled at exactly one duration")
	}
	clock.Advance(time.Millisecond)
	if got := passes(pc, clock, 4, sku); got != 3 {
		t.Fatalf("after the refill: %d passes, want 3", got)
	}
	// Another value has its own bucket.
	if got := passes(pc, clock, 4, StringArg("sku-2")); got != 3 {
		t.Fatalf("second value: %d passes, want 3", got)
	}
}

func TestParamBurstAndPartialRefill(t *testing.T) {
	clock := useManualClock(t)
	r := qps(2)
	r.BurstCount = 3
	pc := paramSeam(t, r)
	v := IntArg(42)
	if got := passes(pc, clock, 6, v); got != 5 {
		t.Fatalf("full bucket: %d passes, want count+burst = 5", got)
	}
	// 1.5 s later: 1500·2/1000 = 3 tokens, not a full bucket.
	clock.Advance(1500 * time.Millisecond)
	if got := passes(pc, clock, 6, v); got != 3 {
		t.Fatalf("after 1.5 s: %d passes, want 3", got)
	}
	// 10 s later the refill is capped at count+burst.
	clock.Advance(10 * time.Second)
	if got := passes(pc, clock, 10, v); got != 5 {
		t.Fatalf("after 10 s: %d passes, want 5", got)
	}
}

func TestParamDurationAndAcquire(t *testing.T) {
	clock := useManualClock(t)
	r := qps(4)
	r.DurationInSec = 2
	pc := paramSeam(t, r)
	v := StringArg("v")
	if got := passes(pc, clock, 5, v); got != 4 {
		t.Fatalf("%d passes, want 4", got)
	}
	clock.Advance(1500 * time.Millisecond)
	if try(pc, clock, v) {
		t.Fatal("refilled within the 2 s duration")
	}
	clock.Advance(501 * time.Millisecond)
	if !try(pc, clock, v) {
		t.Fatal("not refilled after the 2 s duration")
	}
	// acquire above count+burst is refused even on a fresh value.
	var h paramHeld
	if pc.enter(&h, []ParamArg{StringArg("w")}, int64(clock.Now()), 5) == nil {
		t.Fatal("acquire 5 of a bucket of 4 passed")
	}
	if pc.enter(&h, []ParamArg{StringArg("w")}, int64(clock.Now()), 4) != nil {
		t.Fatal("acquire 4 of a fresh bucket of 4 refused")
	}
}

func TestParamItems(t *testing.T) {
	clock := useManualClock(t)
	r := qps(2)
	r.Items = []ParamFlowItem{
		{Object: "7", ClassType: "int", Count: 5},
		{Object: "8", ClassType: "long", Count: 0},
		{Object: "9", ClassType: "String", Count: 1},
	}
	pc := paramSeam(t, r)
	// An int item applies to a Go int64 argument (the Java int-vs-long miss).
	if got := passes(pc, clock, 9, IntArg(7)); got != 5 {
		t.Fatalf("item int 7: %d passes, want 5", got)
	}
	if got := passes(pc, clock, 3, UintArg(8)); got != 0 {
		t.Fatalf("item long 8 with count 0: %d passes, want 0", got)
	}
	// A String item does not apply to the integer 9: the rule's count does.
	if got := passes(pc, clock, 3, IntArg(9)); got != 2 {
		t.Fatalf("integer 9: %d passes, want the rule's 2", got)
	}
	if got := passes(pc, clock, 3, StringArg("9")); got != 1 {
		t.Fatalf("string 9: %d passes, want the item's 1", got)
	}
	// Count 0 refuses every value but the items.
	pc0 := paramSeam(t, ParamFlowRule{Resource: "hot", Grade: FlowGradeQPS, Count: 0, Items: []ParamFlowItem{{Object: "ok", Count: 1}}})
	if try(pc0, clock, StringArg("any")) || !try(pc0, clock, StringArg("ok")) {
		t.Fatal("count 0 with an item")
	}
}

// The rate limiter is Sentinel's passThrottleLocalCheck: cost
// 1000·durationInSec/count ms between passes of one value, waiting up to
// MaxQueueingTimeMs (strictly less) through the Clock.
func TestParamRateLimiter(t *testing.T) {
	clock := useManualClock(t)
	r := qps(5) // 200 ms apart
	r.ControlBehavior = BehaviorRateLimiter
	pc := paramSeam(t, r)
	v := StringArg("v")
	if !try(pc, clock, v) {
		t.Fatal("first call refused")
	}
	clock.Advance(100 * time.Millisecond)
	if try(pc, clock, v) {
		t.Fatal("passed 100 ms after the last pass with no queueing")
	}
	clock.Advance(100 * time.Millisecond)
	if !try(pc, clock, v) {
		t.Fatal("refused at its slot")
	}
	if pc.sleeps() {
		t.Fatal("a rate limiter without queueing sleeps")
	}

	// Calls arriving at the same instant: the first passes, the next wait
	// for their slots 200 and 400 ms away while that is less than
	// MaxQueueingTimeMs; a slot exactly MaxQueueingTimeMs away is refused.
	for _, c := range []struct {
		maxQueueMs int
		want       []bool
		sleeps     []time.Duration
	}{
		{500, []bool{true, true, true, false}, []time.Duration{200 * time.Millisecond, 400 * time.Millisecond}},
		{400, []bool{true, true, false}, []time.Duration{200 * time.Millisecond}},
	} {
		r.MaxQueueingTimeMs = c.maxQueueMs
		pc = paramSeam(t, r)
		clock.ResetSleeps()
		at := int64(clock.Now())
		var h paramHeld
		for i, want := range c.want {
			if got := pc.enter(&h, []ParamArg{v}, at, 1) == nil; got != want {
				t.Fatalf("queue %d ms, call %d: passed %v, want %v", c.maxQueueMs, i, got, want)
			}
		}
		if got := clock.Sleeps(); !slices.Equal(got, c.sleeps) {
			t.Fatalf("queue %d ms: sleeps %v, want %v", c.maxQueueMs, got, c.sleeps)
		}
	}
	if !pc.sleeps() {
		t.Fatal("sleeps() false with queueing")
	}
	// DurationInSec stretches the spacing: 3 per 2 s is 667 ms apart.
	r = qps(3)
	r.ControlBehavior, r.DurationInSec = BehaviorRateLimiter, 2
	pc = paramSeam(t, r)
	try(pc, clock, v)
	clock.Advance(666 * time.Millisecond)
	if try(pc, clock, v) {
		t.Fatal("passed before round(2000/3) = 667 ms")
	}
	clock.Advance(time.Millisecond)
	if !try(pc, clock, v) {
		t.Fatal("refused at 667 ms")
	}
}

func TestParamConcurrency(t *testing.T) {
	clock := useManualClock(t)
	pc := paramSeam(t, ParamFlowRule{Resource: "hot", Grade: FlowGradeConcurrency, Count: 2})
	now := int64(clock.Now())
	var a, b, c paramHeld
	v := []ParamArg{StringArg("v")}
	if pc.enter(&a, v, now, 1) != nil || pc.enter(&b, v, now, 1) != nil {
		t.Fatal("first two calls refused")
	}
	if pc.enter(&c, v, now, 1) == nil {
		t.Fatal("third call in flight admitted")
	}
	if try(pc, clock, StringArg("w")) == false {
		t.Fatal("another value refused")
	}
	pc.exit(&a, 1)
	if pc.enter(&c, v, now, 1) != nil {
		t.Fatal("refused after an exit")
	}
	pc.exit(&b, 1)
	pc.exit(&c, 1)
	// A slice argument: every element is held, and a refused element
	// releases the ones before it.
	var d, e paramHeld
	if pc.enter(&d, []ParamArg{StringsArg([]string{"x", "y"})}, now, 1) != nil ||
		pc.enter(&e, []ParamArg{StringArg("y")}, now, 1) != nil {
		t.Fatal("slice admission")
	}
	var f paramHeld
	if pc.enter(&f, []ParamArg{StringsArg([]string{"x", "y"})}, now, 1) == nil {
		t.Fatal("y has two calls in flight, yet admitted")
	}
	if f.one != nil || f.more != nil {
		t.Fatal("refused call still holds values")
	}
	pc.exit(&d, 1)
	pc.exit(&e, 1)
	var g, h2 paramHeld
	if pc.enter(&g, []ParamArg{StringArg("x")}, now, 1) != nil || pc.enter(&h2, []ParamArg{StringArg("x")}, now, 1) != nil {
		t.Fatal("x's places were not released by the refused call")
	}
}

func TestParamSliceElementwise(t *testing.T) {
	clock := useManualClock(t)
	pc := paramSeam(t, qps(1))
	if !try(pc, clock, IntsArg([]int32{1, 2})) {
		t.Fatal("first slice refused")
	}
	if try(pc, clock, IntArg(2)) {
		t.Fatal("2 has spent its token in the slice, yet passed")
	}
	// [3 1]: 1 is spent, so the call is refused; 3's token stays spent, as in Sentinel.
	if try(pc, clock, IntsArg([]int{3, 1})) {
		t.Fatal("slice with a spent element passed")
	}
	if try(pc, clock, IntArg(3)) {
		t.Fatal("the token of an element before the refused one came back")
	}
	if !try(pc, clock, IntsArg([]int{})) {
		t.Fatal("empty slice refused")
	}
}

func TestParamIndex(t *testing.T) {
	clock := useManualClock(t)
	last := qps(0) // refuses every value it reads
	last.ParamIdx = -1
	pc := paramSeam(t, last)
	if try(pc, clock, StringArg("a"), StringArg("b")) {
		t.Fatal("-1 did not read the last argument")
	}
	if !try(pc, clock) {
		t.Fatal("no arguments: the rule must pass")
	}
	second := qps(0)
	second.ParamIdx = 1
	pc = paramSeam(t, second)
	if !try(pc, clock, StringArg("a")) {
		t.Fatal("index beyond the arguments must pass")
	}
	if try(pc, clock, StringArg("a"), IntArg(1)) {
		t.Fatal("index 1 not read")
	}
	far := qps(0)
	far.ParamIdx = -3
	pc = paramSeam(t, far)
	if !try(pc, clock, StringArg("a"), StringArg("b")) {
		t.Fatal("-3 of two arguments must pass")
	}
	// The zero ParamArg is no key: no rule applies to it.
	if !try(paramSeam(t, qps(0)), clock, ParamArg{}) {
		t.Fatal("the zero ParamArg was checked")
	}
}

func TestParamBlockErrorNamesValue(t *testing.T) {
	clock := useManualClock(t)
	r := qps(1)
	r.Resource = "detail"
	pc := paramSeam(t, r)
	try(pc, clock, StringArg("sku-9"))
	var h paramHeld
	be := pc.enter(&h, []ParamArg{StringArg("sku-9")}, int64(clock.Now()), 1)
	if be == nil {
		t.Fatal("second call passed")
	}
	if be.Type() != BlockTypeParamFlow || be.Value() != "sku-9" || be.Resource() != "detail" || !errors.Is(be, ErrBlocked) {
		t.Fatalf("block error %v: type %v value %q resource %q", be, be.Type(), be.Value(), be.Resource())
	}
	if want := "param-flow rule #0 (param 0, QPS 1 per 1s)"; be.Rule() != want {
		t.Fatalf("Rule() = %q, want %q", be.Rule(), want)
	}
	if want := `sentinel: param-flow block on resource detail by param-flow rule #0 (param 0, QPS 1 per 1s) on value "sku-9"`; be.Error() != want {
		t.Fatalf("Error() = %q", be.Error())
	}
	args := []ParamArg{StringArg("sku-9")}
	now := int64(clock.Now())
	allocs := testing.AllocsPerRun(1000, func() {
		if pc.enter(&h, args, now, 1) != be {
			t.Fatal("another error for the same value")
		}
	})
	if allocs != 0 {
		t.Fatalf("steady block allocates %v times", allocs)
	}
}

func TestParamSteadyPassDoesNotAllocate(t *testing.T) {
	clock := useManualClock(t)
	for _, r := range []ParamFlowRule{
		qps(1e9),
		{Resource: "hot", Grade: FlowGradeConcurrency, Count: 10},
		{Resource: "hot", Grade: FlowGradeQPS, Count: 1e6, ControlBehavior: BehaviorRateLimiter},
	} {
		pc := paramSeam(t, r)
		args := []ParamArg{StringArg("sku-1")}
		try(pc, clock, args...)
		allocs := testing.AllocsPerRun(1000, func() {
			clock.Advance(time.Millisecond)
			var h paramHeld
			if pc.enter(&h, args, int64(clock.Now()), 1) != nil {
				t.Fatal("refused")
			}
			pc.exit(&h, 1)
		})
		if allocs != 0 {
			t.Fatalf("%s: pass allocates %v times", r.describe(0), allocs)
		}
	}
}

func TestParamValuesBoundedEvictedComesBackFull(t *testing.T) {
	clock := useManualClock(t)
	pc := paramSeam(t, qps(1))
	tb := pc.rules[0].table
	if tb.Capacity() != 4000 {
		t.Fatalf("capacity %d, want min(4000·1, 200000)", tb.Capacity())
	}
	try(pc, clock, IntArg(-1)) // spends -1's token
	if try(pc, clock, IntArg(-1)) {
		t.Fatal("second call passed")
	}
	for i := range 8000 {
		try(pc, clock, IntArg(int64(i)))
	}
	if tb.Len() != 4000 {
		t.Fatalf("%d values tracked, want 4000", tb.Len())
	}
	if !try(pc, clock, IntArg(-1)) {
		t.Fatal("evicted value did not come back with a full bucket")
	}
	for _, c := range []struct{ d, want int }{{2, 8000}, {50, 200000}, {100, 200000}} {
		r := qps(1)
		r.DurationInSec = c.d
		if got := paramSeam(t, r).rules[0].table.Capacity(); got != c.want {
			t.Errorf("DurationInSec %d: capacity %d, want %d", c.d, got, c.want)
		}
	}
}

func TestParamReloadKeepsUnchangedRules(t *testing.T) {
	clock := useManualClock(t)
	a, b := qps(1), qps(2)
	b.ParamIdx = 1
	rules := []ParamFlowRule{a, b}
	old := buildParamChecks(nil, nil, rules, []int{0, 1})
	args := []ParamArg{StringArg("x"), StringArg("y")}
	try(old, clock, args...) // x spends its one token of rule a
	// Reload: a moves to index 1 unchanged, b changes.
	b2 := b
	b2.Count = 3
	next := buildParamChecks(nil, old, []ParamFlowRule{b2, a}, []int{0, 1})
	var h paramHeld
	be := next.enter(&h, args, int64(clock.Now()), 1)
	if be == nil || be.Value() != "x" {
		t.Fatalf("unchanged rule lost its state: %v", be)
	}
	if want := "param-flow rule #1 (param 0, QPS 1 per 1s)"; be.Rule() != want {
		t.Fatalf("reused rule names %q, want %q", be.Rule(), want)
	}
	if next.rules[0].table == old.rules[1].table {
		t.Fatal("changed rule kept its table")
	}
	if buildParamChecks(nil, old, rules, nil) != nil {
		t.Fatal("no rules: want nil checks")
	}
	if (*paramChecks)(nil).enter(&h, args, 0, 1) != nil {
		t.Fatal("nil checks refused a call")
	}
}

// Callers racing on one value share its budget exactly: count+burst passes
// in one period, whatever the interleaving of the CAS loops.
func TestParamConcurrentCallersShareBudget(t *testing.T) {
	clock := useManualClock(t)
	r := qps(500)
	r.BurstCount = 100
	pc := paramSeam(t, r)
	cr := ParamFlowRule{Resource: "hot", Grade: FlowGradeConcurrency, Count: 3}
	pcc := paramSeam(t, cr)
	var passed, maxIn, in atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := []ParamArg{StringArg("hot"), IntArg(int64(g))}
			for range 200 {
				var h paramHeld
				if pc.enter(&h, args[:1], int64(clock.Now()), 1) == nil {
					passed.Add(1)
				}
				if pcc.enter(&h, args[:1], int64(clock.Now()), 1) == nil {
					n := in.Add(1)
					for m := maxIn.Load(); n > m && !maxIn.CompareAndSwap(m, n); m = maxIn.Load() {
					}
					in.Add(-1)
					pcc.exit(&h, 1)
				}
			}
		}()
	}
	wg.Wait()
	if passed.Load() != 600 {
		t.Fatalf("%d passes, want count+burst = 600", passed.Load())
	}
	if maxIn.Load() > 3 {
		t.Fatalf("%d calls in flight at once, limit 3", maxIn.Load())
	}
}

func TestParamDescribe(t *testing.T) {
	cases := []struct {
		r    ParamFlowRule
		want string
	}{
		{ParamFlowRule{Grade: FlowGradeQPS, Count: 10.5, DurationInSec: 1, BurstCount: 2}, "param-flow rule #3 (param 0, QPS 10.5 per 1s, burst 2)"},
		{ParamFlowRule{Grade: FlowGradeConcurrency, Count: 4, ParamIdx: -1}, "param-flow rule #3 (param -1, concurrency 4)"},
		{ParamFlowRule{Grade: FlowGradeQPS, Count: 5, DurationInSec: 2, ControlBehavior: BehaviorRateLimiter, MaxQueueingTimeMs: 100,
			Items: []ParamFlowItem{{Object: "a"}}}, "param-flow rule #3 (param 0, rate limiter 5 per 2s, queue 100ms, 1 items)"},
		{ParamFlowRule{Grade: FlowGradeQPS, Count: 5, DurationInSec: 1, ClusterMode: true, ClusterConfig: ClusterConfig{FlowID: 9}},
			"param-flow rule #3 (param 0, QPS 5 per 1s, cluster flow 9)"},
	}
	for _, c := range cases {
		if got := c.r.describe(3); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// A value with calls in flight is not evicted, or its count would be lost
// and its limit exceeded.
func TestParamInFlightValueNotEvicted(t *testing.T) {
	clock := useManualClock(t)
	pc := paramSeam(t, ParamFlowRule{Resource: "hot", Grade: FlowGradeConcurrency, Count: 1})
	var held paramHeld
	busy := []ParamArg{StringArg("busy")}
	if pc.enter(&held, busy, int64(clock.Now()), 1) != nil {
		t.Fatal("first call refused")
	}
	for i := range 3 * maxParamThreadValues {
		try(pc, clock, IntArg(int64(i)))
	}
	var h paramHeld
	if pc.enter(&h, busy, int64(clock.Now()), 1) == nil {
		t.Fatal("busy value was evicted: a second call in flight admitted")
	}
	pc.exit(&held, 1)
}

// A tracked value's node stays in the 80-byte size class (see hotkeys.Node):
// growing it costs 16 bytes per value, 1.5 MiB per 100k values.
func TestParamValueNodeSize(t *testing.T) {
	if s := reflect.TypeFor[hotkeys.Node[paramValue]]().Size(); s > 80 {
		t.Fatalf("node of a tracked value is %d bytes, more than 80", s)
	}
}

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
// are timed from there. Were the value recorded at the refused call, the
// last call would come 3.5 s after that first sight, past the 3 s
// duration, and be refilled.
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

// paramBlockErrors is the param-flow entries of r.BlockErrors.
func paramBlockErrors(r *Resource) []*BlockError {
	var out []*BlockError
	for _, e := range r.BlockErrors(nil) {
		if e.Type() == BlockTypeParamFlow {
			out = append(out, e)
		}
	}
	return out
}

// Param-flow blocks are counted under their rule: BlockErrors lists one
// error per param-flow rule (in load order, after the breakers) whose
// Blocked is the rule's blocks over all its values, times their acquire
// counts, while each refused value's own error still names the value. A
// reload that keeps the rule at its index keeps the error and its count;
// a changed rule counts from zero.
func TestParamBlocksCountedUnderTheirRule(t *testing.T) {
	useManualClock(t)
	name := uniqueName(t, "detail")
	res := NewResource(name)
	flow := FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 100}
	byString := ParamFlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1}
	byInt := ParamFlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1, ParamIdx: 1}
	rules := Rules{Flow: []FlowRule{flow}, ParamFlow: []ParamFlowRule{byString, byInt}}
	mustLoad(t, rules)
	errs := paramBlockErrors(res)
	if len(errs) != 2 {
		t.Fatalf("BlockErrors lists %d param-flow errors, want 2: %v", len(errs), res.BlockErrors(nil))
	}
	if all := res.BlockErrors(nil); all[0].Type() != BlockTypeFlow || all[1] != errs[0] || all[2] != errs[1] {
		t.Fatalf("BlockErrors order %v, want the flow rule's, then the param-flow rules' in load order", all)
	}
	if errs[0].Rule() != "param-flow rule #0 (param 0, QPS 1 per 1s)" || errs[1].Rule() != "param-flow rule #1 (param 1, QPS 1 per 1s)" {
		t.Fatalf("rules %q, %q", errs[0].Rule(), errs[1].Rule())
	}
	if errs[0].Value() != "" || errs[0].Blocked() != 0 {
		t.Fatalf("rule error before any block: value %q, Blocked %d", errs[0].Value(), errs[0].Blocked())
	}

	ctx := context.Background()
	enter := func(acquire int64, args ...ParamArg) *BlockError {
		var e Entry
		if be := res.EntryArgsTo(&e, ctx, args, AcquireCount(int(acquire))); be != nil {
			return be
		}
		e.Exit()
		return nil
	}
	// Values a and b each pass once under rule #0, then are refused: a
	// twice, b once with acquire 3. c is refused by rule #1 on int 7.
	var perValue []*BlockError
	for _, c := range []struct {
		acquire int64
		s       string
		n       int64
		blocked bool
	}{
		{1, "a", 1, false}, {1, "a", 2, true}, {1, "a", 3, true},
		{1, "b", 4, false}, {3, "b", 5, true},
		{1, "c", 7, false}, {1, "d", 7, true},
	} {
		be := enter(c.acquire, StringArg(c.s), IntArg(c.n))
		if (be != nil) != c.blocked {
			t.Fatalf("call %q/%d: block %v, want blocked %v", c.s, c.n, be, c.blocked)
		}
		if be != nil {
			perValue = append(perValue, be)
		}
	}
	if perValue[0].Value() != "a" || perValue[2].Value() != "b" || perValue[3].Value() != "7" {
		t.Fatalf("per-value errors name %q %q %q", perValue[0].Value(), perValue[2].Value(), perValue[3].Value())
	}
	if got := errs[0].Blocked(); got != 5 {
		t.Errorf("rule #0 Blocked() = %d, want 5 (a twice, b with acquire 3)", got)
	}
	if got := errs[1].Blocked(); got != 1 {
		t.Errorf("rule #1 Blocked() = %d, want 1", got)
	}
	if got := perValue[0].Blocked(); got != 2 {
		t.Errorf("value a's error Blocked() = %d, want 2", got)
	}

	// Reload: the flow rule changes, both param rules stay at their index.
	rules.Flow[0].Count = 200
	mustLoad(t, rules)
	if now := paramBlockErrors(res); len(now) != 2 || now[0] != errs[0] || now[0].Blocked() != 5 || now[1] != errs[1] {
		t.Fatalf("after a reload keeping the param rules, errors %v (Blocked %d), want the same with 5", now, now[0].Blocked())
	}
	if be := enter(1, StringArg("a"), IntArg(9)); be != perValue[0] || errs[0].Blocked() != 6 {
		t.Fatalf("after the reload: a refused by %p (want %p), rule Blocked %d, want 6", be, perValue[0], errs[0].Blocked())
	}
	// A changed rule gets a new error counting from zero.
	rules.ParamFlow[0].Count = 2
	mustLoad(t, rules)
	if now := paramBlockErrors(res); now[0] == errs[0] || now[0].Blocked() != 0 || now[1] != errs[1] {
		t.Fatalf("after changing rule #0: %v, Blocked %d", now, now[0].Blocked())
	}
}
