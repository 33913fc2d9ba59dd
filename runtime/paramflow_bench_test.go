package runtime

import (
	"context"
	goruntime "runtime"
	"strconv"
	"testing"
	"time"
)

// BenchmarkParamEntryString is a call of a resource with one hot-param rule
// on a string key, a known value, through EntryArgsTo and Exit.
func BenchmarkParamEntryString(b *testing.B) {
	res := NewResource("bench-param-string")
	if err := LoadRules(Rules{ParamFlow: []ParamFlowRule{{Resource: res.Name(), Grade: FlowGradeQPS, Count: 1e15}}}); err != nil {
		b.Fatal(err)
	}
	defer LoadRules(Rules{})
	ctx := context.Background()
	sku := "sku-12345"
	b.ReportAllocs()
	for b.Loop() {
		var e Entry
		args := [1]ParamArg{StringArg(sku)}
		if res.EntryArgsTo(&e, ctx, args[:]) != nil {
			b.Fatal("blocked")
		}
		e.Exit()
	}
}

// BenchmarkParamEntryNoParamRule is the same call on a resource without a
// param rule, for the cost the rule adds.
func BenchmarkParamEntryNoParamRule(b *testing.B) {
	res := NewResource("bench-param-none")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		var e Entry
		if res.HasParamRules() {
			b.Fatal("param rule")
		}
		if res.EntryTo(&e, ctx) != nil {
			b.Fatal("blocked")
		}
		e.Exit()
	}
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
