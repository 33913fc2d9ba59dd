package main

import (
	"fmt"
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
	// The pass path as generated wrappers enter it: EntryTo into an Entry
	// marked InPlace.
	atMostMetric("pass path ≤ 1.4× the no-API floor (rotating harness, best slices, EntryTo in place)", "RotatePass", baseline+"-inplace-x-floor-min", 1.4),
}

func notMeasured(description string, missing string) verdict {
	return verdict{goal: description, measured: missing + " missing", status: goalNotMeasured}
}

func statusOf(ok bool) goalStatus {
	if ok {
		return goalMet
	}
	return goalMissed
}

// atMostNs: the named benchmark's median ns/op is at most limit.
func atMostNs(description, name string, limit float64) goal {
	return goal{description, func(stats map[string]stat) verdict {
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
	return goal{description, func(stats map[string]stat) verdict {
		v, ok := stats[name].metrics[unit]
		if !ok {
			return notMeasured(description, name+" "+unit)
		}
		return verdict{description, strconv.FormatFloat(v, 'f', 2, 64) + "×", statusOf(v <= limit)}
	}}
}

// noAllocs: the named benchmark's median allocs/op is zero.
func noAllocs(description, name string) goal {
	return goal{description, func(stats map[string]stat) verdict {
		s, ok := stats[name]
		if !ok || !s.hasMem {
			return notMeasured(description, name+" allocs/op")
		}
		return verdict{description, formatCount(s.allocsPerOp) + " allocs/op", statusOf(s.allocsPerOp == 0)}
	}}
}

// fasterBy: peer's median ns/op is at least factor times ours.
func fasterBy(description, ours, peer string, factor float64) goal {
	return goal{description, func(stats map[string]stat) verdict {
		o, ok := stats[ours]
		if !ok {
			return notMeasured(description, ours)
		}
		p, ok := stats[peer]
		if !ok {
			return notMeasured(description, peer)
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
	return goal{description, func(stats map[string]stat) verdict {
		sa, ok := stats[a]
		if !ok {
			return notMeasured(description, a)
		}
		sb, ok := stats[b]
		if !ok {
			return notMeasured(description, b)
		}
		measured := formatNs(sa.nsPerOp) + " vs " + formatNs(sb.nsPerOp) + " ns/op"
		return verdict{description, measured, statusOf(sa.nsPerOp <= sb.nsPerOp)}
	}}
}

// checkGoals evaluates every goal in order.
func checkGoals(goals []goal, stats map[string]stat) []verdict {
	out := make([]verdict, 0, len(goals))
	for _, g := range goals {
		out = append(out, g.check(stats))
	}
	return out
}
