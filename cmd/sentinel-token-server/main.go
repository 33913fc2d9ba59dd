// Command sentinel-token-server runs a token server of Sentinel's cluster
// flow control on its own (package tokenserver), for Java and Go services
// alike:
//
//	sentinel-token-server -listen :18730 -rules orders=orders-cluster-rules.json
//
// Each -rules value is [NAMESPACE=]FILE, a TOML or Sentinel-JSON rule file
// (namespace "default" when none is given): its flow rules in cluster mode
// are the namespace's budgets, and the file is watched, a bad edit leaving
// the last good rules in force. Clients name their namespace when they
// connect; Sentinel's Java client names its application.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "sentinel-token-server:", err)
		os.Exit(2)
	}
}

// ruleFlags collects the -rules values.
type ruleFlags []string

func (r *ruleFlags) String() string     { return strings.Join(*r, ",") }
func (r *ruleFlags) Set(s string) error { *r = append(*r, s); return nil }

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("sentinel-token-server", flag.ContinueOnError)
	fs.SetOutput(out)
	listen := fs.String("listen", fmt.Sprintf(":%d", tokenserver.DefaultPort), "serve token requests on this `address`")
	var ruleFiles ruleFlags
	fs.Var(&ruleFiles, "rules", "`[NAMESPACE=]FILE`: the cluster flow rules of a namespace (default namespace \"default\"), watched (repeatable)")
	maxQPS := fs.Float64("max-qps", tokenserver.DefaultMaxAllowedQps, "token requests answered per second per namespace; more are answered TOO_MANY_REQUEST")
	idle := fs.Duration("idle", tokenserver.DefaultIdleTimeout, "close a client connection silent for this long")
	verbose := fs.Bool("v", false, "log every client connection")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: level}))
	var namespaces []string
	for _, v := range ruleFiles {
		if ns, _, ok := strings.Cut(v, "="); ok {
			namespaces = append(namespaces, ns)
		}
	}
	srv, err := tokenserver.New(tokenserver.Config{IdleTimeout: *idle, Namespaces: namespaces, Logger: logger,
		Flow: tokenserver.FlowConfig{MaxAllowedQps: *maxQPS}})
	if err != nil {
		return err
	}
	for _, v := range ruleFiles {
		ns, path, ok := strings.Cut(v, "=")
		if !ok {
			ns, path = tokenserver.DefaultNamespace, v
		}
		if _, err := srv.WatchRules(ctx, ns, file.New(path), datasource.WithLogger(logger)); err != nil {
			return fmt.Errorf("namespace %s: %w", ns, err)
		}
		fmt.Fprintf(out, "namespace %s: %d cluster flow rules from %s (watched)\n", ns, len(srv.FlowRules(ns)), path)
	}
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "serving tokens on %s\n", l.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
		closed := make(chan struct{})
		go func() { srv.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
		}
		return nil
	}
}
