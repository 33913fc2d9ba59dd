package grpcguard

import (
	"context"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// The param-flow and authority rule families through the interceptors, over
// a real loopback connection.

func TestHotParameterFromRequest(t *testing.T) {
	useManualClock(t)
	var calls atomic.Int64 // read by the test, written by the server's goroutines
	byService := WithParams(func(_ context.Context, _ string, req any) []runtime.ParamArg {
		calls.Add(1)
		return []runtime.ParamArg{runtime.StringArg(req.(*healthpb.HealthCheckRequest).Service)}
	})
	c, _ := startServer(t, serverGuards(t, byService))
	if err := check(c, "a"); err != nil {
		t.Fatal(err)
	}
	if calls := calls.Load(); calls != 0 {
		t.Fatalf("arguments computed %d times without a param rule", calls)
	}
	mustLoad(t, runtime.Rules{ParamFlow: []runtime.ParamFlowRule{{Resource: t.Name() + checkMethod, Grade: runtime.FlowGradeQPS, Count: 1}}})
	if err := check(c, "a"); err != nil {
		t.Fatal(err)
	}
	err := check(c, "a")
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("second a: %v, want ResourceExhausted", err)
	}
	if retryDelay(err) != 0 {
		t.Error("RetryInfo on a param-flow block, whose wait is not known")
	}
	if err := check(c, "b"); err != nil {
		t.Errorf("b has its own budget: %v", err)
	}
}

func TestAuthorityFromMetadata(t *testing.T) {
	useManualClock(t)
	c, _ := startServer(t, serverGuards(t, WithOriginMetadata("x-origin")))
	mustLoad(t, runtime.Rules{Authority: []runtime.AuthorityRule{{Resource: t.Name() + checkMethod, LimitApp: "intruder", Strategy: runtime.AuthorityBlack}}})
	if err := check(c, "", "x-origin", "shop"); err != nil {
		t.Errorf("unlisted caller: %v", err)
	}
	if err := check(c, "", "x-origin", "intruder"); status.Code(err) != codes.PermissionDenied {
		t.Errorf("blacklisted caller: %v, want PermissionDenied", err)
	}
}
