package ginguard

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// BenchmarkGinRotating is BenchmarkGin for a loaded machine: the bare and
// the guarded engine take turns in slices of 1000 requests, so load slows
// them alike. It reports each one's fastest slice per request
// (NAME-min-ns/op), the figure closest to the code's own cost, and their
// difference (over-ns/op); b.N counts rounds.
func BenchmarkGinRotating(b *testing.B) {
	engine := func(guarded bool) func() {
		r := gin.New()
		if guarded {
			r.Use(Middleware())
		}
		r.GET("/orders/:id", func(c *gin.Context) { c.Status(200) })
		req := httptest.NewRequest(http.MethodGet, "/orders/42", nil)
		w := &discardWriter{h: http.Header{}}
		r.ServeHTTP(w, req) // the guard of the route is made on first use
		return func() { r.ServeHTTP(w, req) }
	}
	serve := [2]func(){engine(false), engine(true)}
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
	b.ReportMetric(float64(fastest[0].Nanoseconds())/1000, "bare-min-ns/op")
	b.ReportMetric(float64(fastest[1].Nanoseconds())/1000, "guarded-min-ns/op")
	b.ReportMetric(float64((fastest[1]-fastest[0]).Nanoseconds())/1000, "over-ns/op")
}
