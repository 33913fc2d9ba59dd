package load

import (
	"context"
	"os"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/sentinelgen/sentinelgen/runtime"
)

// clock is the runtime's clock for every test of the package. One clock for
// all of them, because the runtime's statistics windows ignore writes older
// than their newest: time must never go back, and Simulate starts each run
// after the previous one ended.
var clock = runtime.NewManualClock(time.Hour)

func TestMain(m *testing.M) {
	runtime.SetClock(clock)
	os.Exit(m.Run())
}

func simulate(t *testing.T, cfg Config) Report {
	t.Helper()
	r, err := Simulate(cfg, clock)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSimulateShowsEveryOutcome checks the shape of the default run: the QPS
// rule caps every second, the breaker opens during the slow phase, probes,
// and closes after it, and the handlers' own counts match the callers'.
func TestSimulateShowsEveryOutcome(t *testing.T) {
	cfg := DefaultConfig()
	r := simulate(t, cfg)
	t.Logf("\n%s", r)

	if got, want := len(r.Seconds), int(cfg.Duration/time.Second); got != want {
		t.Fatalf("%d seconds reported, want %d", got, want)
	}
	slowFrom := int(cfg.SlowFrom / time.Second)
	for _, s := range r.Seconds {
		if s.Unexpected != 0 {
			t.Errorf("second %d: %d unexpected answers", s.At, s.Unexpected)
		}
		if s.Admitted() > int(cfg.FlowQPS) {
			t.Errorf("second %d: %d calls admitted, over the %v QPS rule", s.At, s.Admitted(), cfg.FlowQPS)
		}
		// The runtime's own statistics must agree with what callers saw.
		if s.Runtime.Pass != int64(s.Admitted()) || s.Runtime.Block != int64(s.BlockedFlow+s.BlockedDegrade) {
			t.Errorf("second %d: runtime saw pass %d block %d, callers saw admitted %d blocked %d",
				s.At, s.Runtime.Pass, s.Runtime.Block, s.Admitted(), s.BlockedFlow+s.BlockedDegrade)
		}
		if s.At < slowFrom {
			// Healthy and over the limit: exactly the rule's count passes.
			if s.Admitted() != int(cfg.FlowQPS) || s.BlockedDegrade != 0 || !slices.Equal(s.Breaker, []string{"CLOSED"}) {
				t.Errorf("healthy second %d: admitted %d (want %v), degrade %d (want 0), breaker %v (want CLOSED)",
					s.At, s.Admitted(), cfg.FlowQPS, s.BlockedDegrade, s.Breaker)
			}
		}
	}

	// The whole cycle: opened by slow calls, a failed probe while the
	// inventory is still slow, a successful one after it recovered.
	wantCycle := []string{"CLOSED", "OPEN", "HALF_OPEN", "OPEN", "HALF_OPEN", "CLOSED"}
	if !slices.Equal(r.Total.Breaker, wantCycle) {
		t.Errorf("breaker went through %v, want %v", r.Total.Breaker, wantCycle)
	}
	last := r.Seconds[len(r.Seconds)-1]
	if last.BlockedDegrade != 0 || last.BlockedFlow == 0 || !slices.Equal(last.Breaker, []string{"CLOSED"}) {
		t.Errorf("last second should be healthy again: %v", last)
	}
	if r.Total.Fallback == 0 || r.Total.Invalid == 0 || r.Total.BlockedDegrade == 0 {
		t.Errorf("every outcome should occur: %+v", r.Total)
	}

	// The handlers counted the same blocks and fallbacks the callers saw.
	o := r.Outcomes
	if o.BlockedFlow != int64(r.Total.BlockedFlow) || o.BlockedDegrade != int64(r.Total.BlockedDegrade) ||
		o.TotalFallbacks() != int64(r.Total.Fallback) {
		t.Errorf("handlers counted %+v, callers saw %+v", o, r.Total)
	}
}

func TestSimulateIsDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Duration = 5 * time.Second
	first := simulate(t, cfg)
	second := simulate(t, cfg)
	if !reflect.DeepEqual(first, second) {
		t.Errorf("two runs differ:\n%s\n%s", first, second)
	}
	cfg.Seed++
	if other := simulate(t, cfg); reflect.DeepEqual(first.Seconds, other.Seconds) {
		t.Error("a different seed gave the same run; the seed is not used")
	}
}

// TestSimulateWithoutSlowPhase: a healthy inventory never trips the breaker,
// so every refusal is the flow rule's.
func TestSimulateWithoutSlowPhase(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Duration = 4 * time.Second
	cfg.SlowUntil = cfg.SlowFrom
	r := simulate(t, cfg)
	if r.Total.BlockedDegrade != 0 || !slices.Equal(r.Total.Breaker, []string{"CLOSED"}) {
		t.Errorf("breaker acted without slow calls:\n%s", r)
	}
	if want := len(r.Seconds) * int(cfg.OfferedQPS-cfg.FlowQPS); r.Total.BlockedFlow != want {
		t.Errorf("%d flow blocks, want %d", r.Total.BlockedFlow, want)
	}
}

func TestOnSecondStreamsEverySecondInOrder(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Duration = 3 * time.Second
	var streamed []Second
	cfg.OnSecond = func(s Second) { streamed = append(streamed, s) }
	r := simulate(t, cfg)
	if !reflect.DeepEqual(streamed, r.Seconds) {
		t.Errorf("streamed %v\nreport   %v", streamed, r.Seconds)
	}
}

func TestConfigCheck(t *testing.T) {
	if cfg := DefaultConfig(); cfg.check() != nil {
		t.Fatalf("default config rejected: %v", cfg.check())
	}
	cfg := DefaultConfig()
	cfg.OfferedQPS = 0
	cfg.FailRate = 2
	if _, err := Simulate(cfg, clock); err == nil {
		t.Error("Simulate accepted zero offered QPS and a fail rate of 2")
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, DefaultConfig()); err == nil {
		t.Error("Run with a cancelled context reported no error")
	}
}
