package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/sentinelgen/sentinelgen/console"
	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/metrics/exposition"
	"github.com/sentinelgen/sentinelgen/transport"
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
// at / on addr from the started sampler s, and says where. refusals, when
// not nil, are the command center's refused pushes, shown on both.
func startHTTP(addr string, s *metrics.Sampler, refusals func() transport.PushRefusals, out io.Writer) (stop func(), err error) {
	ln, err := net.Listen("tcp", loopbackDefault(addr))
	if err != nil {
		return nil, fmt.Errorf("-http: %w", err)
	}
	page := console.New(console.Config{Sampler: s, Title: "orders", Refusals: refusals})
	x := exposition.New(s)
	if refusals != nil {
		x.WithPushRefusals(func() (int64, time.Time) { r := refusals(); return r.Count, r.Last.At })
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", x)
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
	}, nil
}
