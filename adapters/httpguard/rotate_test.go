package httpguard

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// BenchmarkOverheadRotating is BenchmarkOverhead for a loaded machine: the
// variants take turns in slices of 1000 requests, so load slows them alike
// instead of whichever ran during a busy second. It reports, per variant,
// the mean ns per request over all its slices (NAME-ns/op) and that of its
// fastest slice (NAME-min-ns/op), the figure closest to the code's own
// cost; b.N counts rounds (one slice of each variant).
func BenchmarkOverheadRotating(b *testing.B) {
	hello := func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "hello") }
	mux := http.NewServeMux()
	g := New()
	mux.HandleFunc("GET /rot/bare", hello)
	g.HandleFunc(mux, "GET /rot/pass", hello)
	g.HandleFunc(mux, "GET /rot/block", hello)
	if err := runtime.LoadRules(runtime.Rules{
		Flow: []runtime.FlowRule{
			{Resource: "GET /rot/pass", Grade: runtime.FlowGradeQPS, Count: 1e12},
			{Resource: "GET /rot/block", Grade: runtime.FlowGradeQPS, Count: 0},
		},
		Degrade: []runtime.DegradeRule{{Resource: "GET /rot/pass", Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10}},
	}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	const slice = 1000
	variants := []struct {
		name, path string
		status     int
		total, min time.Duration
	}{
		{name: "bare", path: "/rot/bare", status: 200},
		{name: "pass", path: "/rot/pass", status: 200},
		{name: "block", path: "/rot/block", status: 429},
	}
	for b.Loop() {
		for i := range variants {
			v := &variants[i]
			req := httptest.NewRequest(http.MethodGet, v.path, nil)
			w := &discardWriter{h: http.Header{}}
			start := time.Now()
			for range slice {
				clear(w.h)
				w.status = 0
				mux.ServeHTTP(w, req)
			}
			d := time.Since(start)
			if w.status != v.status {
				b.Fatalf("%s: status %d, want %d", v.name, w.status, v.status)
			}
			v.total += d
			if v.min == 0 || d < v.min {
				v.min = d
			}
		}
	}
	for _, v := range variants {
		b.ReportMetric(float64(v.total.Nanoseconds())/float64(b.N*slice), v.name+"-ns/op")
		b.ReportMetric(float64(v.min.Nanoseconds())/slice, v.name+"-min-ns/op")
	}
}
