package metrics

import (
	"context"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// BenchmarkEntryExitSampled is the runtime's pass path (one QPS rule and
// one slow-ratio breaker, as runtime's BenchmarkEntryExitPass) with and
// without a running Sampler, side by side: the sampler reads the counters
// the pass path writes anyway, so the two must not differ.
func BenchmarkEntryExitSampled(b *testing.B) {
	for _, sampled := range []bool{false, true} {
		name := "idle"
		if sampled {
			name = "sampler"
		}
		b.Run(name, func(b *testing.B) {
			res := runtime.NewResource("bench-sampled-" + name)
			if err := runtime.LoadRules(runtime.Rules{
				Flow:    []runtime.FlowRule{{Resource: res.Name(), Grade: runtime.FlowGradeQPS, Count: 1e12}},
				Degrade: []runtime.DegradeRule{{Resource: res.Name(), Grade: runtime.DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 10}},
			}); err != nil {
				b.Fatal(err)
			}
			defer func() { _ = runtime.LoadRules(runtime.Rules{}) }()
			if sampled {
				s := New(Config{})
				s.Start()
				defer s.Stop()
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				e, be := res.Entry(ctx)
				if be != nil {
					b.Fatal(be)
				}
				e.Exit()
			}
		})
	}
}
