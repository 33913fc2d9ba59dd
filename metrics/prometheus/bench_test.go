package prometheus

import (
	"fmt"
	"io"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/sentinelgen/sentinelgen/metrics"
	"github.com/sentinelgen/sentinelgen/metrics/exposition"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// benchScrape declares n resources, each with a flow rule and a breaker,
// and returns an Exporter of a Sampler that has read them once.
func benchScrape(b *testing.B, n int) *exposition.Exporter {
	b.Helper()
	var rules runtime.Rules
	var res []*runtime.Resource
	for i := range n {
		name := fmt.Sprintf("bench-scrape-%d/%d", n, i)
		res = append(res, runtime.NewResource(name))
		rules.Flow = append(rules.Flow, runtime.FlowRule{Resource: name, Grade: runtime.FlowGradeQPS, Count: 100})
		rules.Degrade = append(rules.Degrade, runtime.DegradeRule{Resource: name, Grade: runtime.DegradeErrorRatio, Count: 0.5, TimeWindowSec: 10})
	}
	if err := runtime.LoadRules(rules); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = runtime.LoadRules(runtime.Rules{}) })
	s := metrics.New(metrics.Config{Resources: func() []*runtime.Resource { return res }})
	s.Poll()
	return exposition.New(s)
}

// BenchmarkScrape is the cost of one scrape (registry Gather) per number of
// resources: what Prometheus pays every scrape interval, off the request path.
func BenchmarkScrape(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprint("resources=", n), func(b *testing.B) {
			reg := prometheus.NewRegistry()
			reg.MustRegister(NewCollector(benchScrape(b, n)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := reg.Gather(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWriteText is the standard-library writer's scrape (Families and
// WriteText), per number of resources.
func BenchmarkWriteText(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprint("resources=", n), func(b *testing.B) {
			x := benchScrape(b, n)
			b.ReportAllocs()
			for b.Loop() {
				if err := exposition.WriteText(io.Discard, x.Families()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
