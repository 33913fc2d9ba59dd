package httpguard

import (
	"errors"
	"net/http"

	"github.com/sentinelgen/sentinelgen/adapters/internal/routecache"
	"github.com/sentinelgen/sentinelgen/adapters/internal/rulewatch"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// Transport guards outbound HTTP calls: an http.RoundTripper that enters a
// resource for each request before handing it to the RoundTripper it wraps,
// so that flow rules limit what this process sends to a dependency and
// circuit breakers stop calling a dependency that has turned slow or
// failing. Put it in an http.Client:
//
//	client := &http.Client{Transport: httpguard.NewTransport(nil,
//		httpguard.WithPathPatterns("/orders/{id}"))}
//
// A request's resource is named "METHOD HOST/PATTERN", e.g.
// "GET inventory:8080/orders/{id}", with the first of the path patterns
// (WithPathPatterns) that matches the request's path, or "METHOD HOST" when
// none does: never the raw path, whose IDs would make a resource of every
// call. The resources are outbound web resources.
//
// A refused request is not sent: RoundTrip closes its body and returns the
// runtime's *BlockError, which http.Client wraps in a *url.Error, so
// errors.As(err, &be) finds it; be.Rule() names the rule and RetryAfter(be)
// the wait when it is known. An admitted request's call ends when the
// response's header has arrived or the round trip failed: the response time
// the breakers judge is the time to the header, and the body is neither read
// nor buffered. A transport error (a refused connection, a reset, a
// timeout or a cancelled context) and a 5xx status (WithOutboundErrorStatus
// changes which statuses) are traced as errors for the error statistics and
// the error-based breakers.
//
// A Transport is safe for concurrent use.
type Transport struct {
	base http.RoundTripper
	cfg  transportConfig
	// resources holds the resource of every name seen, keyed by what makes
	// the name.
	resources routecache.Map[outboundKey, *runtime.Resource]
}

// outboundKey is what names a request's resource under the default naming:
// pattern is an index into the Transport's patterns, or -1 for none.
type outboundKey struct {
	method, host string
	pattern      int
}

// TransportOption configures a Transport (NewTransport).
type TransportOption func(*transportConfig)

type transportConfig struct {
	patterns []pathPattern
	name     func(r *http.Request) string
	isError  func(status int) bool
}

// WithPathPatterns sets the path patterns that name outbound requests, in
// ServeMux's wildcard syntax: "/orders/{id}" matches "/orders/42", and a
// last segment "{name...}" matches the rest of the path, however long. A
// request takes the most specific pattern that matches its path (a literal
// segment before a wildcard, a single-segment wildcard before "{name...}",
// compared from the left); its resource is named "METHOD HOST" followed by
// that pattern. NewTransport panics on a malformed pattern, as
// ServeMux.Handle does.
func WithPathPatterns(patterns ...string) TransportOption {
	return func(c *transportConfig) {
		for _, p := range patterns {
			pp, err := parsePathPattern(p)
			if err != nil {
				panic(err)
			}
			c.patterns = append(c.patterns, pp)
		}
	}
}

// WithOutboundName sets a function that names the resource of each
// outbound request instead of the default naming; an empty name sends the
// request unguarded. Every distinct name is a resource kept for the life of
// the process: do not return names made of unbounded request data.
func WithOutboundName(name func(r *http.Request) string) TransportOption {
	return func(c *transportConfig) { c.name = name }
}

// WithOutboundErrorStatus sets which response statuses are traced as errors
// (ServerErrorStatus, every 5xx, by default).
func WithOutboundErrorStatus(isError func(status int) bool) TransportOption {
	return func(c *transportConfig) { c.isError = isError }
}

// NewTransport returns a Transport that guards the calls it passes to base
// (http.DefaultTransport when base is nil).
func NewTransport(base http.RoundTripper, opts ...TransportOption) *Transport {
	rulewatch.Start()
	if base == nil {
		base = http.DefaultTransport
	}
	t := &Transport{base: base, cfg: transportConfig{isError: ServerErrorStatus}}
	for _, o := range opts {
		o(&t.cfg)
	}
	sortPathPatterns(t.cfg.patterns)
	return t
}

// errErrorStatus is what RoundTrip traces for a response whose status
// counts as an error.
var errErrorStatus = errors.New("httpguard: outbound call answered with an error status")

// RoundTrip guards one request and, when the rules admit it, sends it with
// the wrapped RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	res := t.resourceFor(req)
	if res == nil {
		return t.base.RoundTrip(req)
	}
	var e runtime.Entry
	if be := res.EntryTo(e.InPlace(), req.Context()); be != nil {
		// A RoundTripper closes the request's body, even on an error.
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, be
	}
	resp, err := t.base.RoundTrip(req)
	switch {
	case err != nil:
		e.TraceError(err)
	case t.cfg.isError(resp.StatusCode):
		e.TraceError(errErrorStatus)
	}
	e.Exit()
	return resp, err
}

// resourceFor returns the request's resource, or nil when the request goes
// unguarded.
func (t *Transport) resourceFor(req *http.Request) *runtime.Resource {
	if t.cfg.name != nil {
		name := t.cfg.name(req)
		if name == "" {
			return nil
		}
		return t.resource(outboundKey{host: name, pattern: -2}, name)
	}
	key := outboundKey{method: req.Method, host: req.URL.Host, pattern: -1}
	if key.method == "" {
		key.method = http.MethodGet
	}
	for i := range t.cfg.patterns {
		if t.cfg.patterns[i].match(req.URL.Path) {
			key.pattern = i
			break
		}
	}
	if r, ok := t.resources.Load(key); ok {
		return r
	}
	name := key.method + " " + key.host
	if key.pattern >= 0 {
		name += t.cfg.patterns[key.pattern].text
	}
	return t.resource(key, name)
}

// resource returns the resource of key, creating it under name when it is
// not known yet.
func (t *Transport) resource(key outboundKey, name string) *runtime.Resource {
	return t.resources.LoadOrMake(key, func() *runtime.Resource {
		return runtime.NewResource(name,
			runtime.WithTrafficType(runtime.TrafficOutbound), runtime.WithResourceType(runtime.ResourceTypeWeb))
	})
}
