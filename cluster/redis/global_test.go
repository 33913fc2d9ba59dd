package redis

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/redis/internal/redistest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Three instances, each with its own client and service (as three processes
// would have; the runtime's rules are per process, so the test drives each
// service directly, as the runtime does), share a Global budget of 300 per
// second while each offers 200 per second. Every full second must pass 300
// ± 5% in total.
func TestThreeInstancesShareAGlobalBudget(t *testing.T) {
	srv := redistest.Start(t)
	rule := clusterRule(1, 300, runtime.Global)
	const instances, perInstance, run = 3, 200, 5 * time.Second

	tallies := make([]*tally, instances)
	ctx, cancel := context.WithTimeout(context.Background(), run)
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for i := range instances {
		in := newInstance(t, srv)
		tallies[i] = newTally()
		wg.Go(func() { offer(ctx, in.svc, rule, perInstance, tallies[i]) })
	}
	wg.Wait()
	end := time.Now()

	seconds := fullSeconds(start, end)
	if len(seconds) < 3 {
		t.Fatalf("only %d full seconds measured", len(seconds))
	}
	for _, s := range seconds {
		got := sumOK(s, tallies...)
		t.Logf("second %d: %d passed (%d / %d / %d)", s, got, tallies[0].ok[s], tallies[1].ok[s], tallies[2].ok[s])
		if !within(got, 300, 0.05) {
			t.Errorf("second %d: %d passed in total, want 300 ± 5%%", s, got)
		}
	}
	for i, tl := range tallies {
		if tl.count(runtime.TokenOK) == 0 || tl.count(runtime.TokenBlocked) == 0 {
			t.Errorf("instance %d: %d passed, %d blocked; every instance should get a share and be limited",
				i, tl.count(runtime.TokenOK), tl.count(runtime.TokenBlocked))
		}
		if n := tl.count(runtime.TokenFail); n != 0 {
			t.Errorf("instance %d: %d requests failed with Redis up", i, n)
		}
	}
}

// An instance whose traffic stops strands the unused part of its lease until
// the window ends: this measures that shortfall and checks it against the
// documented bound (1.25 × lease fraction × budget).
func TestStrandedLeaseShortfallIsBounded(t *testing.T) {
	srv := redistest.Start(t)
	// A one-minute window keeps the measurement inside one window; it is
	// retried if it straddles two.
	rule := clusterRule(2, 10, runtime.Global)
	rule.ClusterConfig.WindowIntervalMs = 60_000
	const budget = 600
	for attempt := 0; attempt < 3; attempt++ {
		rule.ClusterConfig.FlowID = int64(10 + attempt)
		idle, busy := newInstance(t, srv), newInstance(t, srv)
		// Both instances are live before either takes a lease.
		for _, in := range []*instance{idle, busy} {
			if _, err := in.svc.runHeartbeat(context.Background(), in.svc.flow(rule.ClusterConfig.FlowID)); err != nil {
				t.Fatal(err)
			}
		}
		if st := idle.svc.RequestToken(rule, 1, false).Status; st != runtime.TokenOK {
			t.Fatalf("idle instance's only call: %v", st)
		}
		passed := 1
		for {
			st := busy.svc.RequestToken(rule, 1, false).Status
			if st == runtime.TokenBlocked {
				break
			}
			if st != runtime.TokenOK {
				t.Fatalf("busy instance: %v", st)
			}
			if passed++; passed > budget {
				t.Fatalf("more than the budget of %d passed", budget)
			}
		}
		if idle.svc.flow(rule.ClusterConfig.FlowID).lease.Load().window != busy.svc.flow(rule.ClusterConfig.FlowID).lease.Load().window {
			continue // crossed a window boundary: measure again
		}
		shortfall := budget - passed
		bound := int(1.25 * DefaultLeaseFraction * budget)
		t.Logf("budget %d, passed %d, stranded in the idle instance's lease %d (%.1f%%), bound %d",
			budget, passed, shortfall, 100*float64(shortfall)/budget, bound)
		if shortfall < 0 || shortfall > bound {
			t.Errorf("shortfall %d outside [0, %d]", shortfall, bound)
		}
		return
	}
	t.Fatal("every attempt straddled a window boundary")
}
