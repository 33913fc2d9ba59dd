package main

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/sentinelgen/sentinelgen/cluster/assign"
	"github.com/sentinelgen/sentinelgen/cluster/tokenclient"
	"github.com/sentinelgen/sentinelgen/cluster/tokenserver"
	"github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

// clusterFlags are the example's part in cluster flow control.
type clusterFlags struct {
	tokenServer string // -token-server HOST:PORT
	serveTokens string // -serve-tokens PORT or HOST:PORT
	flowID      int64  // -flow-id
	threshold   string // -threshold
}

// used reports whether the service takes a part from the flags.
func (f clusterFlags) used() bool { return f.tokenServer != "" || f.serveTokens != "" }

// flowConfig is the cluster configuration the flag-built flow rule gets.
func (f clusterFlags) flowConfig() (*runtime.ClusterConfig, error) {
	c := &runtime.ClusterConfig{FlowID: f.flowID, FallbackToLocalWhenFail: true}
	switch f.threshold {
	case "global":
		c.ThresholdType = runtime.Global
	case "avgLocal":
		c.ThresholdType = runtime.AvgLocal
	default:
		return nil, fmt.Errorf("-threshold %q: want global or avgLocal", f.threshold)
	}
	if f.flowID <= 0 {
		return nil, fmt.Errorf("-flow-id %d: want a number > 0", f.flowID)
	}
	return c, nil
}

// startCluster makes the service a token client of -token-server or an
// embedded token server on -serve-tokens; without either it waits for the
// dashboard to assign it a part (when the command center runs). The
// controller is what the command center serves the dashboard's cluster
// commands with.
func startCluster(f clusterFlags, app string, out io.Writer) (*assign.Controller, error) {
	if f.tokenServer != "" && f.serveTokens != "" {
		return nil, fmt.Errorf("-token-server and -serve-tokens exclude each other: a service is a client of a token server or one itself")
	}
	host := "127.0.0.1"
	port := 0
	if f.serveTokens != "" {
		h, p, err := net.SplitHostPort(f.serveTokens)
		if err != nil {
			h, p = "", f.serveTokens // a bare port
		}
		if port, err = strconv.Atoi(p); err != nil || port <= 0 || port > 65535 {
			return nil, fmt.Errorf("-serve-tokens %q: want PORT or HOST:PORT", f.serveTokens)
		}
		if h != "" {
			host = h
		}
	}
	logger := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctl, err := assign.New(assign.Config{App: app, ServerHost: host, Logger: logger})
	if err != nil {
		return nil, err
	}
	switch {
	case f.tokenServer != "":
		h, p, err := net.SplitHostPort(f.tokenServer)
		n, perr := strconv.Atoi(p)
		if err != nil || perr != nil {
			return nil, fmt.Errorf("-token-server %q: want HOST:PORT", f.tokenServer)
		}
		cfg := transport.ClusterClientConfig{ServerHost: h, ServerPort: n, RequestTimeout: int(tokenclient.DefaultRequestTimeout / time.Millisecond)}
		if err := ctl.SetClientConfig(cfg); err != nil {
			return nil, err
		}
		if err := ctl.SetMode(transport.ClusterModeClient); err != nil {
			return nil, err
		}
		fmt.Fprintf(out, "cluster: token client of %s (namespace %s)\n", f.tokenServer, app)
	case f.serveTokens != "":
		if err := ctl.SetServerTransport(port, int(tokenserver.DefaultIdleTimeout/time.Second)); err != nil {
			return nil, err
		}
		if err := ctl.SetMode(transport.ClusterModeServer); err != nil {
			ctl.Close()
			return nil, err
		}
		fmt.Fprintf(out, "cluster: serving tokens on %s (namespace %s)\n", net.JoinHostPort(host, strconv.Itoa(port)), app)
	}
	return ctl, nil
}
