package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// command is one timed command, run in the measured module's directory.
type command struct {
	label string   // as printed, e.g. "go list -export -deps ./..."
	argv  []string // program and arguments
	dir   string   // where it runs instead, when not ""
}

// run executes c in dir (c.dir when set), discarding its standard output (go list prints a
// line per package) and returning its standard error in any failure.
func (c command) run(ctx context.Context, dir string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, c.argv[0], c.argv[1:]...)
	cmd.Dir = dir
	if c.dir != "" {
		cmd.Dir = c.dir
	}
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	begin := time.Now()
	err := cmd.Run()
	elapsed := time.Since(begin)
	if err != nil {
		return 0, fmt.Errorf("%s: %w\n%s", c.label, err, strings.TrimSpace(stderr.String()))
	}
	return elapsed, nil
}

// timings holds the measured runs of each command, by label.
type timings map[string][]time.Duration

// median returns the middle value of ds (the mean of the two middle values
// for an even count), which ignores an occasional run disturbed by the
// other processes sharing the machine.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	return (s[mid-1] + s[mid]) / 2
}

// measureRounds runs every command once per round, the commands interleaved
// so that a slow spell of the machine hits all of them alike.
func measureRounds(ctx context.Context, dir string, cmds []command, rounds int) (timings, error) {
	t := make(timings)
	for range rounds {
		for _, c := range cmds {
			d, err := c.run(ctx, dir)
			if err != nil {
				return nil, err
			}
			t[c.label] = append(t[c.label], d)
		}
	}
	return t, nil
}

// seconds formats d as seconds with two decimals.
func seconds(d time.Duration) string { return fmt.Sprintf("%.2fs", d.Seconds()) }
