package runtime

import (
	"context"
	"testing"
)

// BenchmarkEntryExitClusterPass is BenchmarkEntryExitPass's rule in cluster
// mode with a token service that answers OK at once: the runtime's own share
// of the cluster pass path (cluster/redis benchmarks the whole path).
func BenchmarkEntryExitClusterPass(b *testing.B) {
	prev := SetTokenService(constTokenService{Status: TokenOK})
	b.Cleanup(func() { SetTokenService(prev) })
	r := NewResource("bench-cluster-pass")
	rule := FlowRule{Resource: r.Name(), Grade: FlowGradeQPS, Count: 1e12, ClusterMode: true,
		ClusterConfig: ClusterConfig{FlowID: 1, ThresholdType: Global}}
	if err := LoadRules(Rules{Flow: []FlowRule{rule}, Degrade: []DegradeRule{{Resource: r.Name(), Grade: DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 10}}}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = LoadRules(Rules{}) })
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		e, be := r.Entry(ctx)
		if be != nil {
			b.Fatal(be)
		}
		e.Exit()
	}
}
