package bench

import (
	"fmt"
	"os"
	"testing"

	sgapi "github.com/alibaba/sentinel-golang/api"
	sgbase "github.com/alibaba/sentinel-golang/core/base"
	sgbreaker "github.com/alibaba/sentinel-golang/core/circuitbreaker"
	sgconfig "github.com/alibaba/sentinel-golang/core/config"
	sgflow "github.com/alibaba/sentinel-golang/core/flow"
)

// sentinelGolangGuard calls Alibaba's sentinel-golang v1.0.4 the way its
// documentation shows: api.Entry by resource name, Exit when done. Rules are
// global in that library, so the guard only remembers the resource name.
type sentinelGolangGuard struct{ resource string }

// initSentinelGolang starts sentinel-golang for a benchmark process: quiet,
// writing nothing into the repository, with no background collectors that
// would steal CPU from the measured loop, and with the rules for both
// benchmark resources loaded.
func initSentinelGolang(logDir string) error {
	conf := sgconfig.NewDefaultConfig()
	conf.Sentinel.App.Name = "sentinelgen-bench"
	// A Logger set in the config replaces the file/console record logger, so
	// nothing is printed and no sentinel-record.log is created.
	conf.Sentinel.Log.Logger = silentLogger{}
	conf.Sentinel.Log.Dir = logDir
	// A flush interval of 0 keeps the metric-log task from starting, so no
	// metric files are written.
	conf.Sentinel.Log.Metric.FlushIntervalSec = 0
	// No CPU, load or memory sampling goroutines: none of the rules use them.
	conf.Sentinel.Stat.System = sgconfig.SystemStatConfig{}
	// The cached millisecond clock is the library's own speed option; giving it
	// to sentinel-golang makes the comparison conservative for sentinelgen.
	// SENTINEL_GOLANG_CACHE_TIME=off measures the library's default (off).
	conf.Sentinel.UseCacheTime = os.Getenv("SENTINEL_GOLANG_CACHE_TIME") != "off"
	if err := sgapi.InitWithConfig(conf); err != nil {
		return fmt.Errorf("sentinel-golang init: %w", err)
	}

	flowRule := func(resource string, threshold float64) *sgflow.Rule {
		return &sgflow.Rule{
			Resource:               resource,
			TokenCalculateStrategy: sgflow.Direct,
			ControlBehavior:        sgflow.Reject,
			Threshold:              threshold,
			StatIntervalInMs:       1000,
		}
	}
	if _, err := sgflow.LoadRules([]*sgflow.Rule{
		flowRule(passResource, passQPS),
		flowRule(blockResource, blockQPS),
	}); err != nil {
		return fmt.Errorf("sentinel-golang flow rules: %w", err)
	}

	breakerRule := func(resource string) *sgbreaker.Rule {
		return &sgbreaker.Rule{
			Resource:         resource,
			Strategy:         sgbreaker.SlowRequestRatio,
			RetryTimeoutMs:   breakerOpenForSec * 1000,
			MinRequestAmount: breakerMinRequests,
			StatIntervalMs:   breakerWindowMs,
			MaxAllowedRtMs:   slowCallRTMs,
			Threshold:        slowRatioThreshold,
		}
	}
	if _, err := sgbreaker.LoadRules([]*sgbreaker.Rule{
		breakerRule(passResource),
		breakerRule(blockResource),
	}); err != nil {
		return fmt.Errorf("sentinel-golang circuit breaker rules: %w", err)
	}
	return nil
}

func (g sentinelGolangGuard) once() outcome {
	entry, blocked := sgapi.Entry(g.resource)
	if blocked != nil {
		if blocked.BlockType() == sgbase.BlockTypeFlow {
			return blockedByFlow
		}
		return blockedOther
	}
	entry.Exit()
	return passed
}

func (g sentinelGolangGuard) loop(b *testing.B, want outcome) {
	for b.Loop() {
		if got := g.once(); got != want {
			b.Fatalf("sentinel-golang on %s: %v, want %v", g.resource, got, want)
		}
	}
}

func (g sentinelGolangGuard) loopParallel(b *testing.B, want outcome) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if got := g.once(); got != want {
				b.Errorf("sentinel-golang on %s: %v, want %v", g.resource, got, want)
				return
			}
		}
	})
}

// silentLogger discards sentinel-golang's log output and reports every level
// as disabled, so the library skips formatting messages too.
type silentLogger struct{}

func (silentLogger) Debug(string, ...interface{})        {}
func (silentLogger) DebugEnabled() bool                  { return false }
func (silentLogger) Info(string, ...interface{})         {}
func (silentLogger) InfoEnabled() bool                   { return false }
func (silentLogger) Warn(string, ...interface{})         {}
func (silentLogger) WarnEnabled() bool                   { return false }
func (silentLogger) Error(error, string, ...interface{}) {}
func (silentLogger) ErrorEnabled() bool                  { return false }
