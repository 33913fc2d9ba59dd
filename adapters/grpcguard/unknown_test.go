package grpcguard

import (
	"context"
	"fmt"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestStreamServerGuardsUnknownMethods calls methods no service registers,
// which reach grpc.UnknownServiceHandler through the stream server
// interceptor with whatever name the client sent: each name is a resource
// of its own, kept in the table for unbounded names, and rules apply to it.
func TestStreamServerGuardsUnknownMethods(t *testing.T) {
	useManualClock(t)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	answer := func(_ any, ss grpc.ServerStream) error {
		var req healthpb.HealthCheckRequest
		if err := ss.RecvMsg(&req); err != nil {
			return err
		}
		return ss.SendMsg(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING})
	}
	srv := grpc.NewServer(grpc.StreamInterceptor(StreamServerInterceptor()), grpc.UnknownServiceHandler(answer))
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	call := func(method string) error {
		return conn.Invoke(context.Background(), method, &healthpb.HealthCheckRequest{}, new(healthpb.HealthCheckResponse))
	}
	const names = 40
	method := func(i int) string { return fmt.Sprintf("/%s.Unknown/M%d", t.Name(), i) }
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: method(7), Grade: runtime.FlowGradeQPS, Count: 0}}})
	for i := range names {
		err := call(method(i))
		if i == 7 {
			if status.Code(err) != codes.ResourceExhausted {
				t.Fatalf("%s under a QPS rule of 0: %v, want ResourceExhausted", method(i), err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", method(i), err)
		}
		if r := findResource(method(i)); r == nil || r.Snapshot().Success != 1 {
			t.Fatalf("%s: resource %v, want one success recorded", method(i), r)
		}
	}
}
