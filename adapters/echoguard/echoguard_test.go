package echoguard

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/adapters/internal/routetest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func newEcho() *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	return e
}

func TestRoutesAreResourcesNamedByTemplate(t *testing.T) {
	e := newEcho()
	e.Use(Middleware())
	e.GET("/orders/:id", func(c echo.Context) error { return c.String(200, "order "+c.Param("id")) })
	g := e.Group("/api")
	g.POST("/files/*", func(c echo.Context) error { return c.NoContent(204) })
	srv := routetest.Serve(t, e)
	if s, _ := routetest.Get(t, srv, "/orders/17"); s != 200 {
		t.Fatalf("GET /orders/17: %d", s)
	}
	resp, err := srv.Client().Post(srv.URL+"/api/files/a/b", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, name := range []string{"GET /orders/:id", "POST /api/files/*"} {
		if !routetest.HasResource(name) {
			t.Errorf("no resource %q", name)
		}
	}
	if routetest.HasResource("GET /orders/17") {
		t.Error("a resource was named after the raw path")
	}
	if s, _ := routetest.Get(t, srv, "/nowhere"); s != 404 {
		t.Errorf("unrouted request: %d, want echo's 404", s)
	}
}

func TestFlowBlockAnswers429AndSkipsTheHandler(t *testing.T) {
	e := newEcho()
	e.Use(Middleware(httpguard.WithMethodPrefix(false)))
	var mu sync.Mutex
	served := 0
	e.GET("/quota", func(c echo.Context) error {
		mu.Lock()
		served++
		mu.Unlock()
		return c.String(200, "ok")
	})
	srv := routetest.Serve(t, e)
	routetest.UseRules(t, runtime.Rules{Flow: []runtime.FlowRule{{Resource: "/quota", Count: 2}}})
	codes := map[int]int{}
	var retry string
	for range 5 {
		s, h := routetest.Get(t, srv, "/quota")
		codes[s]++
		if s == http.StatusTooManyRequests {
			retry = h.Get("Retry-After")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if codes[200] != 2 || codes[429] != 3 || served != 2 {
		t.Fatalf("answers %v, handler ran %d times; want 2×200, 3×429, 2 runs", codes, served)
	}
	if retry == "" {
		t.Error("a QPS block has no Retry-After")
	}
}

func TestHotParameterAndOrigin(t *testing.T) {
	e := newEcho()
	e.Use(Middleware(httpguard.WithOriginHeader("X-Caller"), httpguard.WithParams(httpguard.PathValue("sku"))))
	e.GET("/items/:sku", func(c echo.Context) error {
		return c.String(200, runtime.OriginFrom(c.Request().Context()))
	})
	srv := routetest.Serve(t, e)
	routetest.UseRules(t, runtime.Rules{
		ParamFlow: []runtime.ParamFlowRule{{Resource: "GET /items/:sku", ParamIdx: 0, Count: 1}},
		Authority: []runtime.AuthorityRule{{Resource: "GET /items/:sku", Strategy: runtime.AuthorityBlack, LimitApp: "intruder"}},
	})
	if s, _ := routetest.Get(t, srv, "/items/a", "X-Caller", "shop"); s != 200 {
		t.Fatalf("sku a: %d", s)
	}
	if s, _ := routetest.Get(t, srv, "/items/a"); s != 429 {
		t.Fatalf("sku a again: %d, want 429 from the hot-parameter rule", s)
	}
	if s, _ := routetest.Get(t, srv, "/items/b"); s != 200 {
		t.Fatalf("sku b: %d", s)
	}
	if s, _ := routetest.Get(t, srv, "/items/c", "X-Caller", "intruder"); s != 429 {
		t.Fatalf("black-listed caller: %d", s)
	}
}

// A returned error, a written 5xx and a panic each count for the
// error-count breaker; middleware.Recover, placed before the guard, still
// answers the panic.
func TestErrorsAndPanicsOpenTheBreaker(t *testing.T) {
	e := newEcho()
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{DisablePrintStack: true}), Middleware())
	e.GET("/fragile", func(c echo.Context) error {
		switch c.QueryParam("fail") {
		case "panic":
			panic("fragile")
		case "error":
			return errors.New("downstream broke")
		case "http":
			return echo.NewHTTPError(http.StatusBadGateway, "bad gateway")
		}
		return c.NoContent(http.StatusServiceUnavailable)
	})
	e.GET("/teapot", func(c echo.Context) error { return echo.NewHTTPError(http.StatusTeapot) })
	srv := routetest.Serve(t, e)
	routetest.UseRules(t, runtime.Rules{Degrade: []runtime.DegradeRule{
		{Resource: "GET /fragile", Grade: runtime.DegradeErrorCount, Count: 3, TimeWindowSec: 60, MinRequestAmount: 1},
		{Resource: "GET /teapot", Grade: runtime.DegradeErrorCount, Count: 1, TimeWindowSec: 60, MinRequestAmount: 1},
	}})
	for _, path := range []string{"/fragile?fail=error", "/fragile?fail=http", "/fragile", "/fragile?fail=panic"} {
		if s, _ := routetest.Get(t, srv, path); s < 500 {
			t.Fatalf("%s: %d", path, s)
		}
	}
	if s, _ := routetest.Get(t, srv, "/fragile"); s != http.StatusServiceUnavailable {
		t.Fatalf("after four failures: %d, want 503", s)
	}
	if !hasBreakerOpen("GET /fragile") {
		t.Fatal("the breaker of GET /fragile is not open")
	}
	for range 3 {
		if s, _ := routetest.Get(t, srv, "/teapot"); s != http.StatusTeapot {
			t.Fatalf("a 4xx error opened the breaker: %d", s)
		}
	}
}

// hasBreakerOpen reports whether a breaker of resource is OPEN.
func hasBreakerOpen(resource string) bool {
	for _, r := range runtime.Resources() {
		if r.Name() == resource {
			for _, s := range r.BreakerStates() {
				if s == runtime.StateOpen {
					return true
				}
			}
		}
	}
	return false
}

// BenchmarkEcho times a request through echo's ServeHTTP in process: bare,
// through a middleware that only calls the next handler, and guarded by route
// middleware and by root middleware (e.Use). Echo applies a middleware to its
// next handler for each request, so any middleware that wraps allocates its
// closure per request; the guard's own cost is its difference from "noop".
func BenchmarkEcho(b *testing.B) {
	for _, mode := range []string{"bare", "noop", "route", "root"} {
		b.Run(mode, func(b *testing.B) {
			h, req, w := benchServer(mode)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				h.ServeHTTP(w, req)
			}
		})
	}
}

func benchServer(mode string) (http.Handler, *http.Request, http.ResponseWriter) {
	e := newEcho()
	var mw []echo.MiddlewareFunc
	switch mode {
	case "noop":
		mw = append(mw, func(next echo.HandlerFunc) echo.HandlerFunc {
			return func(c echo.Context) error { return next(c) }
		})
	case "route":
		mw = append(mw, Middleware())
	case "root":
		e.Use(Middleware())
	}
	e.GET("/orders/:id", func(c echo.Context) error { return c.NoContent(200) }, mw...)
	req := httptest.NewRequest(http.MethodGet, "/orders/42", nil)
	w := &discardWriter{h: http.Header{}}
	e.ServeHTTP(w, req)
	return e, req, w
}

// discardWriter is a ResponseWriter that keeps nothing, so the benchmark
// times the router and the guard, not a recorder.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(int)             {}

func TestGuardDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	allocs := func(mode string) float64 {
		h, req, w := benchServer(mode)
		return testing.AllocsPerRun(1000, func() { h.ServeHTTP(w, req) })
	}
	// Echo wraps middleware around the handler for each request: that is
	// echo's allocation, and the guard adds none to it.
	noop, route, root := allocs("noop"), allocs("route"), allocs("root")
	if route != noop || root != noop {
		t.Errorf("a guarded request allocates %.1f times (route middleware) and %.1f (root), one through a middleware that only calls the next handler %.1f",
			route, root, noop)
	}
}
