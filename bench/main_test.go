package bench

import (
	"fmt"
	"os"
	"testing"

	"github.com/sentinelgen/sentinelgen/bench/internal/cpuload"
)

// guard is one library configured to protect one resource. Benchmarks reach
// a guard through this interface once per benchmark; inside loop and
// loopParallel every call is a direct call on the concrete type, so the
// interface adds nothing to the measured time per operation.
type guard interface {
	// once makes one guarded call and reports what happened.
	once() outcome
	// loop runs b's measured loop on one goroutine, failing b as soon as a
	// call ends other than want.
	loop(b *testing.B, want outcome)
	// loopParallel is loop under b.RunParallel.
	loopParallel(b *testing.B, want outcome)
}

// peer is one library under comparison with its pass and block configurations.
type peer struct {
	name  string
	pass  guard
	block guard
}

// peers lists the libraries in table order, sentinelgen first because every
// ratio is taken against it. TestMain fills it after the global rule stores
// of sentinelgen and sentinel-golang are loaded.
var peers []peer

func TestMain(m *testing.M) {
	os.Exit(runWithPeers(m))
}

// runWithPeers sets the peers up, starts the CPU hog in loaded mode
// (BENCH_LOAD, see internal/cpuload), runs the tests and benchmarks, and
// afterwards stops the hog and removes sentinel-golang's log directory.
func runWithPeers(m *testing.M) int {
	hog, err := cpuload.FromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench setup:", err)
		return 2
	}
	if hog != nil {
		defer hog.Stop()
		fmt.Fprintf(os.Stderr, "loaded mode: cpuhog pid %d spinning %d busy thread(s)\n", hog.PID(), hog.Threads())
	}

	logDir, err := os.MkdirTemp("", "sentinelgen-bench-logs-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench setup:", err)
		return 2
	}
	defer os.RemoveAll(logDir)

	if err := setUpPeers(logDir); err != nil {
		fmt.Fprintln(os.Stderr, "bench setup:", err)
		return 2
	}
	return m.Run()
}

func setUpPeers(sentinelGolangLogDir string) error {
	if err := loadSentinelgenRules(); err != nil {
		return err
	}
	if err := initSentinelGolang(sentinelGolangLogDir); err != nil {
		return err
	}
	peers = []peer{
		{
			name:  "sentinelgen",
			pass:  newSentinelgenGuard(passResource),
			block: newSentinelgenGuard(blockResource),
		},
		{
			name:  "sentinel-golang",
			pass:  sentinelGolangGuard{resource: passResource},
			block: sentinelGolangGuard{resource: blockResource},
		},
		{
			name:  "failsafe-go",
			pass:  newFailsafePassGuard(),
			block: newFailsafeBlockGuard(),
		},
		{
			name:  "gobreaker+rate",
			pass:  newGobreakerRatePassGuard(),
			block: newGobreakerRateBlockGuard(),
		},
	}
	return nil
}
