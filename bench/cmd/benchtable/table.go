package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// writeTables prints one markdown table per benchmark group and then the
// goal checks. Groups that contain the baseline get a ratio column: each
// case's median ns/op divided by the baseline's, so "30.0×" reads as "takes
// thirty times as long as sentinelgen".
func writeTables(w io.Writer, run *benchRun, stats map[string]stat, verdicts []verdict) error {
	var b strings.Builder
	if run.cpu != "" {
		fmt.Fprintf(&b, "CPU (from go test): %s\n\n", run.cpu)
	}
	fmt.Fprintf(&b, "Medians of %s per benchmark.\n", runsLabel(run, stats))
	for _, g := range groupNames(run.names) {
		writeGroup(&b, g, stats)
	}
	writeParallelRatios(&b, run.names, stats)
	if len(verdicts) > 0 {
		b.WriteString("\n### Goals\n\n| goal | measured | status |\n|---|---:|---|\n")
		for _, v := range verdicts {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", v.goal, v.measured, v.status)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeGroup(b *strings.Builder, g group, stats map[string]stat) {
	base, hasBase := stats[g.name+"/"+baseline]
	withRatio := hasBase && base.nsPerOp > 0
	fmt.Fprintf(b, "\n### %s\n\n| case | ns/op | B/op | allocs/op |", g.name)
	if withRatio {
		b.WriteString(" time vs " + baseline + " |")
	}
	b.WriteString("\n|---|---:|---:|---:|")
	if withRatio {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, c := range g.cases {
		name := c
		if c != g.name {
			name = g.name + "/" + c
		}
		s := stats[name]
		bytes, allocs := "–", "–"
		if s.hasMem {
			bytes, allocs = formatCount(s.bytesPerOp), formatCount(s.allocsPerOp)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s |", c, formatNs(s.nsPerOp), bytes, allocs)
		if withRatio {
			fmt.Fprintf(b, " %.1f× |", s.nsPerOp/base.nsPerOp)
		}
		b.WriteString("\n")
	}
}

// runsLabel says how many samples the medians come from, as a range when
// benchmarks differ (a benchmark that failed part-way has fewer).
func runsLabel(run *benchRun, stats map[string]stat) string {
	lo, hi := 0, 0
	for i, name := range run.names {
		n := stats[name].runs
		if i == 0 || n < lo {
			lo = n
		}
		if n > hi {
			hi = n
		}
	}
	if lo == hi {
		return plural(lo, "run")
	}
	return fmt.Sprintf("%d–%d runs", lo, hi)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// formatNs keeps about three significant digits: 7.52, 41.3, 1402.
func formatNs(ns float64) string {
	switch {
	case ns < 10:
		return strconv.FormatFloat(ns, 'f', 2, 64)
	case ns < 100:
		return strconv.FormatFloat(ns, 'f', 1, 64)
	}
	return strconv.FormatFloat(ns, 'f', 0, 64)
}

// formatCount prints whole numbers without a fraction; medians of an even
// number of samples can end in .5.
func formatCount(v float64) string {
	if v == float64(int64(v)) {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
