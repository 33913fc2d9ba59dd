package benchcase

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen"
	"github.com/sentinelgen/sentinelgen/internal/cachedir"
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
