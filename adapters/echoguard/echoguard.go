// Package echoguard guards echo routes with the sentinelgen runtime, as
// package httpguard guards net/http routes and with the same options: each
// route becomes an inbound web resource named after its method and path
// template ("GET /orders/:id"), checked by the flow, circuit-breaker,
// hot-parameter, system and authority rules generated guards use.
//
//	e := echo.New()
//	e.Use(echoguard.Middleware(httpguard.WithOriginHeader("X-Caller"),
//		httpguard.WithParams(httpguard.PathValue("id"))))
//	e.GET("/orders/:id", getOrder)
//
// The template is echo's (Context.Path); a route's ":name" is read by
// httpguard.PathValue("name") and its "*" by httpguard.PathValue("*").
// WithMethodPrefix(false) drops the method from the names. A request that
// matches no route has no resource unless a URL cleaner
// (httpguard.WithURLCleaner) names it: the cleaner is then given "".
//
// A blocked request is answered by the block handler (by default 429, or 503
// for an open circuit breaker, with Retry-After when the wait is known) and
// the handler does not run. An admitted request runs the handler; a 5xx
// status, whether written or returned as an error (an *echo.HTTPError's code,
// 500 for any other error), and a panic are traced as errors. The panic is
// not recovered: put middleware.Recover() before this middleware so that it
// answers the panic after the guard has counted it.
package echoguard

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/adapters/internal/routecache"
	"github.com/sentinelgen/sentinelgen/adapters/internal/routepath"
)

// Middleware returns echo middleware that guards every route of the server,
// group or route it is used on, with httpguard's options.
func Middleware(opts ...httpguard.Option) echo.MiddlewareFunc {
	g := httpguard.New(opts...)
	m := &guard{g: g, unmatched: g.NewRoute("", "")}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error { return m.serve(c, next) }
	}
}

// guard holds the guards of the routes one Middleware has seen.
type guard struct {
	g *httpguard.Guard
	// unmatched guards the requests that match no route, whatever their
	// method: only a URL cleaner names them.
	unmatched *httpguard.Route
	routes    routecache.Routes[*httpguard.Route]
}

// serve guards one request of c's route and runs next when it is admitted.
func (m *guard) serve(c echo.Context, next echo.HandlerFunc) (err error) {
	method, template := c.Request().Method, c.Path()
	rt := m.unmatched
	if template != "" {
		var ok bool
		if rt, ok = m.routes.Load(template, method); !ok {
			rt = m.routes.LoadOrMake(template, method, func() *httpguard.Route {
				return m.g.NewRoute(method+" "+template, routepath.FromColon(template))
			})
		}
	}
	call, admitted := rt.Begin(c.Response(), c.Request())
	if !admitted {
		return nil
	}
	c.SetRequest(call.Request())
	done := false
	defer func() { call.End(status(c, err), !done) }()
	err = next(c)
	done = true
	return err
}

// status is the status a request is answered with: the one written, or the
// one echo's error handler will write for err.
func status(c echo.Context, err error) int {
	if err == nil {
		return c.Response().Status
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he.Code
	}
	return http.StatusInternalServerError
}
