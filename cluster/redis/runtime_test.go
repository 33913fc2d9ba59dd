package redis

import (
	"context"
	"strings"
	"testing"

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
