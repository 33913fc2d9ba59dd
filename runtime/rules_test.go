package runtime

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestInvalidFlowRules(t *testing.T) {
	valid := FlowRule{Resource: "res", Grade: FlowGradeQPS, Count: 10}
	cases := []struct {
		field string
		edit  func(*FlowRule)
	}{
		{"Resource", func(r *FlowRule) { r.Resource = "" }},
		{"Grade", func(r *FlowRule) { r.Grade = 2 }},
		{"Grade", func(r *FlowRule) { r.Grade = -1 }},
		{"Count", func(r *FlowRule) { r.Count = -1 }},
		{"Count", func(r *FlowRule) { r.Count = math.NaN() }},
		{"Count", func(r *FlowRule) { r.Count = math.Inf(1) }},
		{"Strategy", func(r *FlowRule) { r.Strategy = 3 }},
		{"RefResource", func(r *FlowRule) { r.Strategy = StrategyRelate }},
		{"RefResource", func(r *FlowRule) { r.Strategy = StrategyChain }},
		{"RefResource", func(r *FlowRule) { r.Strategy, r.RefResource = StrategyRelate, "res" }},
		{"RefResource", func(r *FlowRule) { r.RefResource = "other" }},
		{"ControlBehavior", func(r *FlowRule) { r.ControlBehavior = 4 }},
		{"ControlBehavior", func(r *FlowRule) { r.Grade, r.ControlBehavior = FlowGradeConcurrency, BehaviorRateLimiter }},
		{"WarmUpPeriodSec", func(r *FlowRule) { r.ControlBehavior = BehaviorWarmUp }},
		{"WarmUpPeriodSec", func(r *FlowRule) { r.WarmUpPeriodSec = -1 }},
		{"ColdFactor", func(r *FlowRule) { r.ColdFactor = 1 }},
		{"ColdFactor", func(r *FlowRule) { r.ColdFactor = -3 }},
		{"MaxQueueingTimeMs", func(r *FlowRule) { r.MaxQueueingTimeMs = -1 }},
		{"StatIntervalMs", func(r *FlowRule) { r.StatIntervalMs = -1 }},
		{"StatIntervalMs", func(r *FlowRule) { r.StatIntervalMs = maxStatIntervalMs + 1 }},
		{"StatIntervalMs", func(r *FlowRule) { r.StatIntervalMs = 999_983 }}, // prime: no even buckets
		{"StatIntervalMs", func(r *FlowRule) { r.Strategy, r.RefResource, r.StatIntervalMs = StrategyRelate, "x", 2000 }},
	}
	for _, tc := range cases {
		r := valid
		tc.edit(&r)
		rules := []FlowRule{valid, r}
		err := ValidateFlowRules(rules)
		var re *RuleError
		if !errors.As(err, &re) {
			t.Errorf("%+v: no RuleError (err %v)", r, err)
			continue
		}
		if re.Index != 1 || re.Field != tc.field || re.Kind != "flow" || re.Resource != r.Resource {
			t.Errorf("%+v: error %+v, want index 1 field %s", r, re, tc.field)
		}
		if !strings.Contains(err.Error(), "flow rule #1") || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("message %q does not name the rule and field", err)
		}
	}
	if err := ValidateFlowRules([]FlowRule{valid,
		{Resource: "a", Grade: FlowGradeQPS, Count: 5, ControlBehavior: BehaviorWarmUpRateLimiter, WarmUpPeriodSec: 3, ColdFactor: 5, MaxQueueingTimeMs: 100},
		{Resource: "a", Grade: FlowGradeConcurrency, Count: 1, Strategy: StrategyChain, RefResource: "entry"},
		{Resource: "a", Grade: FlowGradeQPS, Count: 0, StatIntervalMs: 10_000},
	}); err != nil {
		t.Fatalf("valid rules rejected: %v", err)
	}
}

func TestInvalidDegradeRules(t *testing.T) {
	valid := DegradeRule{Resource: "res", Grade: DegradeSlowRatio, Count: 50, SlowRatioThreshold: 0.5, TimeWindowSec: 10}
	cases := []struct {
		field string
		edit  func(*DegradeRule)
	}{
		{"Resource", func(r *DegradeRule) { r.Resource = "" }},
		{"Grade", func(r *DegradeRule) { r.Grade = 3 }},
		{"Count", func(r *DegradeRule) { r.Count = -5 }},
		{"Count", func(r *DegradeRule) { r.Count = math.NaN() }},
		{"Count", func(r *DegradeRule) { r.Grade, r.Count = DegradeErrorRatio, 1.5 }},
		{"Count", func(r *DegradeRule) { r.Grade, r.Count = DegradeErrorCount, math.Inf(1) }},
		{"SlowRatioThreshold", func(r *DegradeRule) { r.SlowRatioThreshold = 1.01 }},
		{"SlowRatioThreshold", func(r *DegradeRule) { r.SlowRatioThreshold = -0.1 }},
		{"TimeWindowSec", func(r *DegradeRule) { r.TimeWindowSec = 0 }},
		{"MinRequestAmount", func(r *DegradeRule) { r.MinRequestAmount = -1 }},
		{"StatIntervalMs", func(r *DegradeRule) { r.StatIntervalMs = -1 }},
		{"StatIntervalMs", func(r *DegradeRule) { r.StatIntervalMs = 999_983 }},
	}
	for _, tc := range cases {
		r := valid
		tc.edit(&r)
		err := ValidateDegradeRules([]DegradeRule{valid, r})
		var re *RuleError
		if !errors.As(err, &re) || re.Index != 1 || re.Field != tc.field || re.Kind != "degrade" {
			t.Errorf("%+v: error %v, want a RuleError for rule 1 field %s", r, err, tc.field)
		}
	}
	many := make([]DegradeRule, maxDegradeRulesPerResource+1)
	for i := range many {
		many[i] = valid
	}
	if err := ValidateDegradeRules(many); err == nil {
		t.Errorf("%d breakers on one resource accepted", len(many))
	}
}

func TestValidationReportsEveryProblem(t *testing.T) {
	err := ValidateFlowRules([]FlowRule{{Resource: "", Count: -1}, {Resource: "ok", Grade: 9}})
	var fields []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var re *RuleError
		if errors.As(e, &re) {
			fields = append(fields, re.Field)
		}
	}
	if got := strings.Join(fields, ","); got != "Resource,Count,Grade" {
		t.Fatalf("fields reported %q, want Resource,Count,Grade", got)
	}
}

func TestInvalidLoadKeepsRulesInForce(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "keep"))
	flow := []FlowRule{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1}}
	degrade := []DegradeRule{{Resource: r.Name(), Grade: DegradeErrorCount, Count: 5, TimeWindowSec: 1}}
	if err := LoadRules(Rules{Flow: flow, Degrade: degrade}); err != nil {
		t.Fatal(err)
	}
	badFlow := []FlowRule{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 100}, {Resource: r.Name(), Count: -1}}
	if err := LoadFlowRules(badFlow); err == nil {
		t.Fatal("invalid flow load accepted")
	}
	if err := LoadDegradeRules([]DegradeRule{{Resource: r.Name()}}); err == nil {
		t.Fatal("invalid degrade load accepted")
	}
	// LoadRules is all or nothing: a valid flow half must not go in either.
	if err := LoadRules(Rules{Flow: []FlowRule{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 100}}, Degrade: []DegradeRule{{Resource: r.Name()}}}); err == nil {
		t.Fatal("LoadRules with an invalid degrade rule accepted")
	}
	if got := FlowRules(); len(got) != 1 || got[0] != flow[0] {
		t.Fatalf("flow rules in force %v, want %v", got, flow)
	}
	if got := DegradeRules(); len(got) != 1 || got[0] != degrade[0] {
		t.Fatalf("degrade rules in force %v, want %v", got, degrade)
	}
	call(r, clock, 0, nil)
	if ok, _ := call(r, clock, 0, nil); ok {
		t.Fatal("the old Count 1 rule is not enforced after a failed load")
	}
}

func TestLoadRulesSwapsBothKinds(t *testing.T) {
	clock := useManualClock(t)
	r := NewResource(uniqueName(t, "both"))
	if err := LoadRules(Rules{Flow: []FlowRule{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1}}, Degrade: []DegradeRule{{Resource: r.Name(), Grade: DegradeErrorCount, Count: 0, TimeWindowSec: 1, MinRequestAmount: 1}}}); err != nil {
		t.Fatal(err)
	}
	if len(FlowRules()) != 1 || len(DegradeRules()) != 1 {
		t.Fatal("LoadRules did not install both kinds")
	}
	failingCall(r, clock)
	if _, be := call(r, clock, 0, nil); be == nil {
		t.Fatal("not blocked")
	}
	if err := LoadRules(Rules{}); err != nil {
		t.Fatal(err)
	}
	if ok, be := call(r, clock, 0, nil); !ok {
		t.Fatalf("blocked after clearing all rules: %v", be)
	}
}

func TestGettersReturnCopies(t *testing.T) {
	useManualClock(t)
	mustLoadFlow(t, FlowRule{Resource: uniqueName(t, "copy"), Grade: FlowGradeQPS, Count: 1})
	got := FlowRules()
	got[0].Count = 1000
	if FlowRules()[0].Count != 1 {
		t.Fatal("FlowRules exposes the rules in force")
	}
}

func TestRuleListeners(t *testing.T) {
	useManualClock(t)
	name := uniqueName(t, "listened")
	mustLoadFlow(t, FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 1})
	var flowSeen [][]FlowRule
	var degradeSeen [][]DegradeRule
	stopFlow := OnFlowRulesChange(func(rules []FlowRule) { flowSeen = append(flowSeen, rules) })
	stopDegrade := OnDegradeRulesChange(func(rules []DegradeRule) { degradeSeen = append(degradeSeen, rules) })
	if len(flowSeen) != 1 || len(flowSeen[0]) != 1 || flowSeen[0][0].Resource != name {
		t.Fatalf("registration did not deliver the current flow rules: %v", flowSeen)
	}
	mustLoadFlow(t, FlowRule{Resource: name, Grade: FlowGradeQPS, Count: 2})
	mustLoadDegrade(t, DegradeRule{Resource: name, Grade: DegradeErrorCount, TimeWindowSec: 1})
	if err := LoadFlowRules([]FlowRule{{Resource: name, Count: -1}}); err == nil {
		t.Fatal("invalid load accepted")
	}
	if len(flowSeen) != 2 || flowSeen[1][0].Count != 2 {
		t.Fatalf("flow listener saw %v, want the initial rules and the one valid load", flowSeen)
	}
	if len(degradeSeen) != 2 || len(degradeSeen[1]) != 1 {
		t.Fatalf("degrade listener saw %v", degradeSeen)
	}
	stopFlow()
	stopDegrade()
	mustLoadFlow(t)
	mustLoadDegrade(t)
	if len(flowSeen) != 2 || len(degradeSeen) != 2 {
		t.Fatal("listener called after unregistering")
	}
}

// TestReloadDuringTraffic swaps rules while goroutines make calls; run with
// -race. Every call must either pass or be blocked by a rule of this
// resource, and the in-flight gauge must return to zero.
func TestReloadDuringTraffic(t *testing.T) {
	useManualClock(t)
	SetClock(nil) // real time: calls from many goroutines
	r := NewResource(uniqueName(t, "reload-traffic"))
	sets := [][]FlowRule{
		{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1}},
		{{Resource: r.Name(), Grade: FlowGradeConcurrency, Count: 2}},
		{{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1e9}, {Resource: r.Name(), Grade: FlowGradeQPS, Count: 50, ControlBehavior: BehaviorWarmUp, WarmUpPeriodSec: 1}},
		nil,
	}
	degrade := []DegradeRule{{Resource: r.Name(), Grade: DegradeErrorRatio, Count: 0.5, TimeWindowSec: 1}}
	var stop atomic.Bool
	var calls, blocks atomic.Int64
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				e, be := r.Entry(context.Background())
				calls.Add(1)
				if be != nil {
					if be.Resource() != r.Name() {
						t.Errorf("blocked by a rule of %q", be.Resource())
					}
					blocks.Add(1)
					continue
				}
				if (i+g)%3 == 0 {
					e.TraceError(errBusiness)
				}
				e.Exit()
			}
		}()
	}
	for i := range 200 {
		if err := LoadRules(Rules{Flow: sets[i%len(sets)], Degrade: degrade[:i%2]}); err != nil {
			t.Fatal(err)
		}
		if i%20 == 0 {
			time.Sleep(time.Millisecond) // let calls run between bursts of reloads
		}
	}
	stop.Store(true)
	wg.Wait()
	if calls.Load() == 0 {
		t.Fatal("no calls ran")
	}
	if got := r.stats.inFlight.Load(); got != 0 {
		t.Fatalf("%d calls still in flight after all exited", got)
	}
	t.Logf("%d calls, %d blocked", calls.Load(), blocks.Load())
}
