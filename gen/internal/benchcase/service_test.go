package benchcase

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen"
	"github.com/sentinelgen/sentinelgen/internal/cachedir"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// The checked-in generated file must be what the generator writes today.
func TestGeneratedFileIsUpToDate(t *testing.T) {
	t.Setenv(cachedir.Env, t.TempDir()) // the loader's listing is not the user's business
	pkgs, diags, err := annotate.Load(".", []string{"."}, annotate.Options{})
	if err != nil || len(diags) > 0 || len(pkgs) != 1 {
		t.Fatalf("load: %v, %v, %d packages", err, diags, len(pkgs))
	}
	want, err := gen.Generate(pkgs[0])
	if err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile(annotate.GeneratedFileName)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatal("sentinel_gen.go is stale: run go generate ./gen/internal/benchcase")
	}
}

// A guarded call allocates nothing, on the pass path and on the error path.
func TestGuardedCallDoesNotAllocate(t *testing.T) {
	g := NewGuardedService(&Service{})
	ctx := context.Background()
	for _, id := range []int{1, -1} {
		allocs := testing.AllocsPerRun(1000, func() {
			if _, err := g.Get(ctx, id); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("Get(%d): %v allocations per call; want 0", id, allocs)
		}
	}
}

// useParamRule puts one hot-parameter rule on the generated resource's id
// in force for the rest of tb, with a threshold no benchmark reaches.
func useParamRule(tb testing.TB) {
	tb.Helper()
	err := runtime.LoadRules(runtime.Rules{ParamFlow: []runtime.ParamFlowRule{{
		Resource: "benchcase.generated", Grade: runtime.FlowGradeQPS, ParamIdx: 0, Count: 1e12,
	}}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
}

// With a param rule in force the wrapper builds the key of id on the stack
// and hands it to the runtime: still nothing allocated, for a value the
// rule has seen before.
func TestGuardedCallWithParamRuleDoesNotAllocate(t *testing.T) {
	useParamRule(t)
	g := NewGuardedService(&Service{})
	ctx := context.Background()
	if !resServiceGet.HasParamRules() {
		t.Fatal("the param rule is not in force")
	}
	for _, id := range []int{1, -1} {
		_, _ = g.Get(ctx, id) // the value's first sight stores it
		allocs := testing.AllocsPerRun(1000, func() {
			if _, err := g.Get(ctx, id); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("Get(%d): %v allocations per call; want 0", id, allocs)
		}
	}
}

// The generated call hands its id to the runtime: a rule refusing one id
// sends that call to the fallback and lets the others through.
func TestParamRuleSeesTheId(t *testing.T) {
	err := runtime.LoadRules(runtime.Rules{ParamFlow: []runtime.ParamFlowRule{{
		Resource: "benchcase.generated", Grade: runtime.FlowGradeQPS, ParamIdx: 0, Count: 1e12,
		Items: []runtime.ParamFlowItem{{Object: "13", ClassType: "long", Count: 0}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	g := NewGuardedService(&Service{})
	if v, _ := g.Get(context.Background(), 13); v != -1 {
		t.Errorf("Get(13) = %d; want the fallback's -1", v)
	}
	if v, _ := g.Get(context.Background(), 12); v != 24 {
		t.Errorf("Get(12) = %d; want 24", v)
	}
}

func TestGuardedAndHandWrittenAgree(t *testing.T) {
	g := NewGuardedService(&Service{})
	for _, id := range []int{3, -3} {
		a, errA := g.Get(context.Background(), id)
		b, errB := g.HandWrittenGet(context.Background(), id)
		if a != b || errA != errB {
			t.Errorf("id %d: generated %d, %v; hand-written %d, %v", id, a, errA, b, errB)
		}
	}
}

var sink int

func BenchmarkGenerated(b *testing.B) {
	g := NewGuardedService(&Service{})
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		v, _ := g.Get(ctx, i)
		sink += v
	}
}

// BenchmarkGeneratedParamRule is BenchmarkGenerated with one hot-parameter
// rule on id in force: the keys are built and checked on every call. The
// ids cycle through 64 values, hot values the rule already tracks.
func BenchmarkGeneratedParamRule(b *testing.B) {
	useParamRule(b)
	g := NewGuardedService(&Service{})
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		v, _ := g.Get(ctx, i&63)
		sink += v
	}
}

func BenchmarkHandWritten(b *testing.B) {
	s := &Service{}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		v, _ := s.HandWrittenGet(ctx, i)
		sink += v
	}
}

// BenchmarkUnguarded is the method alone, to show the guard's own cost.
func BenchmarkUnguarded(b *testing.B) {
	s := &Service{}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		v, _ := s.get(ctx, i)
		sink += v
	}
}

// The retry budget against a dependency failing half its calls, offered
// 1000 calls a second for a minute of the runtime's clock: with retries=2 the
// dependency sees at most 1.1 times the offered calls, where retrying every
// failure twice would send 1.75 times as many.
func TestRetryBudgetBoundsTheDependencysLoad(t *testing.T) {
	clock := runtime.NewManualClock(time.Hour)
	runtime.SetClock(clock)
	defer runtime.SetClock(nil)
	rng := rand.New(rand.NewPCG(1, 2))
	half := func() bool { return rng.IntN(2) == 0 }
	const offered = 60_000

	inner := &Service{Failing: half}
	guarded := NewGuardedService(inner)
	for i := range offered {
		_, _ = guarded.Flaky(context.Background(), i)
		clock.Advance(time.Millisecond)
	}

	naive := &Service{Failing: half}
	for i := range offered {
		for attempt := 0; attempt < 3; attempt++ {
			if _, err := naive.Flaky(context.Background(), i); err == nil {
				break
			}
		}
	}

	budgeted, unbudgeted := float64(inner.Downstream)/offered, float64(naive.Downstream)/offered
	t.Logf("the dependency saw %.3f× the offered calls with retries=2 and the default budget, %.3f× with two plain retries", budgeted, unbudgeted)
	if budgeted > 1.1 || budgeted < 1.05 {
		t.Errorf("with the budget the dependency saw %.3f× the offered calls, want up to 1.1× and the budget used", budgeted)
	}
	if unbudgeted < 1.7 || unbudgeted > 1.8 {
		t.Errorf("two plain retries sent %.3f× the offered calls, want about 1.75×", unbudgeted)
	}
}
