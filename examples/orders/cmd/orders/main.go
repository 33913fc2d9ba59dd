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
// With -transport the service speaks Sentinel's dashboard protocol (see
// docs/dashboard.md); -dashboard sends it heartbeats, -read-only refuses
// rules pushed from it (pushes are written back to the -rules file when one
// is given):
//
//	go run ./examples/orders/cmd/orders -duration 10m -transport 127.0.0.1:8719 -dashboard 127.0.0.1:8080
//
// With -http it serves Prometheus metrics at /metrics and the built-in page
// at / (see docs/observability.md):
//
//	go run ./examples/orders/cmd/orders -duration 10m -http :9090
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"sync"
	"time"

	"github.com/sentinelgen/sentinelgen/datasource"
	"github.com/sentinelgen/sentinelgen/datasource/file"
	"github.com/sentinelgen/sentinelgen/examples/orders"
	"github.com/sentinelgen/sentinelgen/examples/orders/load"
	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/runtime"
	"github.com/sentinelgen/sentinelgen/transport"
)

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
	rulesFile := fs.String("rules", "", "take the rules from this TOML or Sentinel-JSON `file` and watch it (the rule flags are then ignored)")
	var tc transport.Config
	fs.StringVar(&tc.App, "app", "orders", "application `name` shown in the Sentinel dashboard")
	fs.StringVar(&tc.Listen, "transport", "", "serve Sentinel's dashboard commands on this `address` (e.g. 127.0.0.1:8719); off when empty")
	fs.StringVar(&tc.Dashboard, "dashboard", "", "send heartbeats to the Sentinel dashboard at `host:port` (needs -transport)")
	fs.BoolVar(&tc.ReadOnly, "read-only", false, "refuse rules pushed from the dashboard")
	httpAddr := fs.String("http", "", "serve /metrics (Prometheus) and the built-in page at / on this `address` (a bare :port binds 127.0.0.1); off when empty")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if (tc.Listen != "" || *httpAddr != "") && !*simulate {
		// One sampler serves the command center and -http.
		tc.Sampler = metrics.New(metrics.Config{})
		tc.Sampler.Start()
		defer tc.Sampler.Stop()
	}
	var refusals func() transport.PushRefusals // the command center's, for -http
	if tc.Listen != "" {
		if *simulate {
			return fmt.Errorf("-transport serves wall-clock seconds; it cannot be used with -simulate")
		}
		srv, err := startTransport(tc, *rulesFile, out)
		if err != nil {
			return err
		}
		defer srv.Close()
		refusals = srv.Refusals
	} else if tc.Dashboard != "" || tc.ReadOnly {
		return fmt.Errorf("-dashboard and -read-only need -transport")
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

	if *rulesFile != "" {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		logger := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn}))
		watcher, err := file.Watch(ctx, *rulesFile, datasource.WithLogger(logger))
		if err != nil {
			return err
		}
		cfg.RulesInForce = true
		set := watcher.Property().Get()
		fmt.Fprintf(out, "rules from %s (watched: a file renamed into place applies within %v, one written in place once unchanged for %v): %d flow, %d degrade\n",
			*rulesFile, file.DefaultPollInterval, file.DefaultSettle, len(set.Flow), len(set.Degrade))
	} else {
		fmt.Fprintf(out, "createOrder: flow rule %v QPS (fast fail); breaker on calls slower than %v, ratio > %v, open %v\n",
			cfg.FlowQPS, cfg.SlowRT, cfg.SlowRatio, cfg.OpenFor)
	}
	phase := "no slow phase"
	if cfg.SlowUntil > cfg.SlowFrom {
		phase = fmt.Sprintf("slow (%v) from %v to %v", cfg.SlowLatency, cfg.SlowFrom, cfg.SlowUntil)
	}
	fmt.Fprintf(out, "offering %v calls/s for %v; inventory %s\n\n", cfg.OfferedQPS, cfg.Duration, phase)
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
// it listens; pushed rules are written back to rulesFile when one is given.
func startTransport(cfg transport.Config, rulesFile string, out io.Writer) (*transport.Server, error) {
	cfg.Logger = slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn}))
	if rulesFile != "" {
		cfg.Writer = file.New(rulesFile)
	}
	srv, err := transport.Start(cfg)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "sentinel command center on %s (app %s, dashboard %q, read-only %v)\n", srv.Addr(), cfg.App, cfg.Dashboard, cfg.ReadOnly)
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
