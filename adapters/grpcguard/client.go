package grpcguard

import (
	"context"
	"errors"
	"io"
	"sync"

	"google.golang.org/grpc"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// UnaryClientInterceptor guards each unary method a client calls as an
// outbound resource: a blocked call fails at once, without reaching the
// network.
func UnaryClientInterceptor(opts ...Option) grpc.UnaryClientInterceptor {
	g := newGuard(opts, runtime.TrafficOutbound, true)
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, callOpts ...grpc.CallOption) error {
		res := g.resource(method)
		if res == nil {
			return invoker(ctx, method, req, reply, cc, callOpts...)
		}
		var e runtime.Entry
		if _, err := g.enter(ctx, res, &e, method, req); err != nil {
			return err
		}
		defer endOnPanic(&e)
		err := invoker(ctx, method, req, reply, cc, callOpts...)
		g.done(&e, err)
		return err
	}
}

// StreamClientInterceptor guards each streaming method a client calls as an
// outbound resource. The call ends when the stream does: RecvMsg returns an
// error (io.EOF is success), the single reply of a client-streaming call
// arrives, or the call's context ends.
func StreamClientInterceptor(opts ...Option) grpc.StreamClientInterceptor {
	g := newGuard(opts, runtime.TrafficOutbound, true)
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, callOpts ...grpc.CallOption) (grpc.ClientStream, error) {
		res := g.resource(method)
		if res == nil {
			return streamer(ctx, desc, cc, method, callOpts...)
		}
		s := &clientStream{g: g, serverStreams: desc.ServerStreams}
		if _, err := g.enter(ctx, res, &s.e, method, nil); err != nil {
			return nil, err
		}
		cs, err := streamer(ctx, desc, cc, method, callOpts...)
		if err != nil {
			g.done(&s.e, err)
			return nil, err
		}
		s.ClientStream = cs
		// A caller that abandons the stream by cancelling its context never
		// sees an error from RecvMsg: end the call then, or it would stay in
		// flight for the concurrency rules forever. The caller's context,
		// not the stream's: gRPC cancels the stream's own context as soon
		// as the stream completes, which raced with RecvMsg's io.EOF and
		// could count a finished stream as failed (context.Canceled).
		s.stop = context.AfterFunc(ctx, func() { s.end(ctx.Err()) })
		return s, nil
	}
}

// clientStream ends its call once, at the stream's end.
type clientStream struct {
	grpc.ClientStream
	g             *guard
	e             runtime.Entry
	serverStreams bool
	once          sync.Once
	stop          func() bool
}

// RecvMsg ends the call on the stream's last message or error.
func (s *clientStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	switch {
	case errors.Is(err, io.EOF):
		s.finish(nil)
	case err != nil:
		s.finish(err)
	case !s.serverStreams:
		s.finish(nil) // the one reply of a unary-response stream
	}
	return err
}

// finish ends the call from the caller's goroutine, which also stops the
// context watch (set before the stream was handed to the caller).
func (s *clientStream) finish(err error) {
	s.end(err)
	s.stop()
}

// end ends the call once, whichever of RecvMsg and the context watch comes
// first.
func (s *clientStream) end(err error) {
	s.once.Do(func() { s.g.done(&s.e, err) })
}
