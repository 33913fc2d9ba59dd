package main

import (
	"fmt"
	"slices"
	"strconv"
)

// baseline is the case every ratio is taken against.
const baseline = "sentinelgen"

// verdict is the result of checking one goal against a run.
type verdict struct {
	goal     string
	measured string
	status   goalStatus
}

type goalStatus uint8

const (
	goalMet goalStatus = iota + 1
	goalMissed
	goalNotMeasured // a benchmark the goal needs is absent from the run
)

// String is the word shown in the table's status column.
func (s goalStatus) String() string {
	switch s {
	case goalMet:
		return "met"
	case goalMissed:
		return "MISSED"
	case goalNotMeasured:
		return "not measured"
	}
	return "unknown"
}

// goal is one of the issue's speed targets, stated over benchmark names.
type goal struct {
	description string
	check       func(stats map[string]stat) verdict
	// onlyWith, when set, names a benchmark whose absence leaves the goal
	// out of the table instead of reporting it as not measured: the goal
	// belongs to an optional comparison (Java's JMH run).
	onlyWith string
}

// issueGoals are the targets from the runtime issue, as ratios and bounds on
// the medians of one run.
var issueGoals = []goal{
	atMostNs("pass path ≤ 50 ns/op", "Pass/"+baseline, 50),
	noAllocs("pass path 0 allocs/op", "Pass/"+baseline),
	fasterBy("pass path ≥ 25× faster than sentinel-golang", "Pass/"+baseline, "Pass/sentinel-golang", 25),
	fasterBy("pass path ≥ 4× faster than gobreaker+rate", "Pass/"+baseline, "Pass/gobreaker+rate", 4),
	atMostNs("block path ≤ 20 ns/op", "Block/"+baseline, 20),
	noAllocs("block path 0 allocs/op", "Block/"+baseline),
	noSlowerThan("parallel pass ≤ single-goroutine pass (ns/op)", "PassParallel/"+baseline, "Pass/"+baseline),
	noSlowerThan("parallel block ≤ single-goroutine block (ns/op)", "BlockParallel/"+baseline, "Block/"+baseline),
	noSlowerEachRound("parallel pass per-op no worse than serial, in every round", "PassParallel/"+baseline, "Pass/"+baseline),
	noSlowerEachRound("parallel block per-op no worse than serial, in every round", "BlockParallel/"+baseline, "Block/"+baseline),
	atMostTimes("block path ≤ 0.6× pass path (same run)", "Block/"+baseline, "Pass/"+baseline, 0.6),
	fasterBy("pass path ≥ 50× faster than sentinel-golang", "Pass/"+baseline, "Pass/sentinel-golang", 50),
	onlyWith(javaPass, fasterBy("pass path ≥ 25× faster than Java Sentinel (JMH)", "Pass/"+baseline, javaPass, 25)),
	// The pass path as generated wrappers enter it: EntryTo into an Entry
	// marked InPlace.
	atMostMetric("pass path ≤ 1.4× the no-API floor (rotating harness, best slices, EntryTo in place)", "RotatePass", baseline+"-inplace-x-floor-min", 1.4),
}

// javaPass is the pass figure java-jmh/run.sh reports.
const javaPass = "Pass/java-sentinel"

// onlyWith keeps g out of the table when the run lacks the benchmark name.
func onlyWith(name string, g goal) goal {
	g.onlyWith = name
	return g
}

func notMeasured(description string, missing string) verdict {
	return verdict{goal: description, measured: missing + " missing", status: goalNotMeasured}
}

// pair returns the stats of benchmarks a and b, or the name of the first
// one the run lacks.
func pair(stats map[string]stat, a, b string) (sa, sb stat, missing string) {
	sa, ok := stats[a]
	if !ok {
		return sa, sb, a
	}
	sb, ok = stats[b]
	if !ok {
		return sa, sb, b
	}
	return sa, sb, ""
}

func statusOf(ok bool) goalStatus {
	if ok {
		return goalMet
	}
	return goalMissed
}

// atMostNs: the named benchmark's median ns/op is at most limit.
func atMostNs(description, name string, limit float64) goal {
	return goal{description: description, check: func(stats map[string]stat) verdict {
		s, ok := stats[name]
		if !ok {
			return notMeasured(description, name)
		}
		return verdict{description, formatNs(s.nsPerOp) + " ns/op", statusOf(s.nsPerOp <= limit)}
	}}
}

// atMostMetric: the named benchmark's median of a custom metric (unit) is
// at most limit.
func atMostMetric(description, name, unit string, limit float64) goal {
	return goal{description: description, check: func(stats map[string]stat) verdict {
		v, ok := stats[name].metrics[unit]
		if !ok {
			return notMeasured(description, name+" "+unit)
		}
		return verdict{description, strconv.FormatFloat(v, 'f', 2, 64) + "×", statusOf(v <= limit)}
	}}
}

// noAllocs: the named benchmark's median allocs/op is zero.
func noAllocs(description, name string) goal {
	return goal{description: description, check: func(stats map[string]stat) verdict {
		s, ok := stats[name]
		if !ok || !s.hasMem {
			return notMeasured(description, name+" allocs/op")
		}
		return verdict{description, formatCount(s.allocsPerOp) + " allocs/op", statusOf(s.allocsPerOp == 0)}
	}}
}

// fasterBy: peer's median ns/op is at least factor times ours.
func fasterBy(description, ours, peer string, factor float64) goal {
	return goal{description: description, check: func(stats map[string]stat) verdict {
		o, p, missing := pair(stats, ours, peer)
		if missing != "" {
			return notMeasured(description, missing)
		}
		if o.nsPerOp <= 0 {
			return verdict{description, "0 ns/op baseline", goalNotMeasured}
		}
		ratio := p.nsPerOp / o.nsPerOp
		return verdict{description, fmt.Sprintf("%.1f×", ratio), statusOf(ratio >= factor)}
	}}
}

// noSlowerThan: benchmark a's median ns/op is at most b's.
func noSlowerThan(description, a, b string) goal {
	return goal{description: description, check: func(stats map[string]stat) verdict {
		sa, sb, missing := pair(stats, a, b)
		if missing != "" {
			return notMeasured(description, missing)
		}
		measured := formatNs(sa.nsPerOp) + " vs " + formatNs(sb.nsPerOp) + " ns/op"
		return verdict{description, measured, statusOf(sa.nsPerOp <= sb.nsPerOp)}
	}}
}

// atMostTimes: benchmark a's median ns/op is at most factor times b's.
func atMostTimes(description, a, b string, factor float64) goal {
	return goal{description: description, check: func(stats map[string]stat) verdict {
		sa, sb, missing := pair(stats, a, b)
		if missing != "" {
			return notMeasured(description, missing)
		}
		if sb.nsPerOp <= 0 {
			return verdict{description, "0 ns/op " + b, goalNotMeasured}
		}
		ratio := sa.nsPerOp / sb.nsPerOp
		measured := fmt.Sprintf("%.2f× (%s vs %s ns/op)", ratio, formatNs(sa.nsPerOp), formatNs(sb.nsPerOp))
		return verdict{description, measured, statusOf(ratio <= factor)}
	}}
}

// noSlowerEachRound: in every round (the i-th sample of both benchmarks),
// a's ns/op is at most b's. The rounds are paired by position, which is what
// BENCH_ROUNDS produces; with -count N the i-th samples are the i-th
// repetitions, taken minutes apart.
func noSlowerEachRound(description, a, b string) goal {
	return goal{description: description, check: func(stats map[string]stat) verdict {
		sa, sb, missing := pair(stats, a, b)
		if missing != "" {
			return notMeasured(description, missing)
		}
		ratios := roundRatios(sa.rounds, sb.rounds)
		if len(ratios) == 0 {
			return verdict{description, "no paired rounds", goalNotMeasured}
		}
		met := 0
		for _, r := range ratios {
			if r <= 1 {
				met++
			}
		}
		measured := fmt.Sprintf("worst %.2f× (%d of %d rounds ≤ 1×)", slices.Max(ratios), met, len(ratios))
		return verdict{description, measured, statusOf(met == len(ratios))}
	}}
}

// roundRatios divides a's samples by b's, position by position, over the
// rounds both have; a round with a zero divisor is left out.
func roundRatios(a, b []float64) []float64 {
	n := min(len(a), len(b))
	out := make([]float64, 0, n)
	for i := range n {
		if b[i] > 0 {
			out = append(out, a[i]/b[i])
		}
	}
	return out
}

// checkGoals evaluates every goal in order, leaving out the goals of an
// optional comparison the run does not contain.
func checkGoals(goals []goal, stats map[string]stat) []verdict {
	out := make([]verdict, 0, len(goals))
	for _, g := range goals {
		if g.onlyWith != "" {
			if _, ok := stats[g.onlyWith]; !ok {
				continue
			}
		}
		out = append(out, g.check(stats))
	}
	return out
}
