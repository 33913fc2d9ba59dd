package httpguard

import (
	"io"
	"net/http"
	"net/http/httptest"
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
