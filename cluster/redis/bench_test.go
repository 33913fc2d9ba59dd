package redis

import (
	"context"
	"testing"

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
