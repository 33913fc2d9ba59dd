package runtime

import (
	"context"
	"testing"
)

// benchResource builds a resource with one QPS reject rule and one slow-ratio
// breaker, the configuration the speed goals are stated for, and makes them
// the only rules in force. A huge Count keeps the pass path passing; Count 0
// makes the block path block.
func benchResource(b *testing.B, name string, count float64) *Resource {
	b.Helper()
	return benchResourceWith(b, FlowRule{Resource: name, Grade: FlowGradeQPS, Count: count})
}

// benchResourceWith is benchResource with the flow rule given (its Resource
// names the resource).
func benchResourceWith(b *testing.B, flow FlowRule) *Resource {
	b.Helper()
	r := NewResource(flow.Resource)
	if err := LoadRules(Rules{Flow: []FlowRule{flow}, Degrade: []DegradeRule{{Resource: flow.Resource, Grade: DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 10}}}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = LoadRules(Rules{}) })
	return r
}

// benchPasses times Entry and Exit of r, every call passing.
func benchPasses(b *testing.B, r *Resource) {
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

func BenchmarkEntryExitPass(b *testing.B) {
	benchPasses(b, benchResource(b, "bench-pass", 1e12))
}

func BenchmarkEntryExitPassParallel(b *testing.B) {
	r := benchResource(b, "bench-pass-parallel", 1e12)
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			e, be := r.Entry(ctx)
			if be != nil {
				b.Error(be)
				return
			}
			e.Exit()
		}
	})
}

func BenchmarkEntryBlock(b *testing.B) {
	r := benchResource(b, "bench-block", 0)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, be := r.Entry(ctx); be == nil {
			b.Fatal("not blocked")
		}
	}
}

func BenchmarkEntryBlockParallel(b *testing.B) {
	r := benchResource(b, "bench-block-parallel", 0)
	ctx := context.Background()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, be := r.Entry(ctx); be == nil {
				b.Error("not blocked")
				return
			}
		}
	})
}

func BenchmarkEntryExitNoRules(b *testing.B) {
	r := NewResource("bench-no-rules")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		e, _ := r.Entry(ctx)
		e.Exit()
	}
}

func BenchmarkEntryExitWithOptions(b *testing.B) {
	r := benchResource(b, "bench-options", 1e12)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		e, be := r.Entry(ctx, AcquireCount(2), Prioritized())
		if be != nil {
			b.Fatal(be)
		}
		e.Exit()
	}
}

func BenchmarkEntryToExitPass(b *testing.B) {
	r := benchResource(b, "bench-pass-to", 1e12)
	ctx := context.Background()
	b.ReportAllocs()
	var e Entry
	for b.Loop() {
		if be := r.EntryTo(&e, ctx); be != nil {
			b.Fatal(be)
		}
		e.Exit()
	}
}

// BenchmarkEntryExitPassConcurrency is BenchmarkEntryExitPass with a
// concurrency rule in place of the QPS rule: the pass path of the grade that
// reserves a place in flight.
func BenchmarkEntryExitPassConcurrency(b *testing.B) {
	benchPasses(b, benchResourceWith(b, FlowRule{Resource: "bench-pass-concurrency", Grade: FlowGradeConcurrency, Count: 1e12}))
}
