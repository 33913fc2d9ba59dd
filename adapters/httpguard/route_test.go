package httpguard

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// routerMiddleware is a router's middleware as the gin and echo modules
// write it: Begin, the rest of the chain, End from a deferred function.
func routerMiddleware(rt *Route, next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		call, ok := rt.Begin(w, r)
		if !ok {
			return
		}
		sw := &statusRecorder{ResponseWriter: w}
		done := false
		defer func() { call.End(sw.status, !done) }()
		next(sw, call.Request())
		done = true
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func TestRouteGuardsAnotherRouter(t *testing.T) {
	useManualClock(t)
	g := New(WithOriginHeader("X-Caller"))
	rt := g.NewRoute("GET /items/:sku", "/items/{sku}", WithParams(PathValue("sku")))
	var mu sync.Mutex
	var origins []string
	srv := serve(t, routerMiddleware(rt, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		origins = append(origins, runtime.OriginFrom(r.Context()))
		mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/broken") {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	if findResource("GET /items/:sku") == nil {
		t.Fatal("NewRoute declared no resource")
	}
	mustLoad(t, runtime.Rules{
		ParamFlow: []runtime.ParamFlowRule{{Resource: "GET /items/:sku", ParamIdx: 0, Count: 1}},
		Authority: []runtime.AuthorityRule{{Resource: "GET /items/:sku", Strategy: runtime.AuthorityBlack, LimitApp: "intruder"}},
	})
	if r := get(t, srv, "/items/a", "X-Caller", "shop"); r.status != 200 {
		t.Fatalf("first call of sku a: %d", r.status)
	}
	if r := get(t, srv, "/items/a"); r.status != http.StatusTooManyRequests {
		t.Fatalf("second call of sku a: %d, want 429 from the hot-parameter rule read through the path pattern", r.status)
	}
	if r := get(t, srv, "/items/b"); r.status != 200 {
		t.Fatalf("sku b: %d", r.status)
	}
	if r := get(t, srv, "/items/c", "X-Caller", "intruder"); r.status != http.StatusTooManyRequests {
		t.Fatalf("black-listed origin: %d", r.status)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(origins) == 0 || origins[0] != "shop" {
		t.Errorf("origins seen by the handler: %q", origins)
	}
}

func TestRouteTracesStatusAndPanics(t *testing.T) {
	useManualClock(t)
	g := New()
	rt := g.NewRoute("GET /fail", "")
	var panics atomic.Int64
	srv := serve(t, routerMiddleware(rt, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("panic") != "" {
			panics.Add(1)
			panic(http.ErrAbortHandler) // net/http's quiet panic
		}
		w.WriteHeader(http.StatusBadGateway)
	}))
	mustLoad(t, runtime.Rules{Degrade: []runtime.DegradeRule{{
		Resource: "GET /fail", Grade: runtime.DegradeErrorCount, Count: 2, TimeWindowSec: 60, MinRequestAmount: 1,
	}}})
	if r := get(t, srv, "/fail"); r.status != http.StatusBadGateway {
		t.Fatalf("first call: %d", r.status)
	}
	if r := get(t, srv, "/fail"); r.status != http.StatusBadGateway {
		t.Fatalf("second call: %d", r.status)
	}
	// A panic the guard recovered would let net/http answer; one it lets
	// through makes net/http drop the connection without an answer.
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/fail?panic=1", nil)
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	if resp, err := (&http.Client{Transport: tr}).Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the panic was recovered by the guard: answered %d", resp.StatusCode)
	}
	if n := panics.Load(); n != 1 {
		t.Fatalf("the handler panicked %d times", n)
	}
	if r := get(t, srv, "/fail"); r.status != http.StatusServiceUnavailable {
		t.Fatalf("after two 5xx and a panic: %d, want 503 from the open breaker", r.status)
	}
}
