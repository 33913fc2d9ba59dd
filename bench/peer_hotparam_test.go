package bench

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	sgapi "github.com/alibaba/sentinel-golang/api"
	sgbase "github.com/alibaba/sentinel-golang/core/base"
	sghotspot "github.com/alibaba/sentinel-golang/core/hotspot"
	"github.com/sentinelgen/sentinelgen/runtime"
)

// The hot-parameter comparison: one QPS hot-param rule on the first
// argument, a string, in sentinelgen (runtime.ParamFlowRule through
// EntryArgsTo, as generated wrappers call it) and in sentinel-golang v1.0.4
// (hotspot.Rule through api.Entry with WithArgs, as its documentation
// shows). The pass rule's threshold is out of reach; the block rule's is 0,
// which refuses every value in both libraries. Neither resource has other
// rules.
const (
	hotPassResource  = "bench-hot-pass"
	hotBlockResource = "bench-hot-block"
	hotPassCount     = 1e12
	hotValues        = 1000 // distinct values of the many-values benchmarks
)

var hotSetUp = sync.OnceValue(func() error {
	if err := runtime.LoadParamFlowRules([]runtime.ParamFlowRule{
		{Resource: hotPassResource, Grade: runtime.FlowGradeQPS, Count: hotPassCount},
		{Resource: hotBlockResource, Grade: runtime.FlowGradeQPS, Count: 0},
	}); err != nil {
		return fmt.Errorf("sentinelgen param rules: %w", err)
	}
	if _, err := sghotspot.LoadRules([]*sghotspot.Rule{
		{Resource: hotPassResource, MetricType: sghotspot.QPS, ControlBehavior: sghotspot.Reject, ParamIndex: 0,
			Threshold: hotPassCount, DurationInSec: 1},
		{Resource: hotBlockResource, MetricType: sghotspot.QPS, ControlBehavior: sghotspot.Reject, ParamIndex: 0,
			Threshold: 0, DurationInSec: 1},
	}); err != nil {
		return fmt.Errorf("sentinel-golang hotspot rules: %w", err)
	}
	return nil
})

// hotGuard is one library's hot-param call on one resource.
type hotGuard interface {
	once(value string) outcome
}

type sentinelgenHot struct{ res *runtime.Resource }

func (g sentinelgenHot) once(value string) outcome {
	var e runtime.Entry
	var blocked *runtime.BlockError
	if g.res.HasParamRules() { // keys are built only when a rule reads them
		args := [1]runtime.ParamArg{runtime.StringArg(value)}
		blocked = g.res.EntryArgsTo(&e, context.Background(), args[:])
	} else {
		blocked = g.res.EntryTo(&e, context.Background())
	}
	if blocked != nil {
		if blocked.Type() == runtime.BlockTypeParamFlow {
			return blockedByFlow
		}
		return blockedOther
	}
	e.Exit()
	return passed
}

type sentinelGolangHot struct{ resource string }

func (g sentinelGolangHot) once(value string) outcome {
	entry, blocked := sgapi.Entry(g.resource, sgapi.WithArgs(value))
	if blocked != nil {
		if blocked.BlockType() == sgbase.BlockTypeHotSpotParamFlow {
			return blockedByFlow
		}
		return blockedOther
	}
	entry.Exit()
	return passed
}

func hotPeers(tb testing.TB, resource string) []struct {
	name string
	g    hotGuard
} {
	if err := hotSetUp(); err != nil {
		tb.Fatal(err)
	}
	return []struct {
		name string
		g    hotGuard
	}{
		{"sentinelgen", sentinelgenHot{runtime.NewResource(resource)}},
		{"sentinel-golang", sentinelGolangHot{resource}},
	}
}

// TestHotParamPeersAgree checks that both libraries pass every call of the
// pass resource and refuse every call of the block resource by their
// hot-param rule, so the benchmarks compare the same work.
func TestHotParamPeersAgree(t *testing.T) {
	for _, c := range []struct {
		resource string
		want     outcome
	}{{hotPassResource, passed}, {hotBlockResource, blockedByFlow}} {
		for _, p := range hotPeers(t, c.resource) {
			for i := range 3 * hotValues {
				if got := p.g.once(hotValue(i)); got != c.want {
					t.Fatalf("%s on %s, call %d: %v, want %v", p.name, c.resource, i, got, c.want)
				}
			}
		}
	}
}

var hotValueNames = func() []string {
	s := make([]string, hotValues)
	for i := range s {
		s[i] = "sku-" + strconv.Itoa(i)
	}
	return s
}()

func hotValue(i int) string { return hotValueNames[i%hotValues] }

func benchHot(b *testing.B, resource string, want outcome, values int) {
	for _, p := range hotPeers(b, resource) {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if got := p.g.once(hotValueNames[i]); got != want {
					b.Fatalf("%v, want %v", got, want)
				}
				if i++; i == values {
					i = 0
				}
			}
		})
	}
}

func benchHotParallel(b *testing.B, resource string, want outcome, values int) {
	for _, p := range hotPeers(b, resource) {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				i := 0
				for pb.Next() {
					if got := p.g.once(hotValueNames[i]); got != want {
						b.Errorf("%v, want %v", got, want)
						return
					}
					if i++; i == values {
						i = 0
					}
				}
			})
		})
	}
}

// BenchmarkHotParamPass: one known value, admitted.
func BenchmarkHotParamPass(b *testing.B) { benchHot(b, hotPassResource, passed, 1) }

// BenchmarkHotParamBlock: one known value, refused by its rule.
func BenchmarkHotParamBlock(b *testing.B) { benchHot(b, hotBlockResource, blockedByFlow, 1) }

// BenchmarkHotParamPassManyValues: 1000 known values in turn, admitted.
func BenchmarkHotParamPassManyValues(b *testing.B) { benchHot(b, hotPassResource, passed, hotValues) }

// BenchmarkHotParamPassParallel: one known value from every processor.
func BenchmarkHotParamPassParallel(b *testing.B) {
	benchHotParallel(b, hotPassResource, passed, 1)
}

// BenchmarkHotParamPassManyValuesParallel: 1000 values from every processor.
func BenchmarkHotParamPassManyValuesParallel(b *testing.B) {
	benchHotParallel(b, hotPassResource, passed, hotValues)
}
