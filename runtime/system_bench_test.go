package runtime

import (
	"testing"

	"github.com/sentinelgen/sentinelgen/internal/sysreadings"
)

// BenchmarkSystemInboundLoadCPU is an inbound call, entry and exit, under a
// system rule with load and CPU thresholds, the readings over the load
// threshold (so BBR is consulted) and under the CPU one: the cost of
// reading the readings on the pass path.
func BenchmarkSystemInboundLoadCPU(b *testing.B) {
	prev := sampleSource
	sampleSource = func() func() (float64, float64, bool) {
		return func() (float64, float64, bool) { return 0, 0, false }
	}
	defer func() { sampleSource = prev }()
	in := NewResource("bench.system.in", WithTrafficType(TrafficInbound))
	if err := LoadSystemRules([]SystemRule{{HighestSystemLoad: 1, HighestCPUUsage: 0.9, QPS: -1, AvgRT: -1, MaxThread: -1}}); err != nil {
		b.Fatal(err)
	}
	defer func() {
		if err := LoadSystemRules(nil); err != nil {
			b.Fatal(err)
		}
	}()
	sysreadings.Sampled(2, 0.5)
	var e Entry
	b.ReportAllocs()
	for b.Loop() {
		if be := in.EntryTo(&e, nil); be != nil {
			b.Fatal(be)
		}
		e.Exit()
	}
}
