package httpguard

import (
	"net/http"
)

// Route is the guard of one route of a router other than ServeMux, for the
// router's middleware: what Wrap does, split in two (Begin and Call.End) so
// that the middleware runs the rest of its chain in between. The gin and
// echo modules (adapters/ginguard, adapters/echoguard) are built on it. A
// Route is safe for concurrent use; make one per route and keep it.
type Route struct {
	rt *route
}

// Call is a request a Route admitted. Hand Request to the rest of the chain,
// then call End exactly once.
type Call struct {
	rt *route
	c  *call
	r  *http.Request
}

// NewRoute returns the guard of one route, with the Guard's options and
// then opts. pattern names the resource as Handle's pattern does: "METHOD
// TEMPLATE" in the router's own syntax ("GET /orders/:id"), the method kept
// unless WithMethodPrefix(false); "" for requests that match no route, which
// only a URL cleaner can name. path is the route's path in ServeMux's
// pattern syntax ("/orders/{id}", "/files/{rest...}"), from which PathValue
// parameters are read; "" when the route has no wildcards.
func (g *Guard) NewRoute(pattern, path string, opts ...Option) *Route {
	rt := g.newRoute(pattern, nil, true, opts)
	rt.path = path
	if rt.path == "" {
		rt.path = "/"
	}
	return &Route{rt: rt}
}

// Begin checks the request r against the route's rules, with the Guard's
// origin parser, entrance and parameters. When a rule refuses it, Begin
// answers w with the block handler and returns ok false: the middleware
// must stop the chain. Otherwise the request is admitted (or has no
// resource, when the URL cleaner returned ""), and the middleware hands
// call.Request() to the rest of its chain and then calls call.End.
func (rt *Route) Begin(w http.ResponseWriter, r *http.Request) (call Call, ok bool) {
	c := getCall()
	next, v := rt.rt.begin(&c.e, w, r)
	switch v {
	case refused:
		c.release()
		return Call{}, false
	case unguarded:
		c.release()
		c = nil
	}
	return Call{rt: rt.rt, c: c, r: next}, true
}

// Request is the request to hand on: Begin's, with the origin and the
// entrance in its context when the options put them there.
func (c Call) Request() *http.Request { return c.r }

// End ends the call. status is the response's status (0 when none was
// written), traced as an error when the error-status function says so
// (every 5xx by default); panicked says the chain panicked, which is traced
// as ErrPanic unless WithTracePanics(false). Call End from a deferred
// function so that a panic still ends the call, and do not recover the
// panic there: let it go on to the router's own recovery.
func (c Call) End(status int, panicked bool) {
	if c.c == nil {
		return
	}
	c.rt.end(&c.c.e, status, panicked)
	if !panicked {
		// After a panic the call is not pooled again: a copy of this Call
		// that the unwinding chain still holds must not reach a call that
		// another request has taken from the pool.
		c.c.release()
	}
}
