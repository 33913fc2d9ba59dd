package httpguard

import (
	"net/http"
	"strings"
	"sync"

	"github.com/sentinelgen/sentinelgen/adapters/internal/nametable"
	"github.com/sentinelgen/sentinelgen/adapters/internal/rulewatch"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Guard creates guarded routes sharing one configuration. Its methods are
// safe for concurrent use.
type Guard struct {
	cfg config
	// resources caches the resources of names found per request (URL
	// cleaner, method from the request), sparing NewResource's lock.
	resources sync.Map // string -> *runtime.Resource
}

// New returns a Guard with the given options over the defaults: resource
// names as the patterns are written, inbound web resources, DefaultBlockHandler,
// panics and 5xx statuses traced.
func New(opts ...Option) *Guard {
	rulewatch.Start()
	g := &Guard{cfg: defaultConfig()}
	for _, o := range opts {
		o(&g.cfg)
	}
	return g
}

// Handle registers h on mux for pattern, guarded by the pattern's resource.
func (g *Guard) Handle(mux *http.ServeMux, pattern string, h http.Handler, opts ...Option) {
	mux.Handle(pattern, g.Wrap(pattern, h, opts...))
}

// HandleFunc is Handle for a handler function.
func (g *Guard) HandleFunc(mux *http.ServeMux, pattern string, f func(http.ResponseWriter, *http.Request), opts ...Option) {
	g.Handle(mux, pattern, http.HandlerFunc(f), opts...)
}

// Wrap returns h guarded by the resource of pattern, for registering with
// any router under that pattern. The pattern is a ServeMux pattern
// ("[METHOD ][HOST]/[PATH]"); PathValue reads Request.PathValue, which the
// router must set.
func (g *Guard) Wrap(pattern string, h http.Handler, opts ...Option) http.Handler {
	return g.newRoute(pattern, h, false, opts)
}

// Mux returns a handler that guards every route of mux and then lets mux
// serve the request. It finds the route with mux.Handler, which routes the
// request once more (the mux sets Request.Pattern only on the request it
// hands to the handler). Requests that match no route are served unguarded
// unless a URL cleaner names them. Routes registered on mux later are
// guarded too.
func (g *Guard) Mux(mux *http.ServeMux, opts ...Option) http.Handler {
	m := &muxGuard{g: g, mux: mux, opts: opts}
	m.unmatched = g.newRoute("", mux, true, opts)
	return m
}

type muxGuard struct {
	g         *Guard
	mux       *http.ServeMux
	opts      []Option
	unmatched *route
	// routes holds the route of each pattern of mux, a bounded set.
	routes nametable.Table[*route]
}

// ServeHTTP finds the request's pattern and serves it through that
// pattern's route, made on first use.
func (m *muxGuard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, pattern := m.mux.Handler(r)
	if pattern == "" {
		m.unmatched.ServeHTTP(w, r)
		return
	}
	rt, ok := m.routes.Load(pattern)
	if !ok {
		rt = m.routes.LoadOrMake(pattern, func() *route { return m.g.newRoute(pattern, m.mux, true, m.opts) })
	}
	rt.ServeHTTP(w, r)
}

// route is one guarded pattern.
type route struct {
	g    *Guard
	cfg  config
	next http.Handler
	// name is the resource name when it does not depend on the request,
	// and res its resource (nil when there is none or a cleaner runs).
	name string
	res  *runtime.Resource
	// path is the pattern without method and host, for path values under
	// Mux (beforeMux); "" otherwise.
	path string
	// byMethod holds the names of a method-less pattern under
	// WithMethodPrefix(true), per request method.
	byMethod  map[string]string
	beforeMux bool
}

func (g *Guard) newRoute(pattern string, next http.Handler, beforeMux bool, opts []Option) *route {
	rt := &route{g: g, cfg: g.cfg, next: next, beforeMux: beforeMux}
	rt.cfg.params = append([]Param(nil), g.cfg.params...)
	for _, o := range opts {
		o(&rt.cfg)
	}
	method, hostPath := splitPattern(pattern)
	if beforeMux {
		if i := strings.IndexByte(hostPath, '/'); i >= 0 {
			rt.path = hostPath[i:]
		}
	}
	switch {
	case pattern == "":
		// Mux's unmatched requests: only a cleaner can name them.
	case rt.cfg.methodPrefix < 0 || method == "" && rt.cfg.methodPrefix == 0:
		rt.name = hostPath
	case method != "":
		rt.name = method + " " + hostPath
	default:
		rt.byMethod = map[string]string{}
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut,
			http.MethodPatch, http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace} {
			rt.byMethod[m] = m + " " + hostPath
		}
		rt.name = hostPath // completed per request
	}
	if rt.name != "" && rt.byMethod == nil && rt.cfg.cleaner == nil {
		rt.res = g.declare(rt.cfg, rt.name)
	}
	return rt
}

// splitPattern splits a ServeMux pattern into its method and the rest,
// dropping the blanks between them.
func splitPattern(p string) (method, hostPath string) {
	if i := strings.IndexAny(p, " \t"); i >= 0 {
		return p[:i], strings.TrimLeft(p[i:], " \t")
	}
	return "", p
}

// declare creates the resource of name with the route's types and the
// names of its hot parameters.
func (g *Guard) declare(cfg config, name string) *runtime.Resource {
	opts := []runtime.ResourceOption{runtime.WithTrafficType(cfg.traffic), runtime.WithResourceType(cfg.resourceType)}
	if len(cfg.params) != 0 {
		names := make([]string, len(cfg.params))
		for i, p := range cfg.params {
			names[i] = p.Name()
		}
		opts = append(opts, runtime.WithParamNames(names...))
	}
	return runtime.NewResource(name, opts...)
}

// resource returns the resource of a name found per request.
func (g *Guard) resource(cfg config, name string) *runtime.Resource {
	if r, ok := g.resources.Load(name); ok {
		return r.(*runtime.Resource)
	}
	r, _ := g.resources.LoadOrStore(name, g.declare(cfg, name))
	return r.(*runtime.Resource)
}

// resourceFor finds the request's resource and its name; a nil resource
// means the request is not guarded.
func (rt *route) resourceFor(r *http.Request) (*runtime.Resource, string) {
	if rt.res != nil {
		return rt.res, rt.name
	}
	name := rt.name
	if rt.byMethod != nil {
		if n, ok := rt.byMethod[r.Method]; ok {
			name = n
		} else {
			name = r.Method + " " + name
		}
	}
	if rt.cfg.cleaner != nil {
		name = rt.cfg.cleaner(r, name)
	}
	if name == "" {
		return nil, ""
	}
	return rt.g.resource(rt.cfg, name), name
}
