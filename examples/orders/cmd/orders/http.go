package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/sentinelgen/sentinelgen/console"
	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/metrics/exposition"
)

// loopbackDefault binds an address given without a host (":9090") to
// 127.0.0.1: the page and /metrics have no authentication, so they reach
// other machines only when asked for by name (0.0.0.0:9090).
func loopbackDefault(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "" {
		return addr
	}
	return net.JoinHostPort("127.0.0.1", port)
}

// startHTTP serves /metrics (Prometheus's text format) and the built-in page
// at / on addr, and says where.
func startHTTP(addr string, out io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", loopbackDefault(addr))
	if err != nil {
		return nil, fmt.Errorf("-http: %w", err)
	}
	s := metrics.New(metrics.Config{})
	s.Start()
	page := console.New(console.Config{Sampler: s, Title: "orders"})
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", exposition.New(s))
	mux.Handle("/", page)
	srv := &http.Server{Handler: mux}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(out, "orders: -http:", err)
		}
	}()
	fmt.Fprintf(out, "metrics on http://%s/metrics, page on http://%s/\n", ln.Addr(), ln.Addr())
	return func() {
		_ = srv.Close()
		page.Close()
		s.Stop()
	}, nil
}
