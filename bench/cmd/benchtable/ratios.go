package main

import (
	"fmt"
	"slices"
	"strings"
)

// parallelPairs are the parallel groups and the serial group each is read
// against in the parallel-versus-serial table.
var parallelPairs = []struct{ parallel, serial string }{
	{"PassParallel", "Pass"},
	{"BlockParallel", "Block"},
}

// writeParallelRatios prints, per library, each parallel benchmark's median
// ns/op divided by its serial counterpart's, and the range of that ratio over
// the rounds (samples paired by position). Above 1× a call costs more wall
// time when every core makes calls than when one does. Nothing is written
// when the run has no parallel and serial pair.
func writeParallelRatios(b *strings.Builder, names []string, stats map[string]stat) {
	var cases []string
	for _, g := range groupNames(names) {
		if g.name == parallelPairs[0].parallel || g.name == parallelPairs[1].parallel {
			for _, c := range g.cases {
				if !slices.Contains(cases, c) {
					cases = append(cases, c)
				}
			}
		}
	}
	var rows []string
	for _, c := range cases {
		row := "| " + c + " |"
		any := false
		for _, p := range parallelPairs {
			par, okPar := stats[p.parallel+"/"+c]
			ser, okSer := stats[p.serial+"/"+c]
			if !okPar || !okSer || ser.nsPerOp <= 0 {
				row += " – | – |"
				continue
			}
			any = true
			row += fmt.Sprintf(" %.2f× | %s |", par.nsPerOp/ser.nsPerOp, ratioRange(roundRatios(par.rounds, ser.rounds)))
		}
		if any {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("\n### Parallel vs serial\n\n")
	b.WriteString("Median parallel ns/op ÷ median serial ns/op of the same library in this run, and its range over the rounds.\n\n")
	b.WriteString("| case | PassParallel ÷ Pass | over rounds | BlockParallel ÷ Block | over rounds |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		b.WriteString(r + "\n")
	}
}

// ratioRange prints the smallest and largest ratio, or the one value.
func ratioRange(ratios []float64) string {
	if len(ratios) == 0 {
		return "–"
	}
	lo, hi := slices.Min(ratios), slices.Max(ratios)
	if len(ratios) == 1 {
		return fmt.Sprintf("%.2f×", lo)
	}
	return fmt.Sprintf("%.2f–%.2f×", lo, hi)
}
