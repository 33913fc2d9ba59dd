package routecache

import "github.com/sentinelgen/sentinelgen/adapters/internal/nametable"

// Routes is a table of values by route template and request method, for
// the middleware of routers that name a request's route by its template.
// A lookup is two nametable lookups (the template, then the method), which
// hash a few bytes of each name; a Map keyed by the pair hashes both
// strings whole. Like Map, it suits the bounded sets of routes a service
// registers. The zero Routes is empty and ready for use; it is safe for
// concurrent use.
type Routes[V any] struct {
	templates nametable.Table[*nametable.Table[V]]
}

// Load returns the value of the route and whether there is one.
func (m *Routes[V]) Load(template, method string) (V, bool) {
	if byMethod, ok := m.templates.Load(template); ok {
		return byMethod.Load(method)
	}
	var zero V
	return zero, false
}

// LoadOrMake returns the value of the route, calling create to make it
// when there is none. create runs at most once per route.
func (m *Routes[V]) LoadOrMake(template, method string, create func() V) V {
	byMethod := m.templates.LoadOrMake(template, func() *nametable.Table[V] { return new(nametable.Table[V]) })
	return byMethod.LoadOrMake(method, create)
}
