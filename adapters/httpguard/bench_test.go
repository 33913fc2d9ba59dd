package httpguard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// BenchmarkOverhead compares a bare handler with the same handler behind
// the guard, in one run so the figures are comparable on a shared machine:
// the pass path (a flow rule that admits and a closed breaker, the common
// case), the pass path found through Mux, and the block path (a QPS rule of
// 0 answered by DefaultBlockHandler). The writer is reused, its header map
// cleared each iteration, as a server's is per request.
func BenchmarkOverhead(b *testing.B) {
	hello := func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hello") }
	mux := http.NewServeMux()
	g := New()
	mux.HandleFunc("GET /bench/bare", hello)
	g.HandleFunc(mux, "GET /bench/pass", hello)
	g.HandleFunc(mux, "GET /bench/block", hello)
	inner := http.NewServeMux()
	inner.HandleFunc("GET /bench/mux", hello)
	guardedMux := g.Mux(inner)
	if err := runtime.LoadRules(runtime.Rules{
		Flow: []runtime.FlowRule{
			{Resource: "GET /bench/pass", Grade: runtime.FlowGradeQPS, Count: 1e12},
			{Resource: "GET /bench/mux", Grade: runtime.FlowGradeQPS, Count: 1e12},
			{Resource: "GET /bench/block", Grade: runtime.FlowGradeQPS, Count: 0},
		},
		Degrade: []runtime.DegradeRule{
			{Resource: "GET /bench/pass", Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10},
			{Resource: "GET /bench/mux", Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10},
		},
	}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	for _, c := range []struct {
		name, path string
		h          http.Handler
		status     int
	}{
		{"bare", "/bench/bare", mux, 200},
		{"pass", "/bench/pass", mux, 200},
		{"mux-pass", "/bench/mux", guardedMux, 200},
		{"bare-mux", "/bench/mux", inner, 200},
		{"block", "/bench/block", mux, 429},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodGet, c.path, nil)
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				w.status = 0
				c.h.ServeHTTP(w, req)
			}
			if w.status != c.status {
				b.Fatalf("status %d, want %d", w.status, c.status)
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps the status and drops the
// body, so the benchmark measures the handler path, not a recorder.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.h }

func (w *discardWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *discardWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(b), nil
}

func (w *discardWriter) WriteString(s string) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(s), nil
}
