package runtime

import (
	"context"
	goruntime "runtime"
	"strconv"
	"testing"
	"time"
)

// BenchmarkParamEntry is a call through EntryArgsTo and Exit, the way
// generated wrappers make it, on a resource with no rule ("none": HasParamRules
// is false, no key is built) and on one with one hot-param QPS rule on a
// string key, a known value ("string"). Sub-benchmarks, so that -count
// interleaves the two.
func BenchmarkParamEntry(b *testing.B) {
	none := NewResource("bench-param-none")
	hot := NewResource("bench-param-string")
	if err := LoadRules(Rules{ParamFlow: []ParamFlowRule{{Resource: hot.Name(), Grade: FlowGradeQPS, Count: 1e15}}}); err != nil {
		b.Fatal(err)
	}
	defer LoadRules(Rules{})
	ctx := context.Background()
	sku := "sku-12345"
	for _, c := range []struct {
		name string
		res  *Resource
	}{{"none", none}, {"string", hot}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var e Entry
				var blocked *BlockError
				if c.res.HasParamRules() {
					args := [1]ParamArg{StringArg(sku)}
					blocked = c.res.EntryArgsTo(&e, ctx, args[:])
				} else {
					blocked = c.res.EntryTo(&e, ctx)
				}
				if blocked != nil {
					b.Fatal("blocked")
				}
				e.Exit()
			}
		})
	}
}

// BenchmarkParamBlock is a call refused by a hot-param QPS rule on a known
// value (its budget spent): the block path, with the count of the rule's
// blocks (BlockErrors), serial and with every processor blocking the same
// value. Sub-benchmarks, so that -count interleaves them.
func BenchmarkParamBlock(b *testing.B) {
	res := NewResource("bench-param-block")
	if err := LoadRules(Rules{ParamFlow: []ParamFlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 1, DurationInSec: 3600}}}); err != nil {
		b.Fatal(err)
	}
	defer LoadRules(Rules{})
	ctx := context.Background()
	enter := func() *BlockError {
		var e Entry
		args := [1]ParamArg{StringArg("sku-hot")}
		be := res.EntryArgsTo(&e, ctx, args[:])
		if be == nil {
			e.Exit()
		}
		return be
	}
	enter() // spends the value's one token
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if enter() == nil {
				b.Fatal("passed")
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if enter() == nil {
					b.Error("passed")
					return
				}
			}
		})
	})
}

// BenchmarkParamMemory tracks distinct values in one rule's table and
// reports the heap each costs (runtime.MemStats, after a GC either side):
// B/value with short string keys ("sku-N") and with integer keys, at 1000
// and at 100k values (a rule with DurationInSec 25 holds 100k).
func BenchmarkParamMemory(b *testing.B) {
	for _, n := range []int{1000, 100_000} {
		for _, kind := range []string{"string", "int"} {
			b.Run(kind+"/"+strconv.Itoa(n), func(b *testing.B) {
				keys := make([]ParamArg, n)
				for i := range keys {
					if kind == "string" {
						keys[i] = StringArg("sku-" + strconv.Itoa(i))
					} else {
						keys[i] = IntArg(int64(i))
					}
				}
				var perValue float64
				for b.Loop() {
					pc := buildParamChecks(nil, nil, []ParamFlowRule{{Resource: "mem", Grade: FlowGradeQPS, Count: 10, DurationInSec: 25}}, []int{0})
					before := heapInUse()
					now := int64(time.Hour)
					for i := range keys {
						var h paramHeld
						pc.enter(&h, keys[i:i+1], now, 1)
					}
					after := heapInUse()
					if got := pc.rules[0].table.Len(); got != n {
						b.Fatalf("%d values tracked, want %d", got, n)
					}
					perValue = float64(after-before) / float64(n)
					goruntime.KeepAlive(pc)
				}
				b.ReportMetric(perValue, "B/value")
				b.ReportMetric(perValue*float64(n)/(1<<20), "MiB")
			})
		}
	}
}
