package tokenserver

import (
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// fakeClock is a settable clock for the server.
type fakeClock struct{ ms int64 }

func (f *fakeClock) now() time.Time { return time.UnixMilli(f.ms) }

func newTestServer(t *testing.T, cfg Config) (*Server, *fakeClock) {
	t.Helper()
	clock := &fakeClock{ms: 1_000_000}
	cfg.Now = clock.now
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s, clock
}

func clusterRule(id int64, count float64, typ runtime.ThresholdType) runtime.FlowRule {
	return runtime.FlowRule{Resource: "r", Grade: runtime.FlowGradeQPS, Count: count, ClusterMode: true,
		ClusterConfig: runtime.ClusterConfig{FlowID: id, ThresholdType: typ, FallbackToLocalWhenFail: true}}
}

func TestGlobalBudget(t *testing.T) {
	s, clock := newTestServer(t, Config{})
	if err := s.LoadFlowRules("orders", []runtime.FlowRule{clusterRule(7, 10, runtime.Global)}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		res, rem := s.RequestToken(7, 1, false)
		if res.Status != runtime.TokenOK || rem != int32(9-i) {
			t.Fatalf("call %d: %v remaining %d, want ok remaining %d", i, res.Status, rem, 9-i)
		}
	}
	if res, _ := s.RequestToken(7, 1, false); res.Status != runtime.TokenBlocked {
		t.Fatalf("call 11: %v, want blocked", res.Status)
	}
	// The passes leave the interval bucket by bucket.
	clock.ms += 1000
	if res, _ := s.RequestToken(7, 3, false); res.Status != runtime.TokenOK {
		t.Fatalf("a second later: %v, want ok", res.Status)
	}
}

func TestStatusesOfRequestsWithoutABudget(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, c := range []struct {
		id      int64
		acquire int32
		want    runtime.TokenStatus
	}{{0, 1, runtime.TokenBadRequest}, {5, 0, runtime.TokenBadRequest}, {5, 1, runtime.TokenNoRuleExists}} {
		if res, _ := s.RequestToken(c.id, c.acquire, false); res.Status != c.want {
			t.Errorf("flowId %d acquire %d: %v, want %v", c.id, c.acquire, res.Status, c.want)
		}
	}
}

// AVG_LOCAL multiplies the count by the clients connected in the rule's
// namespace: none connected, no budget.
func TestAvgLocalCountsConnectedClients(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	if err := s.LoadFlowRules("orders", []runtime.FlowRule{clusterRule(8, 2, runtime.AvgLocal)}); err != nil {
		t.Fatal(err)
	}
	if res, _ := s.RequestToken(8, 1, false); res.Status != runtime.TokenBlocked {
		t.Fatalf("no client connected: %v, want blocked", res.Status)
	}
	ns := s.namespaces["orders"]
	ns.join("10.0.0.1:1000")
	ns.join("10.0.0.2:1000")
	passed := 0
	for i := 0; i < 10; i++ {
		if res, _ := s.RequestToken(8, 1, false); res.Status == runtime.TokenOK {
			passed++
		}
	}
	if passed != 4 {
		t.Fatalf("two clients × 2: %d passed, want 4", passed)
	}
}

// A prioritized call over the budget waits for the next bucket when that
// bucket can take it, as Sentinel's server tells it to.
func TestPrioritizedCallsWaitForTheNextBucket(t *testing.T) {
	s, clock := newTestServer(t, Config{})
	if err := s.LoadFlowRules("orders", []runtime.FlowRule{clusterRule(9, 5, runtime.Global)}); err != nil {
		t.Fatal(err)
	}
	s.RequestToken(9, 5, false) // the whole budget, in the bucket at 1_000_000
	clock.ms += 950             // the bucket of the passes is the oldest now
	res, _ := s.RequestToken(9, 2, true)
	if res.Status != runtime.TokenShouldWait || res.WaitMs != 100 {
		t.Fatalf("prioritized: %+v, want should wait 100 ms", res)
	}
	if res, _ := s.RequestToken(9, 1, false); res.Status != runtime.TokenBlocked {
		t.Fatalf("not prioritized: %v, want blocked", res.Status)
	}
	// The next bucket starts with the 2 promised passes: with the first
	// bucket gone, 3 remain.
	clock.ms += 100
	if res, rem := s.RequestToken(9, 1, false); res.Status != runtime.TokenOK || rem != 2 {
		t.Fatalf("next bucket: %v remaining %d, want ok remaining 2", res.Status, rem)
	}
}

func TestMaxAllowedQpsShedsRequests(t *testing.T) {
	s, _ := newTestServer(t, Config{Flow: FlowConfig{MaxAllowedQps: 3}})
	if err := s.LoadFlowRules("orders", []runtime.FlowRule{clusterRule(1, 100, runtime.Global)}); err != nil {
		t.Fatal(err)
	}
	var got []runtime.TokenStatus
	for i := 0; i < 4; i++ {
		res, _ := s.RequestToken(1, 1, false)
		got = append(got, res.Status)
	}
	if got[2] != runtime.TokenOK || got[3] != runtime.TokenTooManyRequest {
		t.Fatalf("statuses %v, want three ok then too many requests", got)
	}
}

func TestLoadFlowRulesRefusesBadRulesWhole(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	if err := s.LoadFlowRules("a", []runtime.FlowRule{clusterRule(1, 10, runtime.Global)}); err != nil {
		t.Fatal(err)
	}
	for name, rules := range map[string][]runtime.FlowRule{
		"no flowId":  {clusterRule(0, 1, runtime.Global)},
		"duplicate":  {clusterRule(2, 1, runtime.Global), clusterRule(2, 1, runtime.Global)},
		"other's id": {clusterRule(1, 1, runtime.Global)},
		"negative":   {clusterRule(3, -1, runtime.Global)},
	} {
		ns := "b"
		if err := s.LoadFlowRules(ns, rules); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
	if got := s.FlowRules("a"); len(got) != 1 {
		t.Fatalf("namespace a lost its rules: %v", got)
	}
	// A local rule is not the server's: it is left out, not refused.
	local := clusterRule(4, 1, runtime.Global)
	local.ClusterMode = false
	if err := s.LoadFlowRules("a", []runtime.FlowRule{local}); err != nil || len(s.FlowRules("a")) != 0 {
		t.Fatalf("a local rule: %v, rules %v", err, s.FlowRules("a"))
	}
}

// Reloading an unchanged rule keeps its budget's passes.
func TestReloadKeepsStatistics(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	r := clusterRule(5, 2, runtime.Global)
	s.LoadFlowRules("a", []runtime.FlowRule{r})
	s.RequestToken(5, 2, false)
	s.LoadFlowRules("a", []runtime.FlowRule{r})
	if res, _ := s.RequestToken(5, 1, false); res.Status != runtime.TokenBlocked {
		t.Fatalf("after an unchanged reload: %v, want blocked", res.Status)
	}
}
