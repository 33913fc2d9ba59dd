// Command edgeserve serves the edge example's orders over HTTP and gRPC on
// 127.0.0.1, one store behind both, with the rules of a watched file:
//
//	go run ./example/cmd/edgeserve -rules example/rules.toml   # from adapters/grpcguard
//
// HTTP routes are guarded by httpguard, gRPC methods by grpcguard; one rule
// file names both kinds of resources.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/sentinelgen/sentinelgen/adapters/grpcguard/example"
	"github.com/sentinelgen/sentinelgen/examples/edge"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "edgeserve:", err)
		os.Exit(2)
	}
}

// addrs are the listening addresses, for tests that use free ports.
type addrs struct{ http, grpc string }

// run serves until ctx ends; ready, if not nil, receives the addresses once
// both servers accept connections.
func run(ctx context.Context, args []string, log io.Writer, ready chan<- addrs) error {
	fs := flag.NewFlagSet("edgeserve", flag.ContinueOnError)
	fs.SetOutput(log)
	httpAddr := fs.String("http", "127.0.0.1:8080", "HTTP listen `address`")
	grpcAddr := fs.String("grpc", "127.0.0.1:9090", "gRPC listen `address`")
	rulesFile := fs.String("rules", "", "watch the rules of this TOML or Sentinel-JSON `file`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(log, nil))
	if *rulesFile != "" {
		if err := edge.WatchRules(ctx, *rulesFile, logger); err != nil {
			return err
		}
	}
	hl, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		return err
	}
	gl, err := net.Listen("tcp", *grpcAddr)
	if err != nil {
		hl.Close()
		return err
	}
	store := edge.NewStore()
	hs := &http.Server{Handler: edge.NewHandler(store)}
	gs := example.NewServer(store)
	go func() {
		<-ctx.Done()
		_ = hs.Close()
		gs.Stop()
	}()
	errs := make(chan error, 2)
	go func() { errs <- gs.Serve(gl) }()
	go func() {
		if err := hs.Serve(hl); !errors.Is(err, http.ErrServerClosed) {
			errs <- err
			return
		}
		errs <- nil
	}()
	logger.Info("serving", "http", hl.Addr().String(), "grpc", gl.Addr().String())
	if ready != nil {
		ready <- addrs{http: hl.Addr().String(), grpc: gl.Addr().String()}
	}
	return errors.Join(<-errs, <-errs)
}
