package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestGoalChecks(t *testing.T) {
	stats := map[string]stat{
		"Pass/sentinelgen":         {nsPerOp: 40, hasMem: true},
		"Pass/sentinel-golang":     {nsPerOp: 1400, hasMem: true, allocsPerOp: 10},
		"Pass/gobreaker+rate":      {nsPerOp: 120, hasMem: true},
		"Block/sentinelgen":        {nsPerOp: 25, hasMem: true, allocsPerOp: 1},
		"PassParallel/sentinelgen": {nsPerOp: 22, hasMem: true},
		"Floor/monotonic":          {nsPerOp: 37.5},
		"RotatePass":               {nsPerOp: 60, metrics: map[string]float64{"sentinelgen-x-floor-min": 1.35}},
	}
	tests := []struct {
		goal     goal
		status   goalStatus
		measured string
	}{
		{atMostNs("pass", "Pass/sentinelgen", 50), goalMet, "40.0 ns/op"},
		{atMostNs("pass", "Pass/sentinelgen", 39.9), goalMissed, "40.0 ns/op"},
		{atMostNs("block", "Block/absent", 20), goalNotMeasured, "Block/absent missing"},
		{noAllocs("pass allocs", "Pass/sentinelgen"), goalMet, "0 allocs/op"},
		{noAllocs("block allocs", "Block/sentinelgen"), goalMissed, "1 allocs/op"},
		{fasterBy("vs sg", "Pass/sentinelgen", "Pass/sentinel-golang", 25), goalMet, "35.0×"},
		{fasterBy("vs gb", "Pass/sentinelgen", "Pass/gobreaker+rate", 4), goalMissed, "3.0×"},
		{fasterBy("vs fs", "Pass/sentinelgen", "Pass/failsafe-go", 4), goalNotMeasured, "Pass/failsafe-go missing"},
		{noSlowerThan("par", "PassParallel/sentinelgen", "Pass/sentinelgen"), goalMet, "22.0 vs 40.0 ns/op"},
		{noSlowerThan("par", "Pass/sentinelgen", "PassParallel/sentinelgen"), goalMissed, "40.0 vs 22.0 ns/op"},
		{atMostMetric("floor", "RotatePass", "sentinelgen-x-floor-min", 1.4), goalMet, "1.35×"},
		{atMostMetric("floor", "RotatePass", "sentinelgen-x-floor-min", 1.3), goalMissed, "1.35×"},
		{atMostMetric("floor", "RotatePass", "absent-x-floor-min", 1.4), goalNotMeasured, "RotatePass absent-x-floor-min missing"},
	}
	for _, tt := range tests {
		v := tt.goal.check(stats)
		if v.status != tt.status || v.measured != tt.measured {
			t.Errorf("%s: got %v %q, want %v %q", tt.goal.description, v.status, v.measured, tt.status, tt.measured)
		}
	}
}

// sampleOutput is shaped like a real run: two samples per benchmark, the
// GOMAXPROCS suffix, interleaved non-result lines.
const sampleOutput = `goos: linux
goarch: amd64
pkg: github.com/sentinelgen/sentinelgen/bench
cpu: Test CPU @ 2.00GHz
BenchmarkPass
BenchmarkPass/sentinelgen-2          	30000000	        40.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPass/sentinel-golang-2      	  800000	      1400 ns/op	     352 B/op	      10 allocs/op
BenchmarkPass/gobreaker+rate-2       	 5000000	       200.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkPass/sentinelgen-2          	30000000	        40.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPass/sentinel-golang-2      	  800000	      1400 ns/op	     352 B/op	      10 allocs/op
BenchmarkPass/gobreaker+rate-2       	 5000000	       200.0 ns/op	       0 B/op	       0 allocs/op
BenchmarkBlock/sentinelgen-2         	90000000	        12.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkBlock/sentinelgen-2         	90000000	        14.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkPassParallel/sentinelgen-2  	60000000	        21.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkBlockParallel/sentinelgen-2 	90000000	        15.00 ns/op	       0 B/op	       0 allocs/op
BenchmarkFloor/atomic-add-2          	600000000	         2.000 ns/op
PASS
ok  	github.com/sentinelgen/sentinelgen/bench	20.1s
`

func TestRunWritesTablesAndGoals(t *testing.T) {
	var out bytes.Buffer
	if err := run(strings.NewReader(sampleOutput), &out, false); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"CPU (from go test): Test CPU @ 2.00GHz",
		"Medians of 1–2 runs per benchmark.",
		"### Pass\n\n| case | ns/op | B/op | allocs/op | time vs sentinelgen |",
		"| sentinelgen | 40.0 | 0 | 0 | 1.0× |",
		"| sentinel-golang | 1400 | 352 | 10 | 35.0× |",
		"| gobreaker+rate | 200 | 0 | 0 | 5.0× |",
		"| sentinelgen | 13.0 | 0 | 0 | 1.0× |", // median of 12 and 14
		"### Floor\n\n| case | ns/op | B/op | allocs/op |\n",
		"| atomic-add | 2.00 | – | – |",
		"| block path ≤ 20 ns/op | 13.0 ns/op | met |",
		"| parallel block ≤ single-goroutine block (ns/op) | 15.0 vs 13.0 ns/op | MISSED |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q\n--- output ---\n%s", want, text)
		}
	}
}

func TestRunStrictFailsOnMissedGoal(t *testing.T) {
	var out bytes.Buffer
	err := run(strings.NewReader(sampleOutput), &out, true)
	if !errors.Is(err, errGoalsNotMet) {
		t.Fatalf("strict run error = %v, want %v", err, errGoalsNotMet)
	}
	if !strings.Contains(out.String(), "### Goals") {
		t.Error("strict mode must still print the table before failing")
	}
}

func TestRunRejectsInputWithoutResults(t *testing.T) {
	if err := run(strings.NewReader("PASS\nok\n"), &bytes.Buffer{}, false); err == nil {
		t.Fatal("want an error for input with no benchmark lines")
	}
}
