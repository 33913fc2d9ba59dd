// Package ginguard guards gin routes with the sentinelgen runtime, as
// package httpguard guards net/http routes and with the same options: each
// route becomes an inbound web resource named after its method and template
// ("GET /orders/:id"), checked by the flow, circuit-breaker, hot-parameter,
// system and authority rules generated guards use.
//
//	r := gin.New()
//	r.Use(gin.Recovery(), ginguard.Middleware(httpguard.WithOriginHeader("X-Caller"),
//		httpguard.WithParams(httpguard.PathValue("id"))))
//	r.GET("/orders/:id", getOrder)
//
// The template is gin's (Context.FullPath); a route's ":name" and "*name"
// are read by httpguard.PathValue("name"). WithMethodPrefix(false) drops the
// method from the names. A request that matches no route has no resource
// unless a URL cleaner (httpguard.WithURLCleaner) names it: the cleaner is
// then given "".
//
// A blocked request is answered by the block handler (by default 429, or 503
// for an open circuit breaker, with Retry-After when the wait is known) and
// the chain is aborted. An admitted request runs the rest of the chain; a 5xx
// status and a panic are traced as errors. The panic is not recovered: put
// gin.Recovery() before this middleware so that it answers the panic after
// the guard has counted it.
package ginguard

import (
	"github.com/gin-gonic/gin"

	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/adapters/internal/routecache"
	"github.com/sentinelgen/sentinelgen/adapters/internal/routepath"
)

// Middleware returns gin middleware that guards every route of the engine
// or group it is used on, with httpguard's options.
func Middleware(opts ...httpguard.Option) gin.HandlerFunc {
	g := httpguard.New(opts...)
	// Requests that match no route share one guard, whatever their method:
	// only a URL cleaner names them.
	unmatched := g.NewRoute("", "")
	var routes routecache.Routes[*httpguard.Route]
	return func(c *gin.Context) {
		method, template := c.Request.Method, c.FullPath()
		rt := unmatched
		if template != "" {
			var ok bool
			if rt, ok = routes.Load(template, method); !ok {
				rt = routes.LoadOrMake(template, method, func() *httpguard.Route {
					return g.NewRoute(method+" "+template, routepath.FromColon(template))
				})
			}
		}
		call, admitted := rt.Begin(c.Writer, c.Request)
		if !admitted {
			c.Abort()
			return
		}
		c.Request = call.Request()
		done := false
		defer func() { call.End(c.Writer.Status(), !done) }()
		c.Next()
		done = true
	}
}
