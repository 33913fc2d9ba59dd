package echoguard

import (
	"testing"
	"time"
)

// BenchmarkEchoRotating is BenchmarkEcho for a loaded machine: a route
// behind a pass-through middleware and the same route behind the guard take
// turns in slices of 1000 requests, so load slows them alike. It reports
// each one's fastest slice per request (NAME-min-ns/op), the figure closest
// to the code's own cost, and their difference (over-ns/op); b.N counts
// rounds.
func BenchmarkEchoRotating(b *testing.B) {
	var serve [2]func()
	for i, mode := range []string{"noop", "route"} {
		h, req, w := benchServer(mode)
		serve[i] = func() { h.ServeHTTP(w, req) }
	}
	var fastest [2]time.Duration
	for b.Loop() {
		for i, f := range serve {
			start := time.Now()
			for range 1000 {
				f()
			}
			if d := time.Since(start); fastest[i] == 0 || d < fastest[i] {
				fastest[i] = d
			}
		}
	}
	b.ReportMetric(float64(fastest[0].Nanoseconds())/1000, "noop-min-ns/op")
	b.ReportMetric(float64(fastest[1].Nanoseconds())/1000, "route-min-ns/op")
	b.ReportMetric(float64((fastest[1]-fastest[0]).Nanoseconds())/1000, "over-ns/op")
}
