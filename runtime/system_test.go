package runtime

import (
	"errors"
	"math"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/internal/sysreadings"
	"github.com/sentinelgen/sentinelgen/runtime/internal/sysstat"
)

// unset is a SystemRule with every threshold unset, for tests to set one.
var unset = SystemRule{HighestSystemLoad: -1, HighestCPUUsage: -1, QPS: -1, AvgRT: -1, MaxThread: -1}

// useInjectedReadings makes the sampler read nothing, so that the readings
// are whatever the test sets with sysreadings.Sampled.
func useInjectedReadings(t *testing.T) {
	t.Helper()
	prev := sampleSource
	sampleSource = func() func() (float64, float64, bool) {
		return func() (float64, float64, bool) { return 0, 0, false }
	}
	t.Cleanup(func() { sampleSource = prev })
}

// needReadings skips tests of load and CPU thresholds where the runtime
// cannot read them (TestSystemUnsupportedElsewhere covers those platforms).
func needReadings(t *testing.T) {
	if !sysstat.Supported() {
		t.Skip("no load or CPU readings on " + goruntime.GOOS)
	}
}

// Where the runtime cannot read load and CPU, rules using them are refused.
func TestSystemUnsupportedElsewhere(t *testing.T) {
	if sysstat.Supported() {
		t.Skip("readings supported on " + goruntime.GOOS)
	}
	rule := unset
	rule.HighestCPUUsage = 0.5
	rule.HighestSystemLoad = 3
	err := ValidateSystemRules([]SystemRule{rule})
	if err == nil || !strings.Contains(err.Error(), "unsupported on "+goruntime.GOOS) {
		t.Fatalf("%v, want load and CPU unsupported", err)
	}
}

func mustLoadSystem(t *testing.T, rules ...SystemRule) {
	t.Helper()
	if err := LoadSystemRules(rules); err != nil {
		t.Fatal(err)
	}
}

func inboundResource(t *testing.T) *Resource {
	return NewResource(uniqueName(t, "in"), WithTrafficType(TrafficInbound))
}

func TestSystemQPSInboundOnly(t *testing.T) {
	clock := useManualClock(t)
	useInjectedReadings(t)
	in, in2, out := inboundResource(t), inboundResource(t), NewResource(uniqueName(t, "out"))
	rule := unset
	rule.QPS = 3
	mustLoadSystem(t, rule)
	if got := admitted(in, clock, nil, 2) + admitted(in2, clock, nil, 2); got != 3 {
		t.Fatalf("%d inbound calls admitted over two resources, want 3 (the aggregate)", got)
	}
	_, be := call(in, clock, 0, nil)
	if be == nil || be.Type() != BlockTypeSystem || be.Rule() != "system qps 3" || !errors.Is(be, ErrBlocked) {
		t.Fatalf("block %v, want system qps 3", be)
	}
	if !strings.Contains(be.Error(), in.Name()) {
		t.Errorf("%q does not name the resource", be.Error())
	}
	if got := admitted(out, clock, nil, 10); got != 10 {
		t.Errorf("outbound resource: %d of 10 admitted, want all", got)
	}
	clock.Advance(time.Second)
	if got := admitted(in, clock, nil, 5); got != 3 {
		t.Errorf("next second: %d admitted, want 3", got)
	}
}

// Thresholds combine by minimum over the rules; a rule with nothing set,
// wherever it stands, does not switch protection off (Sentinel's last-rule
// switch is not copied).
func TestSystemRulesCombineByMinimum(t *testing.T) {
	clock := useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	a, b := unset, unset
	a.QPS, b.QPS = 5, 2
	mustLoadSystem(t, a, b, unset)
	if got := admitted(in, clock, nil, 5); got != 2 {
		t.Fatalf("%d admitted, want 2 (the lower QPS)", got)
	}
	g := combineSystemRules([]SystemRule{{HighestSystemLoad: 4, HighestCPUUsage: 0.9, QPS: -1, AvgRT: 50, MaxThread: 10}, {HighestSystemLoad: 2, HighestCPUUsage: -1, QPS: 7, AvgRT: -1, MaxThread: 20}})
	if g.load != 2 || g.cpu != 0.9 || g.qps != 7 || g.avgRt != 50 || g.maxThread != 10 {
		t.Errorf("combined load %v cpu %v qps %v rt %v threads %v", g.load, g.cpu, g.qps, g.avgRt, g.maxThread)
	}
	if combineSystemRules([]SystemRule{unset, unset}) != nil {
		t.Error("rules that set nothing switched protection on")
	}
}

func TestSystemMaxThread(t *testing.T) {
	clock := useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	rule := unset
	rule.MaxThread = 1
	mustLoadSystem(t, rule)
	e1, be := in.Entry(nil)
	if be != nil {
		t.Fatal(be)
	}
	// Sentinel: curThread > maxThread blocks, so one in flight at 1 passes.
	e2, be := in.Entry(nil)
	if be != nil {
		t.Fatalf("second call refused with one in flight: %v", be)
	}
	if _, be := in.Entry(nil); be == nil || be.Rule() != "system thread 1" {
		t.Fatalf("third call: %v, want system thread 1", be)
	}
	e1.Exit()
	e2.Exit()
	if ok, be := call(in, clock, 0, nil); !ok {
		t.Fatalf("refused after the calls ended: %v", be)
	}
}

func TestSystemAvgRT(t *testing.T) {
	clock := useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	rule := unset
	rule.AvgRT = 10
	mustLoadSystem(t, rule)
	call(in, clock, 30*time.Millisecond, nil)
	if _, be := call(in, clock, 0, nil); be == nil || be.Rule() != "system rt 10" {
		t.Fatalf("after a 30 ms call: %v, want system rt 10", be)
	}
	clock.Advance(time.Second)
	if ok, be := call(in, clock, 0, nil); !ok {
		t.Fatalf("refused once the slow call left the window: %v", be)
	}
}

// Load over its threshold blocks only when BBR says the calls in flight
// exceed what the best throughput times the least response time serves.
func TestSystemLoadWithBBR(t *testing.T) {
	needReadings(t)
	useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	rule := unset
	rule.HighestSystemLoad = 1
	mustLoadSystem(t, rule)
	sysreadings.Sampled(5, -1)
	// A call with at most one other in flight never trips BBR
	// (curThread > 1); these two end after 100 ms.
	first, be := in.Entry(nil)
	if be != nil {
		t.Fatalf("a lone call refused: %v", be)
	}
	second, be := in.Entry(nil)
	if be != nil {
		t.Fatalf("a call with one in flight refused: %v", be)
	}
	endAfter100ms(&first)
	endAfter100ms(&second)
	// 8 more calls of 100 ms succeed in this bucket: maxSuccessQps 20,
	// minRt 100 ms, so BBR allows 2 in flight.
	for range 8 {
		e, be := in.Entry(nil)
		if be != nil {
			t.Fatal(be)
		}
		endAfter100ms(&e)
	}
	held := make([]Entry, 0, 3)
	for range 2 {
		e, be := in.Entry(nil)
		if be != nil {
			t.Fatalf("call with %d in flight refused: %v", len(held), be)
		}
		held = append(held, e)
	}
	// The calls in flight end with the test: the inbound aggregate is the
	// process's, and later tests count its calls in flight.
	defer func() {
		for i := range held {
			held[i].Exit()
		}
	}()
	e, be := in.Entry(nil)
	if be != nil {
		t.Fatalf("with 2 in flight (BBR 20·100/1000 = 2): %v, want a pass", be)
	}
	held = append(held, e)
	// That third call is in flight now too (3 > 2): the next is refused.
	if _, be := in.Entry(nil); be == nil || be.Rule() != "system load 1" {
		t.Fatalf("with 3 in flight: %v, want system load 1", be)
	}
	// Load under the threshold: no block whatever is in flight.
	sysreadings.Sampled(0.5, -1)
	e, be = in.Entry(nil)
	if be != nil {
		t.Fatalf("load under threshold refused: %v", be)
	}
	held = append(held, e)
}

func TestSystemCPU(t *testing.T) {
	needReadings(t)
	clock := useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	rule := unset
	rule.HighestCPUUsage = 0.5
	mustLoadSystem(t, rule)
	sysreadings.Sampled(-1, 0.4)
	if ok, be := call(in, clock, 0, nil); !ok {
		t.Fatalf("refused at CPU 0.4: %v", be)
	}
	sysreadings.Sampled(-1, 0.6)
	if _, be := call(in, clock, 0, nil); be == nil || be.Rule() != "system cpu 0.5" {
		t.Fatalf("at CPU 0.6: %v, want system cpu 0.5", be)
	}
}

// Sentinel's order: qps, thread, rt, load, cpu; the first tripped names
// the block.
func TestSystemCheckOrder(t *testing.T) {
	needReadings(t)
	clock := useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	mustLoadSystem(t, SystemRule{HighestSystemLoad: 0.5, HighestCPUUsage: 0.5, QPS: 0.5, AvgRT: 1, MaxThread: 1})
	sysreadings.Sampled(1, 1)
	if _, be := call(in, clock, 0, nil); be == nil || be.Rule() != "system qps 0.5" {
		t.Fatalf("%v, want qps first", be)
	}
	mustLoadSystem(t, SystemRule{HighestSystemLoad: 0.5, HighestCPUUsage: 0.5, QPS: -1, AvgRT: -1, MaxThread: -1})
	sysreadings.Sampled(1, 1)
	if _, be := call(in, clock, 0, nil); be == nil || be.Rule() != "system cpu 0.5" {
		// One call in flight passes BBR, so load lets it through.
		t.Fatalf("%v, want cpu (load passes a lone call by BBR)", be)
	}
}

// The sampler runs only while a system rule is in force, and an outbound
// resource pays nothing for protection it is not subject to.
func TestSystemSamplerLifecycle(t *testing.T) {
	useManualClock(t)
	useInjectedReadings(t)
	if systemSamplerRunning() {
		t.Fatal("sampler running without a system rule")
	}
	rule := unset
	rule.QPS = 100
	mustLoadSystem(t, rule)
	if !systemSamplerRunning() {
		t.Fatal("sampler not running with a system rule")
	}
	rule.QPS = 50
	mustLoadSystem(t, rule)
	if !systemSamplerRunning() {
		t.Fatal("sampler stopped by a reload that keeps a system rule")
	}
	mustLoadSystem(t)
	if systemSamplerRunning() || systemGuard.Load() != nil {
		t.Fatal("protection still on after loading no system rule")
	}
}

func TestSystemBlockDoesNotAllocate(t *testing.T) {
	useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	rule := unset
	rule.QPS = 0.5 // below one call per second: every call is refused
	mustLoadSystem(t, rule)
	var e Entry
	in.EntryTo(&e, nil)
	if n := testing.AllocsPerRun(200, func() {
		if in.EntryTo(&e, nil) == nil {
			panic("admitted")
		}
	}); n != 0 {
		t.Errorf("%v allocs per blocked call, want 0", n)
	}
}

func TestInvalidSystemRules(t *testing.T) {
	needReadings(t)
	for _, tc := range []struct {
		edit  func(*SystemRule)
		field string
	}{
		{func(r *SystemRule) { r.HighestCPUUsage = 50 }, "HighestCPUUsage"},
		{func(r *SystemRule) { r.QPS = math.NaN() }, "QPS"},
		{func(r *SystemRule) { r.HighestSystemLoad = math.Inf(1) }, "HighestSystemLoad"},
		{func(r *SystemRule) { r.HighestSystemLoad = 0 }, "HighestSystemLoad"},
		{func(r *SystemRule) { r.HighestCPUUsage = 0 }, "HighestCPUUsage"},
		{func(r *SystemRule) { r.QPS = 0 }, "QPS"},
		{func(r *SystemRule) { r.AvgRT = 0 }, "AvgRT"},
		{func(r *SystemRule) { r.MaxThread = 0 }, "MaxThread"},
	} {
		r := unset
		tc.edit(&r)
		err := ValidateSystemRules([]SystemRule{r})
		var re *RuleError
		if !errors.As(err, &re) || re.Kind != "system" || re.Field != tc.field {
			t.Errorf("%+v: %v, want a system error on %s", r, err, tc.field)
		}
	}
	if err := ValidateSystemRules([]SystemRule{unset, {HighestSystemLoad: 2, HighestCPUUsage: 1, QPS: 0.5, AvgRT: 1, MaxThread: 1}}); err != nil {
		t.Errorf("valid rules refused: %v", err)
	}
}

// The zero value of a SystemRule field is a threshold of 0, which would
// refuse every inbound call: SystemRule{QPS: 100} must not pass validation
// silently, and its error must say how to leave a field unset.
func TestSystemRuleZeroThresholdRefused(t *testing.T) {
	err := ValidateSystemRules([]SystemRule{{QPS: 100}})
	if err == nil {
		t.Fatal("SystemRule{QPS: 100} accepted: its zero AvgRT, MaxThread, load and CPU would refuse every inbound call")
	}
	for _, want := range []string{"AvgRT", "MaxThread", "HighestSystemLoad", "HighestCPUUsage", "refuse every inbound call", "-1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "QPS") {
		t.Errorf("error %q names QPS, which is set", err)
	}
}

// endAfter100ms exits e as if it had started 100 ms earlier, without moving
// the clock out of the current bucket.
func endAfter100ms(e *Entry) {
	e.startNs -= int64(100 * time.Millisecond)
	e.Exit()
}

// With the real source, the sampler's first reading comes at once: the load
// average is known right after the load, and forgotten when protection stops.
func TestSystemSamplerReadsMachine(t *testing.T) {
	needReadings(t)
	useManualClock(t)
	rule := unset
	rule.HighestSystemLoad = 1e9
	mustLoadSystem(t, rule)
	deadline := time.Now().Add(5 * time.Second)
	for sysreadings.Load() < 0 {
		if time.Now().After(deadline) {
			t.Fatal("no load reading 5 s after a system rule was loaded")
		}
		time.Sleep(time.Millisecond)
	}
	mustLoadSystem(t)
	if sysreadings.Load() != -1 || sysreadings.CPU() != -1 {
		t.Fatal("readings kept after protection stopped")
	}
}

// A call counted when protection was on is counted out when it ends, even
// after protection went off and on again; calls started while it was off
// are not counted at all.
func TestSystemInFlightAcrossOnOff(t *testing.T) {
	useManualClock(t)
	useInjectedReadings(t)
	in := inboundResource(t)
	base := inboundStats.inFlight.Load()
	rule := unset
	rule.MaxThread = 100
	mustLoadSystem(t, rule)
	counted, _ := in.Entry(nil)
	mustLoadSystem(t)
	uncounted, _ := in.Entry(nil)
	mustLoadSystem(t, rule)
	if got := inboundStats.inFlight.Load() - base; got != 1 {
		t.Fatalf("%d calls in flight, want 1", got)
	}
	counted.Exit()
	uncounted.Exit()
	if got := inboundStats.inFlight.Load() - base; got != 0 {
		t.Fatalf("%d calls in flight after both ended, want 0", got)
	}
}
