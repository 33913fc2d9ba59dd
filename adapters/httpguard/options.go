package httpguard

import (
	"net/http"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Option configures a Guard (New) or one route (the options of Handle,
// HandleFunc, Wrap and Mux, applied after the Guard's).
type Option func(*config)

// config is what the options set; a route copies its Guard's and applies
// its own options on top.
type config struct {
	methodPrefix int8 // 0: the pattern as written; 1: always a method; -1: never
	cleaner      func(r *http.Request, name string) string
	origin       func(r *http.Request) string
	block        BlockHandler
	isError      func(status int) bool
	tracePanics  bool
	params       []Param
	traffic      runtime.TrafficType
	resourceType runtime.ResourceType
}

func defaultConfig() config {
	return config{
		block:        DefaultBlockHandler,
		isError:      ServerErrorStatus,
		tracePanics:  true,
		traffic:      runtime.TrafficInbound,
		resourceType: runtime.ResourceTypeWeb,
	}
}

// WithMethodPrefix fixes whether resource names start with the HTTP method.
// Without this option a name is the pattern as registered, with one blank
// after a method: "GET /orders/{id}" keeps its method and "/health" has none.
// With on, a pattern without a method gets the request's method, so
// "/health" is one resource per method ("GET /health", "POST /health");
// with off, the method is dropped ("/orders/{id}"), as in Sentinel's web
// adapters by default.
func WithMethodPrefix(on bool) Option {
	return func(c *config) {
		c.methodPrefix = -1
		if on {
			c.methodPrefix = 1
		}
	}
}

// WithURLCleaner sets a function that turns the name derived from the
// pattern into the resource name for a request (Sentinel's UrlCleaner).
// Returning "" serves the request without a guard. Under Mux, requests that
// match no pattern (404, 405) have the name "", which the cleaner may map to
// a resource of their own. Every distinct name is a resource with its own
// statistics, kept for the life of the process: do not return names made of
// unbounded request data.
func WithURLCleaner(clean func(r *http.Request, name string) string) Option {
	return func(c *config) { c.cleaner = clean }
}

// WithOriginParser sets the function that names the caller of a request
// (Sentinel's RequestOriginParser). A non-empty origin is put in the
// request's context with runtime.WithOrigin, for authority rules and flow
// rules with a LimitApp, on the route and on every guarded call the handler
// makes.
func WithOriginParser(parse func(r *http.Request) string) Option {
	return func(c *config) { c.origin = parse }
}

// WithOriginHeader takes the origin from the first value of a request
// header, e.g. "X-Sentinel-Origin". Callers can set it to anything: use it
// for authority rules only behind a proxy that sets or strips the header.
func WithOriginHeader(name string) Option {
	key := http.CanonicalHeaderKey(name)
	return WithOriginParser(func(r *http.Request) string {
		if v := r.Header[key]; len(v) != 0 {
			return v[0]
		}
		return ""
	})
}

// WithBlockHandler sets the response to a blocked request (default
// DefaultBlockHandler).
func WithBlockHandler(h BlockHandler) Option {
	return func(c *config) { c.block = h }
}

// WithErrorStatus sets which response statuses count as failed calls for
// the error statistics and error-based circuit breakers (default
// ServerErrorStatus: 500 and above). nil traces no status, and spares the
// wrapping of the ResponseWriter that records the status.
func WithErrorStatus(isError func(status int) bool) Option {
	return func(c *config) { c.isError = isError }
}

// WithTracePanics sets whether a handler that panics counts as a failed
// call (default true). The panic goes on unchanged either way.
func WithTracePanics(on bool) Option {
	return func(c *config) { c.tracePanics = on }
}

// WithParams sets the hot-parameter arguments of the route's requests:
// the i-th Param is argument i (ParamFlowRule.ParamIdx i). They are computed
// only while a hot-parameter rule names the resource.
func WithParams(params ...Param) Option {
	return func(c *config) { c.params = append([]Param(nil), params...) }
}

// WithTrafficType sets the traffic type of the resources (default
// runtime.TrafficInbound: system rules check inbound resources only).
func WithTrafficType(t runtime.TrafficType) Option {
	return func(c *config) { c.traffic = t }
}

// WithResourceType sets the type of the resources (default
// runtime.ResourceTypeWeb).
func WithResourceType(t runtime.ResourceType) Option {
	return func(c *config) { c.resourceType = t }
}

// ServerErrorStatus reports whether status is 500 or above, the default
// WithErrorStatus predicate.
func ServerErrorStatus(status int) bool { return status >= 500 }
