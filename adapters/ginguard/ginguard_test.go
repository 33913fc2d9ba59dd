package ginguard

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/gin-gonic/gin"

	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/adapters/internal/routetest"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func init() { gin.SetMode(gin.ReleaseMode) }

func TestRoutesAreResourcesNamedByTemplate(t *testing.T) {
	r := gin.New()
	r.Use(Middleware())
	r.GET("/orders/:id", func(c *gin.Context) { c.String(200, "order "+c.Param("id")) })
	api := r.Group("/api")
	api.POST("/files/*path", func(c *gin.Context) { c.Status(204) })
	srv := routetest.Serve(t, r)
	if s, _ := routetest.Get(t, srv, "/orders/17"); s != 200 {
		t.Fatalf("GET /orders/17: %d", s)
	}
	resp, err := srv.Client().Post(srv.URL+"/api/files/a/b", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, name := range []string{"GET /orders/:id", "POST /api/files/*path"} {
		if !routetest.HasResource(name) {
			t.Errorf("no resource %q", name)
		}
	}
	if routetest.HasResource("GET /orders/17") {
		t.Error("a resource was named after the raw path")
	}
	if s, _ := routetest.Get(t, srv, "/nowhere"); s != 404 {
		t.Errorf("unrouted request: %d, want gin's 404", s)
	}
}

func TestFlowBlockAnswers429AndStopsTheChain(t *testing.T) {
	r := gin.New()
	r.Use(Middleware(httpguard.WithMethodPrefix(false)))
	var mu sync.Mutex
	served := 0
	r.GET("/quota", func(c *gin.Context) {
		mu.Lock()
		served++
		mu.Unlock()
		c.String(200, "ok")
	})
	srv := routetest.Serve(t, r)
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
	r := gin.New()
	r.Use(Middleware(httpguard.WithOriginHeader("X-Caller"), httpguard.WithParams(httpguard.PathValue("sku"))))
	r.GET("/items/:sku", func(c *gin.Context) { c.String(200, runtime.OriginFrom(c.Request.Context())) })
	srv := routetest.Serve(t, r)
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

// 5xx answers and a panic open the error-count breaker; gin.Recovery,
// placed before the guard, still answers the panic.
func TestErrorsAndPanicsOpenTheBreaker(t *testing.T) {
	r := gin.New()
	r.Use(gin.CustomRecovery(func(c *gin.Context, _ any) { c.AbortWithStatus(500) }), Middleware())
	r.GET("/fragile", func(c *gin.Context) {
		if c.Query("panic") != "" {
			panic("fragile")
		}
		c.Status(http.StatusBadGateway)
	})
	srv := routetest.Serve(t, r)
	routetest.UseRules(t, runtime.Rules{Degrade: []runtime.DegradeRule{{
		Resource: "GET /fragile", Grade: runtime.DegradeErrorCount, Count: 2, TimeWindowSec: 60, MinRequestAmount: 1,
	}}})
	for _, path := range []string{"/fragile", "/fragile", "/fragile?panic=1"} {
		if s, _ := routetest.Get(t, srv, path); s != 502 && s != 500 {
			t.Fatalf("%s: %d", path, s)
		}
	}
	s, h := routetest.Get(t, srv, "/fragile")
	if s != http.StatusServiceUnavailable {
		t.Fatalf("after two 5xx and a panic: %d, want 503 from the open breaker", s)
	}
	if h.Get("Retry-After") == "" {
		t.Error("an open breaker's 503 has no Retry-After")
	}
}

// The guard's cost is measured in process over gin's own ServeHTTP.
func BenchmarkGin(b *testing.B) {
	for _, bc := range []struct {
		name    string
		guarded bool
	}{{"bare", false}, {"guarded", true}} {
		b.Run(bc.name, func(b *testing.B) {
			r := gin.New()
			if bc.guarded {
				r.Use(Middleware())
			}
			r.GET("/orders/:id", func(c *gin.Context) { c.Status(200) })
			req := httptest.NewRequest(http.MethodGet, "/orders/42", nil)
			w := &discardWriter{h: http.Header{}}
			r.ServeHTTP(w, req)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				r.ServeHTTP(w, req)
			}
		})
	}
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
	allocs := func(guarded bool) float64 {
		r := gin.New()
		if guarded {
			r.Use(Middleware())
		}
		r.GET("/orders/:id", func(c *gin.Context) { c.Status(200) })
		req := httptest.NewRequest(http.MethodGet, "/orders/42", nil)
		w := &discardWriter{h: http.Header{}}
		r.ServeHTTP(w, req)
		return testing.AllocsPerRun(1000, func() { r.ServeHTTP(w, req) })
	}
	bare, guarded := allocs(false), allocs(true)
	if guarded != bare {
		t.Errorf("a guarded request allocates %.1f times, a bare one %.1f", guarded, bare)
	}
}
