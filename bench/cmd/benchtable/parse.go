package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// measurement is one line of `go test -bench -benchmem` output: the figures a
// single run of one benchmark reported. B/op and allocs/op are zero and hasMem
// false when the line does not carry them.
type measurement struct {
	nsPerOp     float64
	bytesPerOp  float64
	allocsPerOp float64
	hasMem      bool // B/op and allocs/op were present (-benchmem or ReportAllocs)
	// metrics holds the custom units (b.ReportMetric), such as the rotating
	// harness's ratios to the floor; nil when there are none.
	metrics map[string]float64
}

// benchRun is everything read from one `go test -bench` output stream.
type benchRun struct {
	// cpu is the processor go test named on its "cpu:" line, if any.
	cpu string
	// names lists benchmark names (without the Benchmark prefix and the
	// GOMAXPROCS suffix) in order of first appearance, which is the order the
	// tables keep.
	names []string
	// samples holds every measurement of each name, one per -count repetition.
	samples map[string][]measurement
}

// procsSuffix is the "-N" go test appends to a benchmark name when
// GOMAXPROCS is above 1. Benchmark names in this module never end in a
// number of their own, so stripping it is unambiguous.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// parseBenchOutput reads go test output and collects its benchmark lines.
// Lines that are not benchmark results (PASS, ok, goos, log output) are
// skipped; a benchmark line whose figures cannot be read is an error, because
// a silently dropped sample would shift the medians.
func parseBenchOutput(r io.Reader) (*benchRun, error) {
	run := &benchRun{samples: make(map[string][]measurement)}
	scanner := bufio.NewScanner(r)
	lineNo := 0
	for scanner.Scan() {
		lineNo++
		line := scanner.Text()
		if cpu, ok := strings.CutPrefix(line, "cpu: "); ok {
			run.cpu = strings.TrimSpace(cpu)
			continue
		}
		name, m, ok, err := parseResultLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", lineNo, err)
		}
		if !ok {
			continue
		}
		if _, seen := run.samples[name]; !seen {
			run.names = append(run.names, name)
		}
		run.samples[name] = append(run.samples[name], m)
	}
	if err := scanner.Err(); err != nil {
		return nil, err
	}
	return run, nil
}

// parseResultLine recognises "BenchmarkX/y-2  1000  12.5 ns/op  0 B/op  0
// allocs/op". ok is false for any line that is not a result line, including
// the bare benchmark name go test prints before a sub-benchmark's results
// and "--- FAIL" lines.
func parseResultLine(line string) (name string, m measurement, ok bool, err error) {
	fields := strings.Fields(line)
	if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
		return "", m, false, nil
	}
	if _, convErr := strconv.ParseInt(fields[1], 10, 64); convErr != nil {
		return "", m, false, nil // a name followed by log text, not a result
	}
	name = procsSuffix.ReplaceAllString(strings.TrimPrefix(fields[0], "Benchmark"), "")

	var hasNs, hasBytes, hasAllocs bool
	pairs := fields[2:]
	if len(pairs)%2 != 0 {
		return "", m, false, fmt.Errorf("benchmark %s: figures are not value/unit pairs: %q", name, line)
	}
	for i := 0; i < len(pairs); i += 2 {
		value, convErr := strconv.ParseFloat(pairs[i], 64)
		if convErr != nil {
			return "", m, false, fmt.Errorf("benchmark %s: bad value %q for %s", name, pairs[i], pairs[i+1])
		}
		switch pairs[i+1] {
		case "ns/op":
			m.nsPerOp, hasNs = value, true
		case "B/op":
			m.bytesPerOp, hasBytes = value, true
		case "allocs/op":
			m.allocsPerOp, hasAllocs = value, true
		default:
			// Other units (MB/s, custom metrics) are not part of the
			// table; goals may read them.
			if m.metrics == nil {
				m.metrics = map[string]float64{}
			}
			m.metrics[pairs[i+1]] = value
		}
	}
	if !hasNs {
		return "", m, false, fmt.Errorf("benchmark %s: no ns/op figure", name)
	}
	m.hasMem = hasBytes && hasAllocs
	return name, m, true, nil
}
