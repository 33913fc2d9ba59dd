package grpcguard

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// named gives the test's resources names of their own: the runtime's
// statistics and rules are process-wide.
func named(t *testing.T) Option {
	return WithResourceName(func(m string) string { return t.Name() + m })
}

func serverGuards(t *testing.T, opts ...Option) []grpc.ServerOption {
	opts = append([]Option{named(t)}, opts...)
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(recoverPanics, UnaryServerInterceptor(opts...)),
		grpc.ChainStreamInterceptor(StreamServerInterceptor(opts...)),
	}
}

func retryDelay(err error) time.Duration {
	for _, d := range status.Convert(err).Details() {
		if ri, ok := d.(*errdetails.RetryInfo); ok {
			return ri.RetryDelay.AsDuration()
		}
	}
	return 0
}

func TestUnaryServerFlowBlockIsResourceExhausted(t *testing.T) {
	useManualClock(t)
	c, _ := startServer(t, serverGuards(t))
	name := t.Name() + checkMethod
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: name, Grade: runtime.FlowGradeQPS, Count: 1}}})
	if err := check(c, ""); err != nil {
		t.Fatal(err)
	}
	err := check(c, "")
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("got %v, want ResourceExhausted", err)
	}
	if d := retryDelay(err); d != time.Second {
		t.Errorf("RetryInfo delay %v, want 1s", d)
	}
	res := findResource(name)
	if res == nil || res.TrafficType() != runtime.TrafficInbound || res.ResourceType() != runtime.ResourceTypeRPC {
		t.Fatalf("resource %v: want an inbound RPC resource", res)
	}
	if s := res.Snapshot(); s.Pass != 1 || s.Block != 1 {
		t.Errorf("snapshot %+v, want one pass and one block", s)
	}
}

func TestUnaryServerBreakerIsUnavailable(t *testing.T) {
	clock := useManualClock(t)
	c, _ := startServer(t, serverGuards(t))
	name := t.Name() + checkMethod
	mustLoad(t, runtime.Rules{Degrade: []runtime.DegradeRule{{
		Resource: name, Grade: runtime.DegradeErrorCount, Count: 2, TimeWindowSec: 5, MinRequestAmount: 1,
	}}})
	for range 3 {
		if err := check(c, "missing"); status.Code(err) != codes.NotFound {
			t.Fatalf("got %v, want the handler's NotFound", err)
		}
	}
	if s := findResource(name).Snapshot(); s.Error != 0 {
		t.Fatalf("NotFound traced %d times; it is the caller's error", s.Error)
	}
	for range 3 {
		if err := check(c, "fail"); status.Code(err) != codes.Internal {
			t.Fatalf("got %v, want the handler's Internal", err)
		}
	}
	clock.Advance(time.Second)
	err := check(c, "")
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("got %v, want Unavailable from the open breaker", err)
	}
	if d := retryDelay(err); d != 4*time.Second {
		t.Errorf("RetryInfo delay %v, want 4s", d)
	}
}

func TestAnyErrorTracesEveryStatus(t *testing.T) {
	useManualClock(t)
	c, _ := startServer(t, serverGuards(t, WithErrorCodes(AnyError)))
	_ = check(c, "missing")
	if s := findResource(t.Name() + checkMethod).Snapshot(); s.Error != 1 {
		t.Errorf("errors %d, want the NotFound traced", s.Error)
	}
}

func TestServerPanicIsTraced(t *testing.T) {
	useManualClock(t)
	c, _ := startServer(t, serverGuards(t))
	if err := check(c, "panic"); status.Code(err) != codes.Internal {
		t.Fatalf("got %v, want Internal from the recovery interceptor", err)
	}
	if s := findResource(t.Name() + checkMethod).Snapshot(); s.Error != 1 || s.Concurrency != 0 {
		t.Errorf("snapshot %+v, want one error and nothing in flight", s)
	}
}

func TestOriginFromMetadata(t *testing.T) {
	useManualClock(t)
	c, hs := startServer(t, serverGuards(t, WithOriginMetadata("x-origin")))
	if err := check(c, "", "x-origin", "billing"); err != nil {
		t.Fatal(err)
	}
	if o := <-hs.origins; o != "billing" {
		t.Errorf("handler saw origin %q, want billing", o)
	}
}

func TestEntranceForChainRules(t *testing.T) {
	useManualClock(t)
	c, hs := startServer(t, serverGuards(t))
	name := t.Name() + checkMethod
	if err := check(c, ""); err != nil {
		t.Fatal(err)
	}
	if e := <-hs.entrances; e != "" {
		t.Errorf("entrance %q without a chain rule naming the method", e)
	}
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{
		Resource: "inner", Grade: runtime.FlowGradeQPS, Count: 5, Strategy: runtime.StrategyChain, RefResource: name,
	}}})
	if err := check(c, ""); err != nil {
		t.Fatal(err)
	}
	if e := <-hs.entrances; e != name {
		t.Errorf("entrance %q, want %q", e, name)
	}
}

func TestBlockErrorOverride(t *testing.T) {
	useManualClock(t)
	c, _ := startServer(t, serverGuards(t, WithBlockError(func(be *runtime.BlockError) error {
		return status.Error(codes.Aborted, be.Type().String())
	})))
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: t.Name() + checkMethod, Grade: runtime.FlowGradeQPS}}})
	if err := check(c, ""); status.Code(err) != codes.Aborted || status.Convert(err).Message() != "flow" {
		t.Errorf("got %v, want the override's Aborted", err)
	}
}

func TestStreamServer(t *testing.T) {
	useManualClock(t)
	c, _ := startServer(t, serverGuards(t))
	name := t.Name() + watchMethod
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: name, Grade: runtime.FlowGradeQPS, Count: 2}}})
	recvAll := func(service string) error {
		st, err := c.Watch(context.Background(), &healthpb.HealthCheckRequest{Service: service})
		if err != nil {
			return err
		}
		for {
			if _, err := st.Recv(); err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
		}
	}
	if err := recvAll(""); err != nil {
		t.Fatal(err)
	}
	if err := recvAll("fail"); status.Code(err) != codes.Unavailable {
		t.Fatalf("got %v, want the handler's Unavailable", err)
	}
	if err := recvAll(""); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("got %v, want ResourceExhausted", err)
	}
	if s := findResource(name).Snapshot(); s.Pass != 2 || s.Error != 1 || s.Concurrency != 0 {
		t.Errorf("snapshot %+v, want 2 passes, 1 error, nothing in flight", s)
	}
}

func clientGuards(t *testing.T, opts ...Option) []grpc.DialOption {
	opts = append([]Option{WithResourceName(func(m string) string { return t.Name() + "/client" + m })}, opts...)
	return []grpc.DialOption{
		grpc.WithChainUnaryInterceptor(UnaryClientInterceptor(opts...)),
		grpc.WithChainStreamInterceptor(StreamClientInterceptor(opts...)),
	}
}

func TestUnaryClientBlocksBeforeTheNetwork(t *testing.T) {
	useManualClock(t)
	c, hs := startServer(t, nil, clientGuards(t)...)
	name := t.Name() + "/client" + checkMethod
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: name, Grade: runtime.FlowGradeQPS, Count: 1}}})
	if err := check(c, "fail"); status.Code(err) != codes.Internal {
		t.Fatalf("got %v, want the server's Internal", err)
	}
	<-hs.origins
	if err := check(c, ""); status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("got %v, want ResourceExhausted", err)
	}
	select {
	case <-hs.origins:
		t.Error("the blocked call reached the server")
	default:
	}
	res := findResource(name)
	if res.TrafficType() != runtime.TrafficOutbound {
		t.Error("client resource is not outbound")
	}
	if s := res.Snapshot(); s.Pass != 1 || s.Block != 1 || s.Error != 1 {
		t.Errorf("snapshot %+v, want one pass, one block, one error", s)
	}
}

func TestStreamClientEndsWithTheStream(t *testing.T) {
	useManualClock(t)
	c, _ := startServer(t, nil, clientGuards(t)...)
	res := func() *runtime.Resource { return findResource(t.Name() + "/client" + watchMethod) }
	st, err := c.Watch(context.Background(), &healthpb.HealthCheckRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if s := res().Snapshot(); s.Concurrency != 1 {
		t.Fatalf("in flight %d during the stream, want 1", s.Concurrency)
	}
	for {
		if _, err := st.Recv(); err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
	}
	if s := res().Snapshot(); s.Concurrency != 0 || s.Success != 1 || s.Error != 0 {
		t.Fatalf("after EOF: %+v, want one success, nothing in flight", s)
	}

	// A stream abandoned by cancelling its context ends too.
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := c.Watch(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for res().Snapshot().Concurrency != 0 {
		if time.Now().After(deadline) {
			t.Fatal("a cancelled stream stayed in flight")
		}
		time.Sleep(time.Millisecond)
	}
}

// TestStreamClientCompletedStreamsAreSuccesses reads many streams to their
// end: each is one success and none an error. gRPC cancels a stream's own
// context as soon as the stream completes, so a guard that watched that
// context instead of the caller's could end the call first, with
// context.Canceled, and count it failed.
func TestStreamClientCompletedStreamsAreSuccesses(t *testing.T) {
	useManualClock(t)
	c, _ := startServer(t, nil, clientGuards(t)...)
	const streams = 300
	for range streams {
		st, err := c.Watch(context.Background(), &healthpb.HealthCheckRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, err := st.Recv(); err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatal(err)
				}
				break
			}
		}
	}
	if s := findResource(t.Name() + "/client" + watchMethod).Snapshot(); s.Success != streams || s.Error != 0 || s.Concurrency != 0 {
		t.Fatalf("after %d completed streams: %+v, want all successes, no error, nothing in flight", streams, s)
	}
}
