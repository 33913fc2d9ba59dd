package grpcguard

import (
	"context"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestBlockPathDoesNotAllocate holds the block path of the default status
// to no allocation once the status of a rule is made, and the pass path
// to none at all.
func TestBlockPathDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	useManualClock(t)
	guard := UnaryServerInterceptor(named(t))
	handler := func(ctx context.Context, req any) (any, error) { return req, nil }
	pass := &grpc.UnaryServerInfo{FullMethod: "/alloc.Svc/Pass"}
	block := &grpc.UnaryServerInfo{FullMethod: "/alloc.Svc/Block"}
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{
		{Resource: t.Name() + pass.FullMethod, Grade: runtime.FlowGradeQPS, Count: 1e12},
		{Resource: t.Name() + block.FullMethod, Grade: runtime.FlowGradeQPS, Count: 0},
	}})
	ctx, req := context.Background(), new(int)
	_, err := guard(ctx, req, block, handler)
	if status.Code(err) != codes.ResourceExhausted || retryDelay(err) == 0 {
		t.Fatalf("got %v, want ResourceExhausted with a RetryInfo", err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = guard(ctx, req, block, handler) }); n != 0 {
		t.Errorf("block path: %v allocations per call", n)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = guard(ctx, req, pass, handler) }); n != 0 {
		t.Errorf("pass path: %v allocations per call", n)
	}
}
