package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/sentinelgen/sentinelgen/adapters/httpguard"
	"github.com/sentinelgen/sentinelgen/runtime"
)

func get(t *testing.T, srv *httptest.Server, path string) int {
	t.Helper()
	resp, err := srv.Client().Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

func hasResource(name string) bool {
	for _, r := range runtime.Resources() {
		if r.Name() == name {
			return true
		}
	}
	return false
}

// Over a real server: chi's route patterns are the resources, the
// hot-parameter rule reads chi's wildcard, a flow rule on a subrouter's
// route refuses with 429.
func TestChiRoutesThroughHTTPGuard(t *testing.T) {
	srv := httptest.NewServer(newRouter(httpguard.New()))
	defer srv.Close()
	t.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	if err := runtime.LoadRules(runtime.Rules{
		ParamFlow: []runtime.ParamFlowRule{{Resource: "GET /orders/{id}", ParamIdx: 0, Count: 2}},
		Flow:      []runtime.FlowRule{{Resource: "GET /admin/health", Count: 1}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"GET /orders/{id}", "POST /orders", "GET /admin/health"} {
		if !hasResource(name) {
			t.Errorf("no resource %q", name)
		}
	}
	got := []int{get(t, srv, "/orders/7"), get(t, srv, "/orders/7"), get(t, srv, "/orders/7"), get(t, srv, "/orders/8")}
	want := []int{200, 200, 429, 200}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("reads of orders 7, 7, 7, 8: %v, want %v (the third read of order 7 over its limit)", got, want)
		}
	}
	if a, b := get(t, srv, "/admin/health"), get(t, srv, "/admin/health"); a != 200 || b != 429 {
		t.Fatalf("the subrouter's route: %d then %d, want 200 then 429", a, b)
	}
	if hasResource("GET /orders/7") {
		t.Error("a resource was named after the raw path")
	}
}

// BenchmarkChi times a request through chi's ServeHTTP in process, bare and
// with the route wrapped by Guard.Wrap.
func BenchmarkChi(b *testing.B) {
	for _, guarded := range []bool{false, true} {
		name := "bare"
		if guarded {
			name = "guarded"
		}
		b.Run(name, func(b *testing.B) {
			h, req, w := chiServer(guarded)
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(w, req)
			}
		})
	}
}

func chiServer(guarded bool) (http.Handler, *http.Request, http.ResponseWriter) {
	r := chi.NewRouter()
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) })
	if guarded {
		h = httpguard.New().Wrap("GET /bench/{id}", h)
	}
	r.Method(http.MethodGet, "/bench/{id}", h)
	req := httptest.NewRequest(http.MethodGet, "/bench/42", nil)
	w := &discardWriter{h: http.Header{}}
	r.ServeHTTP(w, req)
	return r, req, w
}

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(int)             {}

func TestGuardAddsNoAllocation(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	allocs := func(guarded bool) float64 {
		h, req, w := chiServer(guarded)
		return testing.AllocsPerRun(1000, func() { h.ServeHTTP(w, req) })
	}
	if bare, guarded := allocs(false), allocs(true); guarded != bare {
		t.Errorf("a guarded request allocates %.1f times, a bare one %.1f", guarded, bare)
	}
}
