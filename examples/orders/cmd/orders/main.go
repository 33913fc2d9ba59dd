// Command orders drives load at the orders example while a QPS flow rule and
// a slow-call-ratio circuit breaker guard createOrder, and prints one line per
// second: calls that passed, were refused by the flow rule or by the open
// breaker, were answered by the fallback, or were invalid and passed through,
// with the breaker's states during the second.
//
// Partway through the run the simulated inventory turns slow, so the breaker
// opens, probes while it is still slow, and closes once it has recovered.
//
//	go run ./examples/orders/cmd/orders -duration 10s
//	go run ./examples/orders/cmd/orders -simulate   # same run on simulated time, instantly
//	go run ./examples/orders/cmd/orders -rules examples/orders/rules.toml
//
// With -rules the rules come from the file instead of the flags, and the file
// is watched: an edit during the run applies within a quarter of a second,
// and a broken edit is logged and changes nothing.
//
// With -dashboard the service speaks Sentinel's dashboard protocol (see
// docs/dashboard.md) and sends the dashboard heartbeats; its command center
// listens on -transport, 127.0.0.1:8720 by default. Not Sentinel's 8719: the
// dashboard is itself a Sentinel client and binds 8719 for its own command
// center, so a dashboard on the same host would hold it. -read-only refuses
// rules pushed from it. The -rules file is never written: with -rules-push,
// pushed rules are kept in that machine-owned file instead and put in force
// over the -rules file's at the next start:
//
//	go run ./examples/orders/cmd/orders -duration 10m -dashboard 127.0.0.1:8080
//	go run ./examples/orders/cmd/orders -duration 10m -dashboard 127.0.0.1:8080 -rules rules.toml -rules-push rules.pushed.json
//
// With -nacos the rules of every kind come from Nacos, one dataId per kind
// named after -app (orders-flow-rules, orders-degrade-rules, ...) in
// -nacos-group of -nacos-namespace, and are followed; a dashboard push is
// written there, so it reaches every instance of the app and survives a
// restart (see docs/dashboard.md):
//
//	go run ./examples/orders/cmd/orders -duration 10m -dashboard 127.0.0.1:8080 -nacos 127.0.0.1:8848
//
// With -token-server it is a client of a Sentinel token server (Java's, or
// cmd/sentinel-token-server), and with -serve-tokens an embedded one, so that
// every instance of the app shares createOrder's budget of -limit per second
// (see docs/cluster.md); with a command center the dashboard's cluster page
// can assign either part:
//
//	go run ./examples/orders/cmd/orders -duration 1m -serve-tokens 18730 -limit 300
//	go run ./examples/orders/cmd/orders -duration 1m -token-server 127.0.0.1:18730 -limit 300
//
// With -http it serves Prometheus metrics at /metrics and the built-in page
// at / (see docs/observability.md):
//
//	go run ./examples/orders/cmd/orders -duration 10m -http :9090
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/examples/orders"
	"github.com/sentinelgen/sentinelgen/examples/orders/load"
	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

// dashboardListen is the command center's address when -dashboard is given
// without -transport. It is not Sentinel's 8719: the dashboard is itself a
// Sentinel client that binds 8719 for its own command center, so with a
// dashboard on the same host that port is taken.
const dashboardListen = "127.0.0.1:8720"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "orders:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, w io.Writer) error {
	// The per-second lines and the rule watcher's log share the output.
	out := &lockedWriter{w: w}
	cfg := load.DefaultConfig()
	fs := flag.NewFlagSet("orders", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Float64Var(&cfg.OfferedQPS, "qps", cfg.OfferedQPS, "offered createOrder calls per second")
	fs.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long to offer load (whole seconds)")
	fs.Float64Var(&cfg.FlowQPS, "limit", cfg.FlowQPS, "the QPS flow rule on createOrder")
	fs.DurationVar(&cfg.SlowRT, "slow-rt", cfg.SlowRT, "breaker: calls slower than this are slow")
	fs.Float64Var(&cfg.SlowRatio, "slow-ratio", cfg.SlowRatio, "breaker: open when the slow fraction exceeds this")
	fs.DurationVar(&cfg.OpenFor, "open", cfg.OpenFor, "breaker: how long it stays open before a probe (whole seconds)")
	fs.IntVar(&cfg.MinRequests, "min-requests", cfg.MinRequests, "breaker: calls per stat interval before the ratio counts")
	fs.DurationVar(&cfg.FastLatency, "latency", cfg.FastLatency, "inventory latency when healthy")
	fs.DurationVar(&cfg.SlowLatency, "slow-latency", cfg.SlowLatency, "inventory latency during the slow phase")
	fs.DurationVar(&cfg.SlowFrom, "slow-from", cfg.SlowFrom, "the slow phase starts this long into the run")
	fs.DurationVar(&cfg.SlowUntil, "slow-until", cfg.SlowUntil, "the slow phase ends this long into the run")
	fs.Float64Var(&cfg.FailRate, "fail", cfg.FailRate, "fraction of reservations that fail (answered by the fallback)")
	fs.Float64Var(&cfg.InvalidRate, "invalid", cfg.InvalidRate, "fraction of invalid requests (passed through)")
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the failing and invalid calls")
	simulate := fs.Bool("simulate", false, "run on simulated time: instant and the same on every machine")
	rulesFile := fs.String("rules", "", "take the rules from this TOML or Sentinel-JSON `file` and watch it (the rule flags are then ignored); it is never written")
	rulesPush := fs.String("rules-push", "", "keep rules pushed from the dashboard in this machine-owned Sentinel-JSON `file`, laid over -rules at start (needs -rules, and -transport or -dashboard)")
	nacosAddr := fs.String("nacos", "", "take every kind of rule from the Nacos server at `host:port` (dataIds APP-flow-rules and so on, APP from -app) and follow it; dashboard pushes are written there")
	nacosNS := fs.String("nacos-namespace", "", "the Nacos namespace `ID` of -nacos (empty: the public namespace)")
	nacosGroup := fs.String("nacos-group", "SENTINEL_GROUP", "the Nacos `group` of -nacos's dataIds")
	var cf clusterFlags
	fs.StringVar(&cf.tokenServer, "token-server", "", "be a client of the Sentinel token server at `host:port`: createOrder's flow rule (-limit the cluster's budget) is decided there")
	fs.StringVar(&cf.serveTokens, "serve-tokens", "", "be an embedded Sentinel token server on `port` (or host:port; a bare port binds 127.0.0.1) for the app's other instances, Java or Go")
	fs.Int64Var(&cf.flowID, "flow-id", 1, "the cluster flowId of createOrder's flow rule, with -token-server or -serve-tokens")
	fs.StringVar(&cf.threshold, "threshold", "global", "how -limit is read in cluster mode: global (the cluster's budget) or avgLocal (each instance's)")
	var tc transport.Config
	fs.StringVar(&tc.App, "app", "orders", "application `name` shown in the Sentinel dashboard")
	fs.StringVar(&tc.Listen, "transport", "", "serve Sentinel's dashboard commands on this `address`; off when empty, unless -dashboard is given: then "+dashboardListen)
	fs.StringVar(&tc.Dashboard, "dashboard", "", "send heartbeats to the Sentinel dashboard at `host:port` (the command center then listens on -transport, "+dashboardListen+" by default)")
	fs.BoolVar(&tc.ReadOnly, "read-only", false, "refuse rules pushed from the dashboard")
	httpAddr := fs.String("http", "", "serve /metrics (Prometheus) and the built-in page at / on this `address` (a bare :port binds 127.0.0.1); off when empty")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if tc.Dashboard != "" && tc.Listen == "" {
		tc.Listen = dashboardListen
	}
	if (tc.Listen != "" || *httpAddr != "") && !*simulate {
		// One sampler serves the command center and -http.
		tc.Sampler = metrics.New(metrics.Config{})
		tc.Sampler.Start()
		defer tc.Sampler.Stop()
	}
	if *rulesPush != "" && (*rulesFile == "" || tc.Listen == "") {
		return fmt.Errorf("-rules-push needs -rules, and -transport or -dashboard")
	}
	if *nacosAddr != "" && (*rulesFile != "" || *rulesPush != "") {
		return fmt.Errorf("-nacos takes the rules from Nacos and keeps pushes there: it cannot be used with -rules or -rules-push")
	}
	if *nacosAddr != "" && *simulate {
		return fmt.Errorf("-nacos follows Nacos in wall-clock time; it cannot be used with -simulate")
	}
	if tc.Listen != "" && *simulate {
		return fmt.Errorf("-transport serves wall-clock seconds; it cannot be used with -simulate")
	}
	if cf.used() && !*simulate {
		c, err := cf.flowConfig()
		if err != nil {
			return err
		}
		cfg.ClusterFlow = c
	} else if cf.used() {
		return fmt.Errorf("-token-server and -serve-tokens work in wall-clock time; they cannot be used with -simulate")
	}
	if cf.used() || tc.Listen != "" {
		// The dashboard's cluster page can assign a part to a service
		// whose command center runs.
		ctl, err := startCluster(cf, tc.App, out)
		if err != nil {
			return err
		}
		defer ctl.Close()
		tc.Cluster = ctl
	}
	// The rules come first, so that the command center's writer knows
	// the rules the file holds.
	var pushed datasource.WritableSource
	if *rulesFile != "" {
		w, stopRules, err := watchRules(ctx, *rulesFile, *rulesPush, out)
		if err != nil {
			return err
		}
		defer stopRules()
		cfg.RulesInForce = true
		pushed = w
	}
	if *nacosAddr != "" {
		w, stopRules, err := watchNacos(ctx, *nacosAddr, *nacosNS, *nacosGroup, tc.App, out)
		if err != nil {
			return err
		}
		defer stopRules()
		cfg.RulesInForce = true
		pushed = w
	}
	var refusals func() transport.PushRefusals // the command center's, for -http
	if tc.Listen != "" {
		srv, err := startTransport(tc, pushed, out)
		if err != nil {
			return err
		}
		defer srv.Close()
		refusals = srv.Refusals
	} else if tc.Dashboard != "" || tc.ReadOnly {
		return fmt.Errorf("-read-only needs -transport or -dashboard")
	}
	if *httpAddr != "" {
		if *simulate {
			return fmt.Errorf("-http serves wall-clock seconds; it cannot be used with -simulate")
		}
		stopHTTP, err := startHTTP(*httpAddr, tc.Sampler, refusals, out)
		if err != nil {
			return err
		}
		defer stopHTTP()
	}

	if !cfg.RulesInForce {
		fmt.Fprintf(out, "createOrder: flow rule %v QPS (fast fail); breaker on calls slower than %v, ratio > %v, open %v\n",
			cfg.FlowQPS, cfg.SlowRT, cfg.SlowRatio, cfg.OpenFor)
	}
	phase := "no slow phase"
	if cfg.SlowUntil > cfg.SlowFrom {
		phase = fmt.Sprintf("slow (%v) from %v to %v", cfg.SlowLatency, cfg.SlowFrom, cfg.SlowUntil)
	}
	fmt.Fprintf(out, "offering %v calls/s for %v; inventory %s\n\n", cfg.OfferedQPS, cfg.Duration, phase)
	fmt.Fprintf(out, "one line per second; the columns:\n%s\n\n", load.Legend())
	fmt.Fprintln(out, load.Header())
	cfg.OnSecond = func(s load.Second) { fmt.Fprintln(out, s) }

	var report load.Report
	var err error
	if *simulate {
		// Start where the runtime's clock is, so that simulated time never
		// runs behind statistics already written.
		clock := runtime.NewManualClock(time.Duration(runtime.CurrentClock().Nanotime()))
		runtime.SetClock(clock)
		report, err = load.Simulate(cfg, clock)
	} else {
		report, err = load.Run(ctx, cfg)
	}
	if err != nil {
		return err
	}
	printTotals(out, report)
	return nil
}

// printTotals prints the sums and what the service's handlers counted.
func printTotals(out io.Writer, r load.Report) {
	fmt.Fprintf(out, "%s\n\n", r.TotalsLine())
	o := r.Outcomes
	fmt.Fprintf(out, "handlers counted: blocked by flow %d, by breaker %d; fallbacks %d", o.BlockedFlow, o.BlockedDegrade, o.TotalFallbacks())
	reasons := make([]string, 0, len(o.Fallbacks))
	for reason := range o.Fallbacks {
		reasons = append(reasons, string(reason))
	}
	sort.Strings(reasons)
	for i, reason := range reasons {
		sep := ", "
		if i == 0 {
			sep = " ("
		}
		fmt.Fprintf(out, "%s%s %d", sep, reason, o.Fallbacks[orders.FallbackReason(reason)])
	}
	if len(reasons) > 0 {
		fmt.Fprint(out, ")")
	}
	fmt.Fprintln(out)
	if n := r.Total.Unexpected; n > 0 {
		fmt.Fprintf(out, "%d answers fit no outcome: the example is broken\n", n)
	}
}

// startTransport starts the command center (and heartbeats) and says where
// it listens; pushed rules are written to pushed when it is not nil.
func startTransport(cfg transport.Config, pushed datasource.WritableSource, out io.Writer) (*transport.Server, error) {
	cfg.Logger = slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg.Writer = pushed
	srv, err := transport.Start(cfg)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%w (a Sentinel dashboard on this host binds 8719 for its own command center, and other Sentinel clients the ports after it: give -transport a free port)", err)
	}
	if err != nil {
		return nil, err
	}
	kept := "until the service stops (-rules-push keeps them)"
	if pushed != nil {
		kept = "in " + fmt.Sprint(pushed)
	}
	fmt.Fprintf(out, "sentinel command center on %s (app %s, dashboard %q, read-only %v); pushed rules kept %s\n", srv.Addr(), cfg.App, cfg.Dashboard, cfg.ReadOnly, kept)
	return srv, nil
}

// lockedWriter serialises writes from the driver's and the watcher's
// goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
