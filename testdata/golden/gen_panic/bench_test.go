package panics

import (
	"context"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// fetchExitOnly is Fetch as the generator wrote it before panics were
// traced: a plain deferred Exit. It is the baseline of BenchmarkPass.
func (g *GuardedBackend) fetchExitOnly(ctx context.Context, key string) (string, error) {
	e, blockErr := resBackendFetch.Entry(ctx)
	if blockErr != nil {
		return g.Backend.fetchFallback(ctx, key, blockErr)
	}
	defer e.Exit()
	r0, err := g.Backend.Fetch(ctx, key)
	if err != nil {
		e.TraceError(err)
		return g.Backend.fetchFallback(ctx, key, err)
	}
	return r0, nil
}

// BenchmarkPass measures one admitted call through the generated wrapper
// (the completion flag and deferred closure that trace a panic), through
// the same wrapper with a plain deferred Exit, and through the generated
// wrapper of a resource with ignore= (whose recover is only on the panic
// path), under a QPS rule and an error-ratio breaker with the default clock.
func BenchmarkPass(b *testing.B) {
	if err := runtime.LoadRules(
		[]runtime.FlowRule{
			{Resource: "panics.fetch", Grade: runtime.FlowGradeQPS, Count: 1e9},
			{Resource: "panics.abortable", Grade: runtime.FlowGradeQPS, Count: 1e9},
		},
		[]runtime.DegradeRule{errorRatio("panics.fetch"), errorRatio("panics.abortable")},
	); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = runtime.LoadRules(nil, nil) })
	g := NewGuardedBackend(&Backend{})
	ctx := context.Background()
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := g.Fetch(ctx, "k"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("exit-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := g.fetchExitOnly(ctx, "k"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("generated-ignore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := g.Abortable(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
