package bench

import (
	goruntime "runtime"
	"strconv"
	"sync/atomic"
	"testing"

	sghotspot "github.com/alibaba/sentinel-golang/core/hotspot"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// memValues is how many distinct values BenchmarkHotParamMemory tracks.
const memValues = 100_000

var memSeq atomic.Int64

// BenchmarkHotParamMemory sends memValues distinct string values through a
// fresh hot-param rule of each library and reports the heap the rule then
// retains per value (runtime.MemStats after GC, before and after). Both
// rules can hold every value: sentinelgen's with DurationInSec 25
// (min(4000·25, 200 000) values), sentinel-golang's with ParamsMaxCapacity.
// The value strings exist before the measurement; sentinelgen keeps a copy
// of each (counted), sentinel-golang keeps the caller's (not counted). Run
// it with -benchtime=1x: each iteration measures a new rule.
func BenchmarkHotParamMemory(b *testing.B) {
	if err := hotSetUp(); err != nil {
		b.Fatal(err)
	}
	values := make([]string, memValues)
	for i := range values {
		values[i] = "sku-" + strconv.Itoa(i)
	}
	for _, p := range []struct {
		name  string
		setUp func(resource string) (hotGuard, error)
	}{
		{"sentinelgen", func(resource string) (hotGuard, error) {
			err := runtime.LoadParamFlowRules([]runtime.ParamFlowRule{
				{Resource: hotPassResource, Grade: runtime.FlowGradeQPS, Count: hotPassCount},
				{Resource: hotBlockResource, Grade: runtime.FlowGradeQPS, Count: 0},
				{Resource: resource, Grade: runtime.FlowGradeQPS, Count: hotPassCount, DurationInSec: 25},
			})
			return sentinelgenHot{runtime.NewResource(resource)}, err
		}},
		{"sentinel-golang", func(resource string) (hotGuard, error) {
			_, err := sghotspot.LoadRulesOfResource(resource, []*sghotspot.Rule{{Resource: resource, MetricType: sghotspot.QPS,
				ControlBehavior: sghotspot.Reject, Threshold: hotPassCount, DurationInSec: 25, ParamsMaxCapacity: memValues}})
			return sentinelGolangHot{resource}, err
		}},
	} {
		b.Run(p.name, func(b *testing.B) {
			var perValue float64
			for b.Loop() {
				resource := "bench-hot-mem-" + strconv.FormatInt(memSeq.Add(1), 10)
				g, err := p.setUp(resource)
				if err != nil {
					b.Fatal(err)
				}
				g.once("warm-up") // first-call set-up of the resource, not per value
				before := heapAlloc()
				for _, v := range values {
					if got := g.once(v); got != passed {
						b.Fatalf("%v, want %v", got, passed)
					}
				}
				perValue = float64(heapAlloc()-before) / memValues
				goruntime.KeepAlive(values)
			}
			b.ReportMetric(perValue, "B/value")
			b.ReportMetric(perValue*memValues/(1<<20), "MiB/100k")
		})
	}
}

func heapAlloc() uint64 {
	goruntime.GC()
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}
