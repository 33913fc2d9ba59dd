package grpcguard

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// The health service is real protoc-generated code shipped with grpc-go,
// so the tests run real messages over a real connection without a code
// generator of their own.
const (
	checkMethod = "/grpc.health.v1.Health/Check"
	watchMethod = "/grpc.health.v1.Health/Watch"
)

// healthServer answers by the requested service name: "fail" with
// Internal, "missing" with NotFound, "panic" by panicking; anything else
// SERVING. It records the origin and entrance its calls saw.
type healthServer struct {
	healthpb.UnimplementedHealthServer
	origins, entrances chan string
}

func (h *healthServer) Check(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	h.record(ctx)
	switch req.Service {
	case "fail":
		return nil, status.Error(codes.Internal, "broken")
	case "missing":
		return nil, status.Error(codes.NotFound, "no such service")
	case "panic":
		panic("boom")
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

func (h *healthServer) Watch(req *healthpb.HealthCheckRequest, ss healthpb.Health_WatchServer) error {
	h.record(ss.Context())
	if req.Service == "fail" {
		return status.Error(codes.Unavailable, "down")
	}
	for range 2 {
		if err := ss.Send(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}); err != nil {
			return err
		}
	}
	return nil
}

func (h *healthServer) record(ctx context.Context) {
	select {
	case h.origins <- runtime.OriginFrom(ctx):
	default:
	}
	select {
	case h.entrances <- runtime.EntranceFrom(ctx):
	default:
	}
}

// recoverPanics turns a handler panic into Internal, as a recovery
// interceptor placed outside the guard would.
func recoverPanics(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = status.Errorf(codes.Internal, "panic: %v", v)
		}
	}()
	return handler(ctx, req)
}

// startServer serves the health service on 127.0.0.1 behind the given
// server options and returns a client connection with the given dial
// options.
func startServer(t *testing.T, srvOpts []grpc.ServerOption, dialOpts ...grpc.DialOption) (healthpb.HealthClient, *healthServer) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(srvOpts...)
	hs := &healthServer{origins: make(chan string, 16), entrances: make(chan string, 16)}
	healthpb.RegisterHealthServer(srv, hs)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(),
		append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, dialOpts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return healthpb.NewHealthClient(conn), hs
}

// clockStart moves each test's manual clock to a time of its own, so the
// statistics of a resource used again (-count) are not in its windows.
var clockStart = 1000 * time.Second

func useManualClock(t *testing.T) *runtime.ManualClock {
	t.Helper()
	clockStart += 100 * time.Second
	c := runtime.NewManualClock(clockStart)
	runtime.SetClock(c)
	t.Cleanup(func() {
		runtime.SetClock(nil)
		if err := runtime.LoadRules(runtime.Rules{}); err != nil {
			t.Errorf("clearing rules: %v", err)
		}
	})
	return c
}

func mustLoad(t *testing.T, rules runtime.Rules) {
	t.Helper()
	if err := runtime.LoadRules(rules); err != nil {
		t.Fatal(err)
	}
}

func findResource(name string) *runtime.Resource {
	for _, r := range runtime.Resources() {
		if r.Name() == name {
			return r
		}
	}
	return nil
}

func check(c healthpb.HealthClient, service string, md ...string) error {
	ctx := context.Background()
	if len(md) != 0 {
		ctx = metadata.AppendToOutgoingContext(ctx, md...)
	}
	_, err := c.Check(ctx, &healthpb.HealthCheckRequest{Service: service})
	return err
}
