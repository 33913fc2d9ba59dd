package runtime

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// fakeTokenService answers every request with a fixed result and records
// what it was asked.
type fakeTokenService struct {
	result TokenResult

	mu       sync.Mutex
	flowIDs  []int64
	acquires []int64
	prio     []bool
}

func (s *fakeTokenService) RequestToken(rule *FlowRule, acquire int64, prioritized bool) TokenResult {
	s.mu.Lock()
	s.flowIDs = append(s.flowIDs, rule.ClusterConfig.FlowID)
	s.acquires = append(s.acquires, acquire)
	s.prio = append(s.prio, prioritized)
	s.mu.Unlock()
	return s.result
}

func (s *fakeTokenService) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.flowIDs)
}

// constTokenService answers every request with itself, recording nothing.
type constTokenService TokenResult

func (s constTokenService) RequestToken(*FlowRule, int64, bool) TokenResult { return TokenResult(s) }

// useTokenService installs s (nil: none) for the test.
func useTokenService(t *testing.T, s TokenService) {
	t.Helper()
	prev := SetTokenService(s)
	t.Cleanup(func() { SetTokenService(prev) })
}

func clusterRule(name string, count float64, fallback bool) FlowRule {
	return FlowRule{Resource: name, Grade: FlowGradeQPS, Count: count, ClusterMode: true,
		ClusterConfig: ClusterConfig{FlowID: 7, ThresholdType: Global, FallbackToLocalWhenFail: fallback}}
}

func TestClusterOKPassesWhatTheLocalRuleWouldBlock(t *testing.T) {
	clock := useManualClock(t)
	svc := &fakeTokenService{result: TokenResult{Status: TokenOK}}
	useTokenService(t, svc)
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, clusterRule(r.Name(), 2, true))
	for i := range 5 {
		if ok, be := call(r, clock, 0, nil); !ok {
			t.Fatalf("call %d blocked by %v; the token service said OK", i, be)
		}
	}
	if svc.calls() != 5 {
		t.Fatalf("token service asked %d times, want 5", svc.calls())
	}
	if svc.flowIDs[0] != 7 || svc.acquires[0] != 1 || svc.prio[0] {
		t.Errorf("request = flow %d acquire %d prioritized %v, want 7, 1, false", svc.flowIDs[0], svc.acquires[0], svc.prio[0])
	}
}

func TestClusterBlockedBlocksWithAClusterRuleText(t *testing.T) {
	clock := useManualClock(t)
	useTokenService(t, &fakeTokenService{result: TokenResult{Status: TokenBlocked}})
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, clusterRule(r.Name(), 1000, true))
	ok, be := call(r, clock, 0, nil)
	if ok {
		t.Fatal("passed; the token service said blocked")
	}
	if be.Type() != BlockTypeFlow || !errors.Is(be, ErrBlocked) {
		t.Errorf("block type %v, want flow", be.Type())
	}
	if want := "flow rule #0 (QPS 1000, cluster flow 7 global)"; be.Rule() != want {
		t.Errorf("rule text %q, want %q", be.Rule(), want)
	}
}

func TestClusterShouldWaitSleepsThroughTheClockThenPasses(t *testing.T) {
	clock := useManualClock(t)
	svc := &fakeTokenService{result: TokenResult{Status: TokenShouldWait, WaitMs: 40}}
	useTokenService(t, svc)
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, clusterRule(r.Name(), 1, true))
	if ok, be := callCtx(context.Background(), r, clock, 0, nil, Prioritized(), AcquireCount(3)); !ok {
		t.Fatalf("blocked by %v", be)
	}
	if got := clock.Sleeps(); len(got) != 1 || got[0] != 40*time.Millisecond {
		t.Errorf("sleeps %v, want [40ms]", got)
	}
	if svc.acquires[0] != 3 || !svc.prio[0] {
		t.Errorf("request acquire %d prioritized %v, want 3, true", svc.acquires[0], svc.prio[0])
	}
}

// Every status but OK, Blocked and ShouldWait, and no service at all, is a
// failure: the local rule applies when FallbackToLocalWhenFail is set, and
// calls pass unchecked when it is not.
func TestClusterFailureFallsBackToLocalOrPasses(t *testing.T) {
	failures := map[string]TokenService{
		"fail":           &fakeTokenService{result: TokenResult{Status: TokenFail}},
		"bad request":    &fakeTokenService{result: TokenResult{Status: TokenBadRequest}},
		"too many":       &fakeTokenService{result: TokenResult{Status: TokenTooManyRequest}},
		"no rule":        &fakeTokenService{result: TokenResult{Status: TokenNoRuleExists}},
		"unknown status": &fakeTokenService{result: TokenResult{Status: 42}},
		"no service":     nil,
	}
	for name, svc := range failures {
		t.Run(name, func(t *testing.T) {
			clock := useManualClock(t)
			useTokenService(t, svc)
			local := NewResource(uniqueName(t, "local"))
			open := NewResource(uniqueName(t, "open"))
			mustLoadFlow(t, clusterRule(local.Name(), 3, true), clusterRule(open.Name(), 3, false))
			if got := passesPerSecond(local, clock, 1, 10); got[0] != 3 {
				t.Errorf("with fallback to local: %d of 10 passed, want the local limit 3", got[0])
			}
			if got := passesPerSecond(open, clock, 1, 10); got[0] != 10 {
				t.Errorf("without fallback: %d of 10 passed, want all", got[0])
			}
		})
	}
}

func TestSetTokenServiceReturnsThePreviousOne(t *testing.T) {
	a, b := &fakeTokenService{}, &fakeTokenService{}
	prev := SetTokenService(a)
	t.Cleanup(func() { SetTokenService(prev) })
	if got := SetTokenService(b); got != a {
		t.Errorf("SetTokenService(b) returned %v, want a", got)
	}
	if got := SetTokenService(nil); got != b {
		t.Errorf("SetTokenService(nil) returned %v, want b", got)
	}
	if got := SetTokenService(nil); got != nil {
		t.Errorf("SetTokenService(nil) after nil returned %v, want nil", got)
	}
}

func TestLocalRulesNeverAskTheTokenService(t *testing.T) {
	clock := useManualClock(t)
	svc := &fakeTokenService{result: TokenResult{Status: TokenBlocked}}
	useTokenService(t, svc)
	r := NewResource(uniqueName(t, "res"))
	rule := clusterRule(r.Name(), 5, true)
	rule.ClusterMode = false // ClusterConfig stays set but is ignored
	mustLoadFlow(t, rule)
	if got := passesPerSecond(r, clock, 1, 10); got[0] != 5 {
		t.Errorf("%d of 10 passed, want 5", got[0])
	}
	if svc.calls() != 0 {
		t.Errorf("token service asked %d times by a local rule", svc.calls())
	}
}

func TestValidateClusterFields(t *testing.T) {
	base := clusterRule("res", 10, true)
	cases := map[string]struct {
		edit  func(*FlowRule)
		field string
	}{
		"flow ID zero":         {func(r *FlowRule) { r.ClusterConfig.FlowID = 0 }, "ClusterConfig.FlowID"},
		"flow ID negative":     {func(r *FlowRule) { r.ClusterConfig.FlowID = -3 }, "ClusterConfig.FlowID"},
		"threshold type":       {func(r *FlowRule) { r.ClusterConfig.ThresholdType = 2 }, "ClusterConfig.ThresholdType"},
		"concurrency grade":    {func(r *FlowRule) { r.Grade = FlowGradeConcurrency }, "ClusterMode"},
		"relate strategy":      {func(r *FlowRule) { r.Strategy, r.RefResource = StrategyRelate, "other" }, "ClusterMode"},
		"negative window":      {func(r *FlowRule) { r.ClusterConfig.WindowIntervalMs = -1 }, "ClusterConfig.WindowIntervalMs"},
		"too long window":      {func(r *FlowRule) { r.ClusterConfig.WindowIntervalMs = maxStatIntervalMs + 1 }, "ClusterConfig.WindowIntervalMs"},
		"unsplittable window":  {func(r *FlowRule) { r.ClusterConfig.WindowIntervalMs = 1_000_003 }, "ClusterConfig.WindowIntervalMs"},
		"ok (control: passes)": {func(r *FlowRule) { r.ClusterConfig.WindowIntervalMs = 2000 }, ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := base
			tc.edit(&r)
			err := ValidateFlowRules([]FlowRule{r})
			if tc.field == "" {
				if err != nil {
					t.Fatalf("valid rule rejected: %v", err)
				}
				return
			}
			var re *RuleError
			if !errors.As(err, &re) || re.Field != tc.field {
				t.Fatalf("error %v, want one on field %s", err, tc.field)
			}
			// The same fields are not checked when cluster mode is off.
			r.ClusterMode = false
			if err := ValidateFlowRules([]FlowRule{r}); err != nil {
				t.Errorf("cluster field checked with ClusterMode off: %v", err)
			}
		})
	}
}

func TestClusterPassPathDoesNotAllocate(t *testing.T) {
	clock := useManualClock(t)
	useTokenService(t, constTokenService{Status: TokenOK})
	r := NewResource(uniqueName(t, "res"))
	mustLoadFlow(t, clusterRule(r.Name(), 1, true))
	ctx := context.Background()
	allocs := testing.AllocsPerRun(200, func() {
		e, be := r.Entry(ctx)
		if be != nil {
			t.Fatal(be)
		}
		clock.Advance(time.Microsecond)
		e.Exit()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per call", allocs)
	}
}
