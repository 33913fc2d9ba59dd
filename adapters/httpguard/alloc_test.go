package httpguard

import (
	"io"
	"net/http"
	"net/http/httptest"
	goruntime "runtime"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// TestNoAllocation holds the guard's pass path (with a handler writing
// through io.WriteString) and its default block response to no allocation
// of their own: the writer the handler sees keeps WriteString, and the
// block response's header values are shared.
func TestNoAllocation(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	useManualClock(t)
	mux := http.NewServeMux()
	g := New()
	hello := func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hello") }
	g.HandleFunc(mux, "GET /alloc/pass", hello)
	g.HandleFunc(mux, "GET /alloc/block", hello)
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{
		{Resource: "GET /alloc/pass", Grade: runtime.FlowGradeQPS, Count: 1e12},
		{Resource: "GET /alloc/block", Grade: runtime.FlowGradeQPS, Count: 0},
	}})
	for path, status := range map[string]int{"/alloc/pass": 200, "/alloc/block": 429} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		w := &discardWriter{h: http.Header{}}
		n := testing.AllocsPerRun(100, func() {
			clear(w.h)
			w.status = 0
			mux.ServeHTTP(w, req)
		})
		if w.status != status {
			t.Fatalf("%s: status %d, want %d", path, w.status, status)
		}
		if n != 0 {
			t.Errorf("%s: %v allocations per request", path, n)
		}
	}
}

// TestPassWithoutStatusesNeedsNoPool holds a route that traces no status
// (WithErrorStatus(nil)) to no allocation even when a collection has just
// emptied every sync.Pool: its Entry lives on the stack, so an admitted
// request takes nothing from a pool that would have to refill. A route that
// traces statuses pools its writer, so it allocates after such a
// collection: the control that shows the collections empty the pools.
func TestPassWithoutStatusesNeedsNoPool(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	useManualClock(t)
	mux := http.NewServeMux()
	g := New()
	hello := func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hello") }
	g.HandleFunc(mux, "GET /nopool/plain", hello, WithErrorStatus(nil))
	g.HandleFunc(mux, "GET /nopool/traced", hello)
	mustLoad(t, runtime.Rules{Flow: []runtime.FlowRule{
		{Resource: "GET /nopool/plain", Grade: runtime.FlowGradeQPS, Count: 1e12},
		{Resource: "GET /nopool/traced", Grade: runtime.FlowGradeQPS, Count: 1e12},
	}})
	allocs := map[string]float64{}
	for _, path := range []string{"/nopool/plain", "/nopool/traced"} {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		w := &discardWriter{h: http.Header{}}
		n := testing.AllocsPerRun(20, func() {
			// Two collections: the first moves pooled items to the
			// victim cache, the second drops them.
			goruntime.GC()
			goruntime.GC()
			clear(w.h)
			w.status = 0
			mux.ServeHTTP(w, req)
		})
		if w.status != http.StatusOK {
			t.Fatalf("%s: status %d, want 200", path, w.status)
		}
		allocs[path] = n
	}
	if n := allocs["/nopool/traced"]; n == 0 {
		t.Fatalf("the pooled status writer was not allocated again: the collections did not empty the pools")
	}
	if n := allocs["/nopool/plain"]; n != 0 {
		t.Errorf("%v allocations per request after the pools were emptied, want 0", n)
	}
}
