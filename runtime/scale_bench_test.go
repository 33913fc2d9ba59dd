package runtime

import (
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"
)

// Scale benchmarks: what resources and rules cost in memory, and what rule
// loads cost in time, at sizes where costs that grow with resources, rules or
// cores show. Memory benchmarks run at GOMAXPROCS 1, 2 and 16
// (sub-benchmarks procs=1, procs=2 and procs=16), because per-processor
// structures are what grows with cores. Run them with -benchtime=1x (each iteration builds 100k
// resources):
//
//	go test ./runtime -run '^$' -bench 'Scale' -benchtime=1x -count 3

// scaleN is how many resources and rules the scale benchmarks build.
const scaleN = 100_000

// scaleProcs are the GOMAXPROCS settings the memory benchmarks report.
var scaleProcs = []int{1, 2, 16}

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	goruntime.GC()
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}

// forgetResources drops the named resources from the registry, so that a
// benchmark's resources do not outlive it (the registry has no public
// removal: handles are meant to live as long as the process).
func forgetResources(names []string) {
	registry.Lock()
	for _, n := range names {
		registry.byName.remove(n, hashName(n))
	}
	registry.Unlock()
}

// scaleNames returns n resource names unique to this run.
func scaleNames(prefix string, n int) []string {
	base := prefix + strconv.FormatInt(resourceSeq.Add(1), 10) + "/"
	names := make([]string, n)
	for i := range names {
		names[i] = base + strconv.Itoa(i)
	}
	return names
}

func scaleFlowRules(names []string) []FlowRule {
	rules := make([]FlowRule, len(names))
	for i, n := range names {
		rules[i] = FlowRule{Resource: n, Grade: FlowGradeQPS, Count: float64(100 + i%1000)}
	}
	return rules
}

func scaleDegradeRules(names []string) []DegradeRule {
	rules := make([]DegradeRule, len(names))
	for i, n := range names {
		rules[i] = DegradeRule{Resource: n, Grade: DegradeSlowRatio, Count: 100, SlowRatioThreshold: 0.5, TimeWindowSec: 10}
	}
	return rules
}

// withProcs runs fn as sub-benchmarks at each of scaleProcs.
func withProcs(b *testing.B, fn func(b *testing.B)) {
	for _, p := range scaleProcs {
		b.Run("procs="+strconv.Itoa(p), func(b *testing.B) {
			defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(p))
			fn(b)
		})
	}
}

// BenchmarkScaleIdleResource reports the heap one declared resource takes
// while no rule names it and no call has run (B/resource).
func BenchmarkScaleIdleResource(b *testing.B) {
	withProcs(b, func(b *testing.B) {
		var per float64
		for b.Loop() {
			names := scaleNames("idle", scaleN)
			before := heapInUse()
			for _, n := range names {
				NewResource(n)
			}
			per = float64(heapInUse()-before) / scaleN
			forgetResources(names)
		}
		b.ReportMetric(per, "B/resource")
	})
}

// BenchmarkScaleBreaker reports the heap one slow-ratio breaker takes on an
// existing resource (B/breaker).
func BenchmarkScaleBreaker(b *testing.B) {
	withProcs(b, func(b *testing.B) {
		var per float64
		for b.Loop() {
			names := scaleNames("breaker", scaleN)
			for _, n := range names {
				NewResource(n)
			}
			rules := scaleDegradeRules(names)
			before := heapInUse()
			if err := LoadDegradeRules(rules); err != nil {
				b.Fatal(err)
			}
			per = float64(heapInUse()-before) / scaleN
			mustClear(b)
			forgetResources(names)
		}
		b.ReportMetric(per, "B/breaker")
	})
}

// BenchmarkScaleResourcesWithRules reports the heap of 100k resources with
// one QPS flow rule and one slow-ratio breaker each (MiB in total), rules
// and registry included.
func BenchmarkScaleResourcesWithRules(b *testing.B) {
	withProcs(b, func(b *testing.B) {
		var mib float64
		for b.Loop() {
			names := scaleNames("ruled", scaleN)
			flow, degrade := scaleFlowRules(names), scaleDegradeRules(names)
			before := heapInUse()
			for _, n := range names {
				NewResource(n)
			}
			if err := LoadRules(Rules{Flow: flow, Degrade: degrade}); err != nil {
				b.Fatal(err)
			}
			mib = float64(heapInUse()-before) / (1 << 20)
			mustClear(b)
			forgetResources(names)
		}
		b.ReportMetric(mib, "MiB")
	})
}

func mustClear(b *testing.B) {
	b.Helper()
	if err := LoadRules(Rules{}); err != nil {
		b.Fatal(err)
	}
}

// cpuMeter sums the process's CPU time over the timed parts of a
// benchmark and reports it as cpu-ms/op. On a machine shared with other
// jobs, wall time (ns/op) moves with their load by a factor of two or
// more; the CPU time a load takes, its garbage collection included, moves
// far less, so it is what A/B comparisons of loads read.
type cpuMeter struct{ start, total int64 }

func (m *cpuMeter) begin() { m.start = processCPU() }
func (m *cpuMeter) end()   { m.total += processCPU() - m.start }

func (m *cpuMeter) report(b *testing.B) {
	b.ReportMetric(float64(m.total)/1e6/float64(b.N), "cpu-ms/op")
}

// benchFirstLoad times load, the first load of 100k rules naming fresh
// resources, which declare makes first when set (as generated code declares
// them when its package initialises: the load then creates no resource and
// no statistics). ns/op is one load.
func benchFirstLoad(b *testing.B, prefix string, declare bool, load func(names []string) func() error) {
	var cpu cpuMeter
	for b.Loop() {
		b.StopTimer()
		names := scaleNames(prefix, scaleN)
		if declare {
			for _, n := range names {
				NewResource(n)
			}
		}
		run := load(names)
		goruntime.GC() // the last iteration's garbage is not this load's cost
		b.StartTimer()
		cpu.begin()
		if err := run(); err != nil {
			b.Fatal(err)
		}
		cpu.end()
		b.StopTimer()
		mustClear(b)
		forgetResources(names)
		b.StartTimer()
	}
	cpu.report(b)
}

// loadFlow and loadDegrade build the rules of benchFirstLoad, untimed, and
// return their load.
func loadFlow(names []string) func() error {
	rules := scaleFlowRules(names)
	return func() error { return LoadFlowRules(rules) }
}

func loadDegrade(names []string) func() error {
	rules := scaleDegradeRules(names)
	return func() error { return LoadDegradeRules(rules) }
}

// BenchmarkScaleLoadFlow is the first load of 100k flow rules, each naming
// a resource not declared yet.
func BenchmarkScaleLoadFlow(b *testing.B) { benchFirstLoad(b, "loadflow", false, loadFlow) }

// BenchmarkScaleLoadFlowDeclared is BenchmarkScaleLoadFlow on resources
// declared before the load.
func BenchmarkScaleLoadFlowDeclared(b *testing.B) { benchFirstLoad(b, "loadflowdecl", true, loadFlow) }

// BenchmarkScaleLoadDegrade is the first load of 100k degrade rules on
// declared resources.
func BenchmarkScaleLoadDegrade(b *testing.B) { benchFirstLoad(b, "loaddegrade", true, loadDegrade) }

// loadScaleSet loads 100k flow rules and 100k breakers on resources named
// with prefix, the set the change-one benchmarks edit, and clears them
// when the benchmark ends.
func loadScaleSet(b *testing.B, prefix string) (names []string, flow []FlowRule, degrade []DegradeRule) {
	names = scaleNames(prefix, scaleN)
	flow, degrade = scaleFlowRules(names), scaleDegradeRules(names)
	if err := LoadRules(Rules{Flow: flow, Degrade: degrade}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { mustClear(b); forgetResources(names) })
	return names, flow, degrade
}

// BenchmarkScaleChangeOneFlowRule reloads 100k flow rules (with 100k
// breakers in force) in which one rule's Count changed: the edit a rule
// file watcher turns into a full load.
func BenchmarkScaleChangeOneFlowRule(b *testing.B) {
	_, flow, _ := loadScaleSet(b, "changeflow")
	i := 0
	var cpu cpuMeter
	cpu.begin()
	for b.Loop() {
		flow[scaleN/2].Count = float64(i%2 + 1)
		i++
		if err := LoadFlowRules(flow); err != nil {
			b.Fatal(err)
		}
	}
	cpu.end()
	cpu.report(b)
}

// BenchmarkScaleChangeOneFlowRuleParsed is BenchmarkScaleChangeOneFlowRule
// with every load given a new slice whose names are new strings, as a rule
// file parsed again delivers them: comparing two rules then reads both
// names' bytes instead of finding them identical by pointer.
func BenchmarkScaleChangeOneFlowRuleParsed(b *testing.B) {
	names, _, _ := loadScaleSet(b, "changeparsed")
	i := 0
	var cpu cpuMeter
	for b.Loop() {
		b.StopTimer()
		parsed := scaleFlowRules(names)
		for k := range parsed {
			parsed[k].Resource = strings.Clone(names[k])
		}
		parsed[scaleN/2].Count = float64(i%2 + 1)
		i++
		b.StartTimer()
		cpu.begin()
		if err := LoadFlowRules(parsed); err != nil {
			b.Fatal(err)
		}
		cpu.end()
	}
	cpu.report(b)
}

// BenchmarkScaleChangeOneRuleLoadRules is BenchmarkScaleChangeOneFlowRule
// through LoadRules with both kinds, as rules.Apply and the data sources
// load: every kind's list is compared, and one flow rule differs.
func BenchmarkScaleChangeOneRuleLoadRules(b *testing.B) {
	_, flow, degrade := loadScaleSet(b, "changeall")
	i := 0
	var cpu cpuMeter
	cpu.begin()
	for b.Loop() {
		flow[scaleN/2].Count = float64(i%2 + 1)
		i++
		if err := LoadRules(Rules{Flow: flow, Degrade: degrade}); err != nil {
			b.Fatal(err)
		}
	}
	cpu.end()
	cpu.report(b)
}

// BenchmarkScaleChangeOneDegradeRule is BenchmarkScaleChangeOneFlowRule for
// a breaker's rule.
func BenchmarkScaleChangeOneDegradeRule(b *testing.B) {
	_, _, degrade := loadScaleSet(b, "changedegrade")
	i := 0
	var cpu cpuMeter
	cpu.begin()
	for b.Loop() {
		degrade[scaleN/2].TimeWindowSec = i%2 + 5
		i++
		if err := LoadDegradeRules(degrade); err != nil {
			b.Fatal(err)
		}
	}
	cpu.end()
	cpu.report(b)
}
