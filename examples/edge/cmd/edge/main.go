// Command edge serves the edge example (package edge) over HTTP on
// 127.0.0.1, with the rules of a watched file in force:
//
//	go run ./examples/edge/cmd/edge -rules examples/edge/rules.toml
//	curl -i localhost:8080/orders/1
//
// An edit of the rule file applies while the service runs; a broken edit is
// logged and the last good rules stay in force.
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

	"github.com/sentinelgen/sentinelgen/examples/edge"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "edge:", err)
		os.Exit(2)
	}
}

// run serves until ctx ends. ready, if not nil, receives the listening
// address once the service accepts connections.
func run(ctx context.Context, args []string, log io.Writer, ready chan<- string) error {
	fs := flag.NewFlagSet("edge", flag.ContinueOnError)
	fs.SetOutput(log)
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address`")
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
	lis, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: edge.NewHandler(edge.NewStore())}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	logger.Info("serving", "addr", lis.Addr().String())
	if ready != nil {
		ready <- lis.Addr().String()
	}
	if err := srv.Serve(lis); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
