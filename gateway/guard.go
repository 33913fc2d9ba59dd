package gateway

import (
	"net/http"
	"sync"

	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// Guard applies the gateway rules in force to the requests it passes to
// the next handler: it enters the request's route (when WithRoute names
// it) and every API definition whose predicates match the request's path,
// each with the arguments of its gateway rules, and answers a block with
// the block handler. Its resources are inbound gateway resources. Do not
// put a route under both a Guard and an httpguard guard with the same
// name: the request would enter the one resource twice.
type Guard struct {
	next      http.Handler
	route     func(*http.Request) string
	block     httpguard.BlockHandler
	resources sync.Map // name -> *runtime.Resource
}

// Option configures a Guard.
type Option func(*Guard)

// WithRoute names a request's route resource ("" for none), for rules with
// ModeRoute; without it only API definitions are entered. For a ServeMux:
//
//	gateway.WithRoute(func(r *http.Request) string { _, p := mux.Handler(r); return p })
func WithRoute(route func(r *http.Request) string) Option {
	return func(g *Guard) { g.route = route }
}

// WithBlockHandler sets the response to a blocked request (default
// httpguard.DefaultBlockHandler: 429, as Sentinel's gateways answer).
func WithBlockHandler(h httpguard.BlockHandler) Option {
	return func(g *Guard) { g.block = h }
}

// NewGuard returns a Guard in front of next.
func NewGuard(next http.Handler, opts ...Option) *Guard {
	g := &Guard{next: next, block: httpguard.DefaultBlockHandler}
	for _, o := range opts {
		o(g)
	}
	return g
}

func (g *Guard) resource(name string) *runtime.Resource {
	if r, ok := g.resources.Load(name); ok {
		return r.(*runtime.Resource)
	}
	r, _ := g.resources.LoadOrStore(name, runtime.NewResource(name,
		runtime.WithTrafficType(runtime.TrafficInbound), runtime.WithResourceType(runtime.ResourceTypeGateway)))
	return r.(*runtime.Resource)
}

func (a compiledAPI) matches(path string) bool {
	for _, m := range a.matchers {
		if m.match(path) {
			return true
		}
	}
	return false
}
