package redis

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/redis/internal/redistest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// End to end through the runtime: a ClusterMode rule loaded with
// LoadFlowRules and the Redis service installed with SetTokenService make
// Resource.Entry block once the global budget is spent — including the part
// another instance took.
func TestRuntimeEntryBlocksOverTheGlobalBudget(t *testing.T) {
	srv := redistest.Start(t)
	here, other := newInstance(t, srv), newInstance(t, srv)
	prev := runtime.SetTokenService(here.svc)
	t.Cleanup(func() { runtime.SetTokenService(prev) })

	const budget, takenElsewhere = 50, 30
	rule := clusterRule(5, budget, runtime.Global)
	rule.Resource = "runtime-e2e"
	// Checked locally, the rule would pass budget calls of this instance;
	// in cluster mode it passes only what the other instance left.
	if err := runtime.LoadFlowRules([]runtime.FlowRule{*rule}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.LoadFlowRules(nil) })
	res := runtime.NewResource(rule.Resource)

	waitForSecondStart() // the whole exchange fits in one Redis window
	for i := range takenElsewhere {
		if st := other.svc.RequestToken(rule, 1, false).Status; st != runtime.TokenOK {
			t.Fatalf("other instance's call %d: %v", i, st)
		}
	}
	passed, blocked := 0, 0
	var lastBlock *runtime.BlockError
	for range 3 * budget {
		e, be := res.Entry(context.Background())
		if be != nil {
			blocked++
			lastBlock = be
			continue
		}
		passed++
		e.Exit()
	}
	if passed != budget-takenElsewhere {
		t.Errorf("%d passed here, want %d: the budget %d less the %d taken by the other instance",
			passed, budget-takenElsewhere, budget, takenElsewhere)
	}
	if blocked == 0 || lastBlock.Type() != runtime.BlockTypeFlow || !strings.Contains(lastBlock.Rule(), "cluster flow 5") {
		t.Errorf("%d blocked, last block %v; want flow blocks naming cluster flow 5", blocked, lastBlock)
	}
	if st := here.svc.Stats(); st.Fallbacks != 0 {
		t.Errorf("%d fallbacks with Redis up", st.Fallbacks)
	}
}

// While the lease has tokens, a request is an atomic decrement: no
// allocation (and no round trip).
func TestLeasePassPathDoesNotAllocate(t *testing.T) {
	srv := redistest.Start(t)
	in := newInstance(t, srv)
	rule := clusterRule(6, 1e9, runtime.Global)
	waitForSecondStart() // the lease taken below lasts the whole measurement
	if st := in.svc.RequestToken(rule, 1, false).Status; st != runtime.TokenOK {
		t.Fatalf("first request: %v", st)
	}
	refills := in.svc.Stats().Refills
	allocs := testing.AllocsPerRun(1000, func() {
		if st := in.svc.RequestToken(rule, 1, false).Status; st != runtime.TokenOK {
			t.Fatalf("request: %v", st)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per request", allocs)
	}
	if n := in.svc.Stats().Refills - refills; n != 0 {
		t.Errorf("%d round trips during the measurement, want 0", n)
	}
}

// End to end through the runtime while Redis dies and comes back: another
// instance has spent the cluster budget of the current window, so in cluster
// mode this instance passes nothing; once Redis is killed, the rule is
// checked locally (FallbackToLocalWhenFail) and this instance passes its own
// count within a second; no Entry takes longer than the timeout; after the
// restart the rule is back in cluster mode.
func TestRuntimeFallsBackToTheLocalRuleWhileRedisIsDown(t *testing.T) {
	srv := redistest.Start(t)
	here, other := newInstance(t, srv), newInstance(t, srv)
	prev := runtime.SetTokenService(here.svc)
	t.Cleanup(func() { runtime.SetTokenService(prev) })

	const count = 40
	rule := clusterRule(8, count, runtime.Global)
	rule.Resource = "runtime-failover"
	if err := runtime.LoadFlowRules([]runtime.FlowRule{*rule}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.LoadFlowRules(nil) })
	res := runtime.NewResource(rule.Resource)

	// burst offers 2*count calls and reports how many passed and the
	// slowest Entry.
	burst := func() (passed int, slowest time.Duration) {
		for range 2 * count {
			start := time.Now()
			e, be := res.Entry(context.Background())
			slowest = max(slowest, time.Since(start))
			if be == nil {
				passed++
				e.Exit()
			}
		}
		return passed, slowest
	}

	waitForSecondStart()
	for range count { // the other instance spends the whole window's budget
		other.svc.RequestToken(rule, 1, false)
	}
	if passed, _ := burst(); passed != 0 {
		t.Fatalf("cluster mode with the budget spent elsewhere: %d passed, want 0", passed)
	}

	srv.Kill()
	killed := time.Now()
	// A new Redis window: the spent window's lease has ended (even if its
	// timer runs late), so calls ask Redis, fail, and fall back. The local
	// rule's window (aligned to the runtime's clock, not to the second) holds
	// no pass: cluster mode passed none.
	waitForSecondStart()
	before := here.svc.Stats()
	passed, slowest := burst()
	if passed != count {
		t.Errorf("Redis down: %d passed, want the local rule's %d; stats before %+v after %+v", passed, count, before, here.svc.Stats())
	}
	if limit := here.svc.cfg.timeout + 30*time.Millisecond; slowest > limit {
		t.Errorf("Redis down: slowest Entry %v, want at most %v", slowest, limit)
	}
	if took := time.Since(killed); took > 2*time.Second {
		t.Errorf("local rule in force only %v after the kill", took)
	}

	srv.Restart()
	deadline := time.Now().Add(3 * time.Second)
	for here.svc.Stats().Ups == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("cluster mode did not resume; stats %+v", here.svc.Stats())
		}
		time.Sleep(10 * time.Millisecond)
	}
	waitForSecondStart()
	for range count {
		other.svc.RequestToken(rule, 1, false)
	}
	if passed, _ := burst(); passed != 0 {
		t.Errorf("after the restart: %d passed with the cluster budget spent elsewhere, want 0 (cluster mode)", passed)
	}
}

// The lease of a window whose budget another instance spent answers
// TokenBlocked without a round trip until the window ends, and not after:
// here its expiry timer is stopped, standing for one that runs late on a
// loaded host, and the first call of the next window must go to Redis and
// pass. (This was the flake of TestRuntimeFallsBackToTheLocalRuleWhileRedisIsDown:
// a late timer made the old window's lease block a whole burst of the next
// window, so the local fallback never ran.)
func TestSpentLeaseDoesNotBlockTheNextWindow(t *testing.T) {
	srv := redistest.Start(t)
	here, other := newInstance(t, srv), newInstance(t, srv)
	const count = 40
	rule := clusterRule(9, count, runtime.Global)

	waitForSecondStart()
	for range count {
		other.svc.RequestToken(rule, 1, false)
	}
	if st := here.svc.RequestToken(rule, 1, false).Status; st != runtime.TokenBlocked {
		t.Fatalf("budget spent elsewhere: %v, want blocked", st)
	}
	here.svc.flow(rule.ClusterConfig.FlowID).lease.Load().timer.Stop()
	waitForSecondStart()
	if st := here.svc.RequestToken(rule, 1, false).Status; st != runtime.TokenOK {
		t.Errorf("first call of the next window: %v, want ok (a fresh budget)", st)
	}
}
