package redis

import (
	"context"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/redis/internal/redistest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// benchCount is the per-second Count of both benchmark rules: far above any
// rate a benchmark reaches, so the budget is never near exhaustion and the
// cluster rule serves from its lease (one Redis round trip per lease, about
// one per window).
const benchCount = 1e9

// benchEntryExit loads rule as the only rule and measures Entry+Exit.
func benchEntryExit(b *testing.B, rule runtime.FlowRule) {
	if err := runtime.LoadFlowRules([]runtime.FlowRule{rule}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = runtime.LoadFlowRules(nil) })
	res := runtime.NewResource(rule.Resource)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		e, be := res.Entry(ctx)
		if be != nil {
			b.Fatal(be)
		}
		e.Exit()
	}
}

// BenchmarkLocalPass is the pass path of a QPS rule checked locally.
func BenchmarkLocalPass(b *testing.B) {
	benchEntryExit(b, runtime.FlowRule{Resource: "bench-local", Grade: runtime.FlowGradeQPS, Count: benchCount})
}

// BenchmarkClusterPass is the pass path of the same rule in cluster mode,
// against a real Redis.
func BenchmarkClusterPass(b *testing.B) {
	srv := redistest.Start(b)
	in := newInstance(b, srv)
	prev := runtime.SetTokenService(in.svc)
	b.Cleanup(func() { runtime.SetTokenService(prev) })
	rule := *clusterRule(6, benchCount, runtime.Global)
	rule.Resource = "bench-cluster"
	benchEntryExit(b, rule)
	if st := in.svc.Stats(); st.Fallbacks != 0 {
		b.Fatalf("%d fallbacks: the benchmark did not measure cluster mode", st.Fallbacks)
	}
}

// BenchmarkSpentLease is a call refused because the window's budget is
// spent: the lease answers without a round trip (the window is a minute
// long, so it does not end during the run), reading the clock once to make
// sure the window has not ended.
func BenchmarkSpentLease(b *testing.B) {
	srv := redistest.Start(b)
	in := newInstance(b, srv)
	rule := clusterRule(3, 1, runtime.Global)
	rule.ClusterConfig.WindowIntervalMs = 60_000
	// Redis runs here, so its minute windows are the wall clock's: start
	// well inside one, so the run (about a second) does not cross its end.
	if left := time.Minute - time.Duration(time.Now().UnixNano())%time.Minute; left < 5*time.Second {
		time.Sleep(left + 10*time.Millisecond)
	}
	for in.svc.RequestToken(rule, 1, false).Status == runtime.TokenOK {
	}
	refills := in.svc.Stats().Refills
	b.ReportAllocs()
	for b.Loop() {
		if st := in.svc.RequestToken(rule, 1, false).Status; st != runtime.TokenBlocked {
			b.Fatalf("status %v, want blocked", st)
		}
	}
	if n := in.svc.Stats().Refills - refills; n > 1 {
		b.Errorf("%d round trips during the run, want at most 1 (a window change)", n)
	}
}
