package grpcguard

import (
	"context"
	"sync"

	"google.golang.org/grpc/status"

	"github.com/sentinelgen/sentinelgen/adapters/internal/nametable"
	"github.com/sentinelgen/sentinelgen/adapters/internal/rulewatch"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// guard is what the four interceptors share: the configuration and the
// resources by full method name, nil when unguarded. The methods of unary
// server calls and of client calls are those the program registers or
// calls, a bounded set: they go in a nametable, which a new method
// copies. A stream server interceptor also sees the methods of
// grpc.UnknownServiceHandler, any name a client sends: they go in a
// sync.Map, which a new name does not copy.
type guard struct {
	cfg       config
	traffic   runtime.TrafficType
	bounded   bool
	known     nametable.Table[*runtime.Resource]
	unbounded sync.Map // full method -> *runtime.Resource
}

// newGuard returns the guard of one interceptor; bounded says whether the
// interceptor sees only the methods the program registers or calls.
func newGuard(opts []Option, traffic runtime.TrafficType, bounded bool) *guard {
	rulewatch.Start()
	return &guard{cfg: newConfig(opts), traffic: traffic, bounded: bounded}
}

// resource returns the method's resource and name, or nil when the name
// option leaves it unguarded.
func (g *guard) resource(fullMethod string) *runtime.Resource {
	if g.bounded {
		if r, ok := g.known.Load(fullMethod); ok {
			return r
		}
		return g.known.LoadOrMake(fullMethod, func() *runtime.Resource { return g.declare(fullMethod) })
	}
	if r, ok := g.unbounded.Load(fullMethod); ok {
		return r.(*runtime.Resource)
	}
	r, _ := g.unbounded.LoadOrStore(fullMethod, g.declare(fullMethod))
	return r.(*runtime.Resource)
}

// declare creates the resource of a method, or returns nil when the name
// option leaves the method unguarded.
func (g *guard) declare(fullMethod string) *runtime.Resource {
	name := fullMethod
	if g.cfg.name != nil {
		name = g.cfg.name(fullMethod)
	}
	if name == "" {
		return nil
	}
	return runtime.NewResource(name, runtime.WithTrafficType(g.traffic), runtime.WithResourceType(g.cfg.resourceType))
}

// enter prepares the call's context (origin and entrance, inbound only) and
// asks the resource to admit the call into *e, in place (no exit ticket):
// every caller's Entry is a variable or a stream's field, never copied
// before its Exit.
func (g *guard) enter(ctx context.Context, res *runtime.Resource, e *runtime.Entry, fullMethod string, req any) (context.Context, error) {
	if g.traffic == runtime.TrafficInbound {
		if g.cfg.origin != nil {
			if o := g.cfg.origin(ctx); o != "" {
				ctx = runtime.WithOrigin(ctx, o)
			}
		}
		if rulewatch.ChainNamed(res.Name()) {
			ctx = runtime.WithEntrance(ctx, res.Name())
		}
	}
	var be *runtime.BlockError
	if g.cfg.params != nil && req != nil && res.HasParamRules() {
		be = res.EntryArgsTo(e.InPlace(), ctx, g.cfg.params(ctx, fullMethod, req))
	} else {
		be = res.EntryTo(e.InPlace(), ctx)
	}
	if be != nil {
		return ctx, g.cfg.blockErr(be)
	}
	return ctx, nil
}

// done traces err when its status code counts as failed, and ends the call.
func (g *guard) done(e *runtime.Entry, err error) {
	if err != nil && g.cfg.isError != nil && g.cfg.isError(status.Code(err)) {
		e.TraceError(err)
	}
	e.Exit()
}
