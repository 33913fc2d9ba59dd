package main

import (
	"slices"
	"strings"
)

// stat is the median of one benchmark's samples.
type stat struct {
	nsPerOp     float64
	bytesPerOp  float64
	allocsPerOp float64
	hasMem      bool
	runs        int
	// rounds is every sample's ns/op in input order: with BENCH_ROUNDS one
	// per round, so the i-th values of two benchmarks were measured under
	// the same load.
	rounds []float64
	// metrics is the median of each custom unit over the samples that
	// report it.
	metrics map[string]float64
}

// summarize reduces every benchmark to the median of its samples. The median
// rather than the mean, because on a shared 2-core machine a single run can
// be slowed by a neighbour and the mean would carry that into the table.
func summarize(run *benchRun) map[string]stat {
	out := make(map[string]stat, len(run.names))
	for _, name := range run.names {
		samples := run.samples[name]
		s := stat{runs: len(samples), hasMem: true}
		var ns, bytes, allocs []float64
		for _, m := range samples {
			ns = append(ns, m.nsPerOp)
			bytes = append(bytes, m.bytesPerOp)
			allocs = append(allocs, m.allocsPerOp)
			s.hasMem = s.hasMem && m.hasMem
		}
		s.nsPerOp, s.bytesPerOp, s.allocsPerOp = median(ns), median(bytes), median(allocs)
		s.rounds = ns
		byUnit := map[string][]float64{}
		for _, m := range samples {
			for unit, v := range m.metrics {
				byUnit[unit] = append(byUnit[unit], v)
			}
		}
		for unit, vs := range byUnit {
			if s.metrics == nil {
				s.metrics = map[string]float64{}
			}
			s.metrics[unit] = median(vs)
		}
		out[name] = s
	}
	return out
}

// median of a non-empty slice; with an even count, the mean of the two
// middle values. The input is not modified.
func median(values []float64) float64 {
	if len(values) == 0 {
		return 0
	}
	sorted := slices.Clone(values)
	slices.Sort(sorted)
	mid := len(sorted) / 2
	if len(sorted)%2 == 1 {
		return sorted[mid]
	}
	return (sorted[mid-1] + sorted[mid]) / 2
}

// group is one table: the benchmarks sharing a top-level name, such as Pass.
type group struct {
	name  string   // "Pass"
	cases []string // "sentinelgen", "sentinel-golang", ... in output order
}

// groupNames splits "Pass/sentinelgen" style names into groups in order of
// first appearance. A name without a slash forms a group with one case of
// the same name.
func groupNames(names []string) []group {
	var groups []group
	index := map[string]int{}
	for _, full := range names {
		top, sub, found := strings.Cut(full, "/")
		if !found {
			sub = top
		}
		i, ok := index[top]
		if !ok {
			i = len(groups)
			index[top] = i
			groups = append(groups, group{name: top})
		}
		groups[i].cases = append(groups[i].cases, sub)
	}
	return groups
}
