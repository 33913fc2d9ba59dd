package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseResultLine(t *testing.T) {
	tests := []struct {
		line    string
		name    string
		want    measurement
		ok      bool
		wantErr bool
	}{
		{
			line: "BenchmarkPass/sentinel-golang-2   \t  856203\t      1402 ns/op\t     352 B/op\t      10 allocs/op",
			name: "Pass/sentinel-golang",
			want: measurement{nsPerOp: 1402, bytesPerOp: 352, allocsPerOp: 10, hasMem: true},
			ok:   true,
		},
		{
			// GOMAXPROCS=1: go test prints no suffix, and the hyphen inside
			// the name must survive.
			line: "BenchmarkFloor/time-now \t24000000\t        48.12 ns/op",
			name: "Floor/time-now",
			want: measurement{nsPerOp: 48.12},
			ok:   true,
		},
		{
			line: "BenchmarkPass/gobreaker+rate-16  5000000  211.5 ns/op  12.00 MB/s  0 B/op  0 allocs/op",
			name: "Pass/gobreaker+rate",
			want: measurement{nsPerOp: 211.5, hasMem: true, metrics: map[string]float64{"MB/s": 12}},
			ok:   true,
		},
		{
			// The rotating harness's custom metrics are kept for the goals.
			line: "BenchmarkRotatePass-2  3000  67.16 ns/op  17.43 floor-min-ns  3.21 sentinelgen-x-floor-min",
			name: "RotatePass",
			want: measurement{nsPerOp: 67.16, metrics: map[string]float64{"floor-min-ns": 17.43, "sentinelgen-x-floor-min": 3.21}},
			ok:   true,
		},
		{line: "BenchmarkPass"},                                  // header go test prints before sub-benchmarks
		{line: "BenchmarkPass/sentinelgen-2 some log text here"}, // log output, not a result
		{line: "--- FAIL: BenchmarkPass/failsafe-go"},
		{line: "PASS"},
		{line: "ok  \tgithub.com/sentinelgen/sentinelgen/bench\t81.2s"},
		{line: "goos: linux"},
		{line: "BenchmarkPass/x-2  100  fast ns/op  0 B/op", wantErr: true},
		{line: "BenchmarkPass/x-2  100  0 B/op  0 allocs/op", wantErr: true},
		{line: "BenchmarkPass/x-2  100  12 ns/op  0", wantErr: true},
	}
	for _, tt := range tests {
		name, got, ok, err := parseResultLine(tt.line)
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: error %v, want error %v", tt.line, err, tt.wantErr)
			continue
		}
		if ok != tt.ok || name != tt.name || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q:\n got %q %+v ok=%v\nwant %q %+v ok=%v", tt.line, name, got, ok, tt.name, tt.want, tt.ok)
		}
	}
}

func TestParseBenchOutputKeepsOrderAndEverySample(t *testing.T) {
	input := strings.Join([]string{
		"goos: linux",
		"goarch: amd64",
		"pkg: github.com/sentinelgen/sentinelgen/bench",
		"cpu: AMD EPYC 7B13",
		"BenchmarkPass/sentinelgen-2         30000000    40.0 ns/op   0 B/op   0 allocs/op",
		"BenchmarkPass/sentinel-golang-2       800000  1400 ns/op   352 B/op  10 allocs/op",
		"BenchmarkPass/sentinelgen-2         30000000    44.0 ns/op   0 B/op   0 allocs/op",
		"BenchmarkPass/sentinel-golang-2       800000  1500 ns/op   352 B/op  10 allocs/op",
		"BenchmarkFloor/atomic-add-2        300000000     2.10 ns/op",
		"PASS",
	}, "\n")
	run, err := parseBenchOutput(strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	if run.cpu != "AMD EPYC 7B13" {
		t.Errorf("cpu = %q", run.cpu)
	}
	wantNames := []string{"Pass/sentinelgen", "Pass/sentinel-golang", "Floor/atomic-add"}
	if strings.Join(run.names, ",") != strings.Join(wantNames, ",") {
		t.Errorf("names = %v, want %v", run.names, wantNames)
	}
	if got := run.samples["Pass/sentinelgen"]; len(got) != 2 || got[0].nsPerOp != 40 || got[1].nsPerOp != 44 {
		t.Errorf("Pass/sentinelgen samples = %+v", got)
	}
	if got := run.samples["Floor/atomic-add"]; len(got) != 1 || got[0].hasMem {
		t.Errorf("Floor/atomic-add samples = %+v, want one without memory figures", got)
	}
}

func TestParseBenchOutputReportsLineOfBadResult(t *testing.T) {
	_, err := parseBenchOutput(strings.NewReader("PASS\nBenchmarkPass/x-2  100  ? ns/op\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("error = %v, want one naming line 2", err)
	}
}
