package grpcguard

import (
	"context"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Option configures an interceptor.
type Option func(*config)

type config struct {
	name         func(fullMethod string) string
	blockErr     func(be *runtime.BlockError) error
	isError      func(code codes.Code) bool
	origin       func(ctx context.Context) string
	params       func(ctx context.Context, fullMethod string, req any) []runtime.ParamArg
	resourceType runtime.ResourceType
}

func newConfig(opts []Option) config {
	c := config{blockErr: BlockStatus, isError: ServerFault, resourceType: runtime.ResourceTypeRPC}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithResourceName maps a full method name ("/pkg.Service/Method") to the
// resource name; "" leaves the method unguarded. Java's gRPC adapter names
// resources without the leading slash: strings.TrimPrefix does that.
func WithResourceName(name func(fullMethod string) string) Option {
	return func(c *config) { c.name = name }
}

// WithBlockError sets the error a blocked call fails with (default
// BlockStatus). be is the runtime's shared *BlockError: do not modify it.
func WithBlockError(f func(be *runtime.BlockError) error) Option {
	return func(c *config) { c.blockErr = f }
}

// WithErrorCodes sets which status codes of a finished call count as a
// failure for the error statistics and the error-based breakers (default
// ServerFault). AnyError traces every non-OK status, as Sentinel's Java
// adapter does.
func WithErrorCodes(isError func(code codes.Code) bool) Option {
	return func(c *config) { c.isError = isError }
}

// WithOrigin sets the function naming the caller of a call (server side),
// put in the context with runtime.WithOrigin for authority rules and flow
// rules with a LimitApp.
func WithOrigin(origin func(ctx context.Context) string) Option {
	return func(c *config) { c.origin = origin }
}

// WithOriginMetadata takes the origin from the first value of an incoming
// metadata key (e.g. "x-sentinel-origin"). Callers can send anything: trust
// it only behind a proxy that sets or strips the key.
func WithOriginMetadata(key string) Option {
	return WithOrigin(func(ctx context.Context) string {
		if v := metadata.ValueFromIncomingContext(ctx, key); len(v) != 0 {
			return v[0]
		}
		return ""
	})
}

// WithParams sets the hot-parameter arguments of unary calls, computed from
// the request message only while a hot-parameter rule names the method's
// resource. args[i] is ParamFlowRule.ParamIdx i.
func WithParams(args func(ctx context.Context, fullMethod string, req any) []runtime.ParamArg) Option {
	return func(c *config) { c.params = args }
}

// WithResourceType sets the resources' type (default runtime.ResourceTypeRPC).
func WithResourceType(t runtime.ResourceType) Option {
	return func(c *config) { c.resourceType = t }
}

// ServerFault reports whether code is one HTTP would answer with a 5xx
// (google/rpc/code.proto's mapping): Unknown, DeadlineExceeded,
// Unimplemented, Internal, Unavailable and DataLoss. Errors of the caller
// (InvalidArgument, NotFound, Canceled...) do not open a breaker.
func ServerFault(code codes.Code) bool {
	switch code {
	case codes.Unknown, codes.DeadlineExceeded, codes.Unimplemented, codes.Internal, codes.Unavailable, codes.DataLoss:
		return true
	}
	return false
}

// AnyError reports whether code is not OK.
func AnyError(code codes.Code) bool { return code != codes.OK }
