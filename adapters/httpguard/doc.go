// Package httpguard guards net/http handlers with the sentinelgen runtime,
// without annotations: each route of a Go 1.22+ http.ServeMux becomes an
// inbound web resource named after its pattern ("GET /orders/{id}"), checked
// by the same flow, circuit-breaker, hot-parameter, system and authority
// rules as generated guards.
//
// # Two ways to guard a mux
//
// Guard.Handle registers a handler on the mux wrapped in its guard, so the
// resource is known at registration and costs nothing to find per request:
//
//	g := httpguard.New(httpguard.WithOriginHeader("X-Caller"))
//	g.HandleFunc(mux, "GET /orders/{id}", getOrder, httpguard.WithParams(httpguard.PathValue("id")))
//
// Guard.Mux wraps a mux that is already populated. Request.Pattern is set by
// the mux only on the request it hands to the handler, so a middleware in
// front of it cannot read it: Mux asks the mux with ServeMux.Handler, which
// routes the request a second time, then lets the mux serve it.
//
// # What a request goes through
//
// The name derived from the pattern passes through the URL cleaner, if any
// (an empty result serves the request unguarded). The origin parser's answer
// and, when a chain flow rule names the route, the entrance (see
// runtime.WithEntrance) are put in the request's context, for the route's
// own checks and for every guarded call the handler makes. Hot-parameter
// arguments are computed only when a hot-parameter rule names the resource.
// A blocked request is answered by the block handler (by default 429, or 503
// for an open circuit breaker, with Retry-After when the wait is known); an
// admitted one runs the handler, and a panic or a 5xx status is traced as an
// error for the breakers and the error statistics.
//
// # Outbound calls
//
// Transport guards the other direction: as an http.Client's RoundTripper it
// enters an outbound resource per request (named from the method, the host
// and a path pattern, see WithPathPatterns), so breakers stop calling a
// dependency that turned slow or failing, and a refusal is the runtime's
// *BlockError, found with errors.As in the client's error.
package httpguard
