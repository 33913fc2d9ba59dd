package main

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestRoundGoals(t *testing.T) {
	stats := map[string]stat{
		"Pass/sentinelgen":          {nsPerOp: 40, rounds: []float64{40, 30, 50}},
		"PassParallel/sentinelgen":  {nsPerOp: 35, rounds: []float64{35, 33, 20}}, // round 2 is 1.1×
		"Block/sentinelgen":         {nsPerOp: 20, rounds: []float64{20, 22}},
		"BlockParallel/sentinelgen": {nsPerOp: 10, rounds: []float64{10, 11, 12}}, // a third sample has no pair
		"Pass/sentinel-golang":      {nsPerOp: 2000},
		"Pass/java-sentinel":        {nsPerOp: 900},
	}
	tests := []struct {
		goal     goal
		status   goalStatus
		measured string
	}{
		{noSlowerEachRound("pass rounds", "PassParallel/sentinelgen", "Pass/sentinelgen"), goalMissed, "worst 1.10× (2 of 3 rounds ≤ 1×)"},
		{noSlowerEachRound("block rounds", "BlockParallel/sentinelgen", "Block/sentinelgen"), goalMet, "worst 0.50× (2 of 2 rounds ≤ 1×)"},
		{noSlowerEachRound("absent", "PassParallel/absent", "Pass/sentinelgen"), goalNotMeasured, "PassParallel/absent missing"},
		{noSlowerEachRound("no rounds", "Pass/sentinel-golang", "Pass/sentinelgen"), goalNotMeasured, "no paired rounds"},
		{atMostTimes("block vs pass", "Block/sentinelgen", "Pass/sentinelgen", 0.6), goalMet, "0.50× (20.0 vs 40.0 ns/op)"},
		{atMostTimes("block vs pass", "Block/sentinelgen", "Pass/sentinelgen", 0.4), goalMissed, "0.50× (20.0 vs 40.0 ns/op)"},
		{atMostTimes("absent", "Block/absent", "Pass/sentinelgen", 0.6), goalNotMeasured, "Block/absent missing"},
		{fasterBy("vs sg 50", "Pass/sentinelgen", "Pass/sentinel-golang", 50), goalMet, "50.0×"},
		{fasterBy("vs java", "Pass/sentinelgen", "Pass/java-sentinel", 25), goalMissed, "22.5×"},
	}
	for _, tt := range tests {
		v := tt.goal.check(stats)
		if v.status != tt.status || v.measured != tt.measured {
			t.Errorf("%s: got %v %q, want %v %q", tt.goal.description, v.status, v.measured, tt.status, tt.measured)
		}
	}
}

func TestJavaGoalOnlyWithJavaFigure(t *testing.T) {
	javaGoal := "pass path ≥ 25× faster than Java Sentinel (JMH)"
	stats := map[string]stat{"Pass/sentinelgen": {nsPerOp: 1}}
	descriptions := func(vs []verdict) []string {
		var out []string
		for _, v := range vs {
			out = append(out, v.goal)
		}
		return out
	}
	if got := descriptions(checkGoals(issueGoals, stats)); slices.Contains(got, javaGoal) {
		t.Errorf("goals without a Java figure include %q", javaGoal)
	}
	stats[javaPass] = stat{nsPerOp: 30}
	for _, v := range checkGoals(issueGoals, stats) {
		if v.goal == javaGoal {
			if v.status != goalMet || v.measured != "30.0×" {
				t.Errorf("Java goal: got %v %q, want met 30.0×", v.status, v.measured)
			}
			return
		}
	}
	t.Errorf("goals with a Java figure lack %q", javaGoal)
}

// roundsOutput is two BENCH_ROUNDS rounds with the Java lines java-jmh/run.sh
// prints appended to each.
const roundsOutput = `BenchmarkPass/sentinelgen-2          	30000000	        40.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPass/sentinel-golang-2      	  800000	      2400 ns/op	     352 B/op	      10 allocs/op
BenchmarkBlock/sentinelgen-2         	90000000	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPassParallel/sentinelgen-2  	60000000	        30.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPassParallel/sentinel-golang-2	  800000	      2400 ns/op	     352 B/op	      10 allocs/op
BenchmarkBlockParallel/sentinelgen-2 	90000000	        10.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPass/java-sentinel	5	1100.00 ns/op
BenchmarkPassParallel/java-sentinel	5	1000.00 ns/op
BenchmarkPass/sentinelgen-2          	30000000	        40.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPass/sentinel-golang-2      	  800000	      2400 ns/op	     352 B/op	      10 allocs/op
BenchmarkBlock/sentinelgen-2         	90000000	        20.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPassParallel/sentinelgen-2  	60000000	        60.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPassParallel/sentinel-golang-2	  800000	      1200 ns/op	     352 B/op	      10 allocs/op
BenchmarkBlockParallel/sentinelgen-2 	90000000	        10.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPass/java-sentinel	5	900.00 ns/op
BenchmarkPassParallel/java-sentinel	5	1000.00 ns/op
`

func TestRunWritesParallelRatiosAndRoundGoals(t *testing.T) {
	var out bytes.Buffer
	if err := run(strings.NewReader(roundsOutput), &out, false); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"### Parallel vs serial\n",
		"| case | PassParallel ÷ Pass | over rounds | BlockParallel ÷ Block | over rounds |",
		"| sentinelgen | 1.12× | 0.75–1.50× | 0.50× | 0.50–0.50× |",
		"| sentinel-golang | 0.75× | 0.50–1.00× | – | – |",
		"| java-sentinel | 1.00× | 0.91–1.11× | – | – |",
		"| parallel pass per-op no worse than serial, in every round | worst 1.50× (1 of 2 rounds ≤ 1×) | MISSED |",
		"| parallel block per-op no worse than serial, in every round | worst 0.50× (2 of 2 rounds ≤ 1×) | met |",
		"| block path ≤ 0.6× pass path (same run) | 0.50× (20.0 vs 40.0 ns/op) | met |",
		"| pass path ≥ 50× faster than sentinel-golang | 60.0× | met |",
		"| pass path ≥ 25× faster than Java Sentinel (JMH) | 25.0× | met |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q\n--- output ---\n%s", want, text)
		}
	}
}
