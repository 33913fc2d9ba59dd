package runtime

import (
	"context"
	"sync"
	"testing"
	"time"
)

// recordBreakerEvents collects state changes of one resource until the test
// ends.
func recordBreakerEvents(t *testing.T, resource string) func() []BreakerEvent {
	var mu sync.Mutex
	var events []BreakerEvent
	unregister := OnBreakerStateChange(func(ev BreakerEvent) {
		if ev.Resource != resource {
			return
		}
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	})
	t.Cleanup(unregister)
	return func() []BreakerEvent {
		mu.Lock()
		defer mu.Unlock()
		return append([]BreakerEvent(nil), events...)
	}
}

func wantTransitions(t *testing.T, events []BreakerEvent, want ...BreakerState) {
	t.Helper()
	if len(events) != len(want)-1 {
		t.Fatalf("%d events %v, want transitions %v", len(events), events, want)
	}
	for i, ev := range events {
		if ev.From != want[i] || ev.To != want[i+1] {
			t.Fatalf("event %d: %v -> %v, want %v -> %v", i, ev.From, ev.To, want[i], want[i+1])
		}
	}
}

// breakerCase drives one breaker grade through its whole cycle.
type breakerCase struct {
	name string
	rule DegradeRule
	// bad and good make one call that the breaker judges bad or good.
	bad, good func(r *Resource, clock *ManualClock) bool
	// badToOpen is how many bad calls (after enough good ones to reach the
	// minimum) open the breaker.
	openValue float64
}

func slowCall(r *Resource, c *ManualClock) bool {
	ok, _ := call(r, c, 200*time.Millisecond, nil)
	return ok
}
func fastCall(r *Resource, c *ManualClock) bool {
	ok, _ := call(r, c, 10*time.Millisecond, nil)
	return ok
}
func failingCall(r *Resource, c *ManualClock) bool {
	ok, _ := call(r, c, 0, errBusiness)
	return ok
}
func okCall(r *Resource, c *ManualClock) bool { ok, _ := call(r, c, 0, nil); return ok }

func TestBreakerCycles(t *testing.T) {
	cases := []breakerCase{
		{name: "slow ratio", rule: DegradeRule{Grade: DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 5},
			bad: slowCall, good: fastCall, openValue: 3.0 / 5},
		{name: "error ratio", rule: DegradeRule{Grade: DegradeErrorRatio, Count: 0.5, TimeWindowSec: 5},
			bad: failingCall, good: okCall, openValue: 3.0 / 5},
		{name: "error count", rule: DegradeRule{Grade: DegradeErrorCount, Count: 2, TimeWindowSec: 5},
			bad: failingCall, good: okCall, openValue: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clock := useManualClock(t)
			r := NewResource(uniqueName(t, "breaker"))
			rule := tc.rule
			rule.Resource = r.Name()
			mustLoadDegrade(t, rule)
			events := recordBreakerEvents(t, r.Name())

			// Below MinRequestAmount (5) nothing is judged: four bad calls.
			for range 4 {
				if !tc.bad(r, clock) {
					t.Fatal("blocked before the minimum request amount")
				}
			}
			if len(events()) != 0 || r.BreakerStates()[0] != StateClosed {
				t.Fatalf("judged below the minimum: %v", events())
			}
			// Start over at the start of a fresh interval (the breaker's
			// window is one fixed bucket of 1 s): 2 good, then bad until open.
			clock.Set(clock.Now().Truncate(time.Second) + 2*time.Second)
			tc.good(r, clock)
			tc.good(r, clock)
			tc.bad(r, clock)
			tc.bad(r, clock)
			if len(events()) != 0 {
				t.Fatalf("opened at 2 bad of 4: %v", events())
			}
			tc.bad(r, clock) // 3 bad of 5
			ev := events()
			wantTransitions(t, ev, StateClosed, StateOpen)
			if ev[0].Value != tc.openValue || ev[0].Rule.MinRequestAmount != DefaultMinRequestAmount {
				t.Fatalf("open event %+v, want value %v", ev[0], tc.openValue)
			}
			openedAt := clock.Now()

			// OPEN blocks everything for TimeWindowSec.
			_, be := call(r, clock, 0, nil)
			if be == nil || be.Type() != BlockTypeDegrade {
				t.Fatalf("OPEN breaker let a call through or blocked with %v", be)
			}
			clock.Set(openedAt + 5*time.Second - time.Millisecond)
			if ok, _ := call(r, clock, 0, nil); ok {
				t.Fatal("passed before the time window elapsed")
			}

			// HALF_OPEN: one probe; a bad probe re-opens.
			clock.Set(openedAt + 5*time.Second)
			if !tc.bad(r, clock) {
				t.Fatal("probe blocked after the time window")
			}
			wantTransitions(t, events(), StateClosed, StateOpen, StateHalfOpen, StateOpen)
			reopenedAt := clock.Now()
			if ok, _ := call(r, clock, 0, nil); ok {
				t.Fatal("passed right after a failed probe")
			}

			// Next probe is good: CLOSED, and the old statistics are gone.
			clock.Set(reopenedAt + 5*time.Second)
			if !tc.good(r, clock) {
				t.Fatal("second probe blocked")
			}
			wantTransitions(t, events(), StateClosed, StateOpen, StateHalfOpen, StateOpen, StateHalfOpen, StateClosed)
			if r.BreakerStates()[0] != StateClosed {
				t.Fatalf("state %v, want CLOSED", r.BreakerStates()[0])
			}
			for range 2 {
				tc.bad(r, clock)
			}
			if got := len(events()); got != 5 {
				t.Fatalf("re-opened on 2 bad calls after closing: %d events", got)
			}
		})
	}
}

// TestHalfOpenBlocksWhileProbeInFlight: one probe only; completions of calls
// admitted before the breaker opened do not decide.
func TestHalfOpenBlocksWhileProbeInFlight(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "probe"))
	mustLoadDegrade(t, DegradeRule{Resource: r.Name(), Grade: DegradeErrorCount, Count: 0, TimeWindowSec: 1, MinRequestAmount: 1})
	ctx := context.Background()
	straggler, _ := r.Entry(ctx) // admitted while CLOSED, completes later
	failingCall(r, clock)
	if r.BreakerStates()[0] != StateOpen {
		t.Fatal("breaker not open after an error")
	}
	clock.Advance(time.Second)
	probe, be := r.Entry(ctx)
	if be != nil {
		t.Fatalf("probe blocked: %v", be)
	}
	for range 3 {
		if _, be := r.Entry(ctx); be == nil || be.Type() != BlockTypeDegrade {
			t.Fatal("second call passed while the probe is in flight")
		}
	}
	straggler.TraceError(errBusiness)
	straggler.Exit()
	if r.BreakerStates()[0] != StateHalfOpen {
		t.Fatalf("a non-probe completion decided: state %v", r.BreakerStates()[0])
	}
	probe.Exit()
	if r.BreakerStates()[0] != StateClosed {
		t.Fatalf("good probe left state %v", r.BreakerStates()[0])
	}
}

// TestConcurrentProbeIsUnique: many callers racing at the retry time get
// exactly one probe.
func TestConcurrentProbeIsUnique(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "race-probe"))
	mustLoadDegrade(t, DegradeRule{Resource: r.Name(), Grade: DegradeErrorCount, Count: 0, TimeWindowSec: 1, MinRequestAmount: 1})
	failingCall(r, clock)
	clock.Advance(time.Second)
	var mu sync.Mutex
	var admitted []Entry
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if e, be := r.Entry(context.Background()); be == nil {
				mu.Lock()
				admitted = append(admitted, e)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(admitted) != 1 {
		t.Fatalf("%d probes admitted, want 1", len(admitted))
	}
	admitted[0].Exit()
}

// TestFlowCheckedBeforeDegrade: a call blocked by flow never reaches the
// breaker, so it cannot take the probe.
func TestFlowCheckedBeforeDegrade(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "order"))
	if err := LoadRules(Rules{Flow: []FlowRule{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1}}, Degrade: []DegradeRule{{Resource: r.Name(), Grade: DegradeErrorCount, Count: 0, TimeWindowSec: 1, MinRequestAmount: 1}}}); err != nil {
		t.Fatal(err)
	}
	failingCall(r, clock) // opens the breaker
	clock.Advance(time.Second)
	okCall(r, clock) // the probe: uses the QPS slot and closes the breaker
	if r.BreakerStates()[0] != StateClosed {
		t.Fatalf("state %v after a good probe", r.BreakerStates()[0])
	}
	_, be := call(r, clock, 0, nil)
	if be == nil || be.Type() != BlockTypeFlow {
		t.Fatalf("blocked by %v, want the flow rule", be)
	}
}

// TestProbeAbandonedWhenLaterBreakerBlocks: when the first breaker admits a
// probe and the second is OPEN, the first goes back to OPEN instead of
// waiting forever for a probe that never ran.
func TestProbeAbandonedWhenLaterBreakerBlocks(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "two-breakers"))
	mustLoadDegrade(t,
		DegradeRule{Resource: r.Name(), Grade: DegradeErrorCount, Count: 0, TimeWindowSec: 1, MinRequestAmount: 1},
		DegradeRule{Resource: r.Name(), Grade: DegradeErrorCount, Count: 0, TimeWindowSec: 10, MinRequestAmount: 1},
	)
	events := recordBreakerEvents(t, r.Name())
	failingCall(r, clock) // opens both
	clock.Advance(time.Second)
	_, be := call(r, clock, 0, nil)
	if be == nil || be.Rule() != r.rules.Load().degrade[1].blocked.Rule() {
		t.Fatalf("blocked by %v, want the second breaker", be)
	}
	if s := r.BreakerStates(); s[0] != StateOpen || s[1] != StateOpen {
		t.Fatalf("states %v, want both OPEN", s)
	}
	ev := events()
	last := ev[len(ev)-1]
	if last.From != StateHalfOpen || last.To != StateOpen {
		t.Fatalf("last event %v -> %v, want HALF_OPEN -> OPEN", last.From, last.To)
	}
	clock.Advance(time.Second)
	if _, be := call(r, clock, 0, nil); be == nil {
		t.Fatal("passed while the second breaker is still open")
	}
}

// TestUnchangedBreakerSurvivesReload: reloading with the same rule keeps an
// OPEN breaker open; changing the rule starts a fresh CLOSED breaker.
func TestUnchangedBreakerSurvivesReload(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "reload"))
	rule := DegradeRule{Resource: r.Name(), Grade: DegradeErrorCount, Count: 0, TimeWindowSec: 60, MinRequestAmount: 1}
	mustLoadDegrade(t, rule)
	failingCall(r, clock)
	mustLoadFlow(t, FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 100}) // flow reload keeps breakers
	mustLoadDegrade(t, DegradeRule{Resource: uniqueName(t, "other"), Grade: DegradeErrorCount, TimeWindowSec: 1}, rule)
	if s := r.BreakerStates(); len(s) != 1 || s[0] != StateOpen {
		t.Fatalf("states after reload %v, want [OPEN]", s)
	}
	if _, be := call(r, clock, 0, nil); be == nil {
		t.Fatal("passed through a breaker that should have stayed open")
	}
	changed := rule
	changed.TimeWindowSec = 30
	mustLoadDegrade(t, changed)
	if s := r.BreakerStates(); s[0] != StateClosed {
		t.Fatalf("changed rule kept state %v", s[0])
	}
}

// TestBreakerOpensOnGoodCallReachingMinimum: errors seen below the minimum
// request amount count as soon as a good call brings the total up to it.
func TestBreakerOpensOnGoodCallReachingMinimum(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "minimum"))
	mustLoadDegrade(t, DegradeRule{Resource: r.Name(), Grade: DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10})
	for range 3 {
		failingCall(r, clock)
	}
	okCall(r, clock)
	if r.BreakerStates()[0] != StateClosed {
		t.Fatal("opened below the minimum")
	}
	okCall(r, clock) // 3 errors of 5
	if r.BreakerStates()[0] != StateOpen {
		t.Fatal("a good call reaching the minimum with 60% errors did not open the breaker")
	}
}

// TestBreakerWindowIsFixed: a breaker judges one fixed bucket of
// StatIntervalMs, as Sentinel's do (sampleCount 1): calls of the previous
// interval count for nothing once a new interval starts, however recent.
func TestBreakerWindowIsFixed(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "fixed"))
	mustLoadDegrade(t, DegradeRule{Resource: r.Name(), Grade: DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10, MinRequestAmount: 3})
	for range 4 {
		okCall(r, clock)
	}
	clock.Set(testStart + 600*time.Millisecond)
	for range 3 {
		failingCall(r, clock)
	}
	okCall(r, clock) // 3 errors of 8
	if r.BreakerStates()[0] != StateClosed {
		t.Fatal("opened at 3 errors of 8")
	}
	clock.Set(testStart + 1000*time.Millisecond) // a new interval
	okCall(r, clock)
	failingCall(r, clock) // 1 error of 2: below the minimum
	if r.BreakerStates()[0] != StateClosed {
		t.Fatal("judged the errors of the previous interval with the new one's calls")
	}
	failingCall(r, clock) // 2 errors of 3
	if r.BreakerStates()[0] != StateOpen {
		t.Fatal("2 errors of 3 in the new interval did not open the breaker")
	}
}

// TestBreakerStatInterval: a breaker judges over its own StatIntervalMs, so
// errors seconds apart add up within a 10 s interval but not within 1 s.
func TestBreakerStatInterval(t *testing.T) {
	clock := useManualClock(t)
	long, short := NewResource(uniqueName(t, "long")), NewResource(uniqueName(t, "short"))
	mustLoadDegrade(t,
		DegradeRule{Resource: long.Name(), Grade: DegradeErrorCount, Count: 3, TimeWindowSec: 1, MinRequestAmount: 1, StatIntervalMs: 10_000},
		DegradeRule{Resource: short.Name(), Grade: DegradeErrorCount, Count: 3, TimeWindowSec: 1, MinRequestAmount: 1},
	)
	for i := range 4 {
		failingCall(long, clock)
		failingCall(short, clock)
		if i < 3 {
			clock.Advance(2900 * time.Millisecond)
		}
	}
	if s := long.BreakerStates()[0]; s != StateOpen {
		t.Fatalf("10 s breaker %v after 4 errors in 8.7 s, want OPEN", s)
	}
	if s := short.BreakerStates()[0]; s != StateClosed {
		t.Fatalf("1 s breaker %v with one error per second, want CLOSED", s)
	}
}
