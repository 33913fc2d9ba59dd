// Command benchtable turns `go test -bench -benchmem -count N` output on
// standard input into markdown tables of medians, with each library's time
// as a multiple of sentinelgen's, then each library's parallel figure as a
// multiple of its serial one (medians and the range over rounds), and the
// speed goals with whether this run met them. Lines in the same format from
// java-jmh/run.sh join the tables as the case java-sentinel.
//
// Usage:
//
//	go test -run '^$' -bench . -benchmem -count 5 | go run ./cmd/benchtable [-strict]
//
// With -strict the exit status is 1 when a goal is missed or not measured,
// so a script or CI step can gate on the goals.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	strict := flag.Bool("strict", false, "exit with status 1 when any goal is missed or not measured")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *strict); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// errGoalsNotMet is returned in strict mode after the table has been written.
var errGoalsNotMet = errors.New("goals not met")

func run(in io.Reader, out io.Writer, strict bool) error {
	parsed, err := parseBenchOutput(in)
	if err != nil {
		return err
	}
	if len(parsed.names) == 0 {
		return errors.New("no benchmark results in input")
	}
	stats := summarize(parsed)
	verdicts := checkGoals(issueGoals, stats)
	if err := writeTables(out, parsed, stats, verdicts); err != nil {
		return err
	}
	if strict {
		for _, v := range verdicts {
			if v.status != goalMet {
				return errGoalsNotMet
			}
		}
	}
	return nil
}
