package runtime

import "testing"

// BenchmarkEntryExitClusterPass is BenchmarkEntryExitPass's rule in cluster
// mode with a token service that answers OK at once: the runtime's own share
// of the cluster pass path (cluster/redis benchmarks the whole path).
func BenchmarkEntryExitClusterPass(b *testing.B) {
	prev := SetTokenService(constTokenService{Status: TokenOK})
	b.Cleanup(func() { SetTokenService(prev) })
	benchPasses(b, benchResourceWith(b, FlowRule{Resource: "bench-cluster-pass", Grade: FlowGradeQPS, Count: 1e12, ClusterMode: true,
		ClusterConfig: ClusterConfig{FlowID: 1, ThresholdType: Global}}))
}
