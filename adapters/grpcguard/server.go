package grpcguard

import (
	"context"
	"errors"

	"google.golang.org/grpc"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// ErrPanic is the error traced for a handler that panicked.
var ErrPanic = errors.New("grpcguard: handler panicked")

// UnaryServerInterceptor guards each unary method as an inbound resource.
func UnaryServerInterceptor(opts ...Option) grpc.UnaryServerInterceptor {
	g := newGuard(opts, runtime.TrafficInbound, true)
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
		res := g.resource(info.FullMethod)
		if res == nil {
			return handler(ctx, req)
		}
		var e runtime.Entry
		ctx, err := g.enter(ctx, res, &e, info.FullMethod, req)
		if err != nil {
			return nil, err
		}
		defer endOnPanic(&e)
		resp, err := handler(ctx, req)
		g.done(&e, err)
		return resp, err
	}
}

// StreamServerInterceptor guards each streaming method as an inbound
// resource: the call runs from the stream's start to the handler's return.
func StreamServerInterceptor(opts ...Option) grpc.StreamServerInterceptor {
	g := newGuard(opts, runtime.TrafficInbound, false)
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
		res := g.resource(info.FullMethod)
		if res == nil {
			return handler(srv, ss)
		}
		var e runtime.Entry
		ctx, err := g.enter(ss.Context(), res, &e, info.FullMethod, nil)
		if err != nil {
			return err
		}
		if ctx != ss.Context() {
			ss = &contextStream{ServerStream: ss, ctx: ctx}
		}
		defer endOnPanic(&e)
		err = handler(srv, ss)
		g.done(&e, err)
		return err
	}
}

// endOnPanic, deferred, traces and ends a call whose handler panicked,
// without recovering: the panic goes on unchanged to the server's recovery
// interceptor, if any. After a normal end (done) the Entry's Exit has run
// and these calls do nothing.
func endOnPanic(e *runtime.Entry) {
	e.TraceError(ErrPanic)
	e.Exit()
}

// contextStream is a server stream with the guard's context.
type contextStream struct {
	grpc.ServerStream
	ctx context.Context
}

// Context returns the context carrying the origin and entrance.
func (s *contextStream) Context() context.Context { return s.ctx }
