package main

import (
	"fmt"
	"io"
	"time"

	"github.com/sentinelgen/sentinelgen/gen"
)

// runGenerate parses the generate flags, loads and checks the packages, and
// writes (or with -check compares) their generated files.
func runGenerate(args []string, stdout, stderr io.Writer) int {
	c := newCommand("sentinelgen", stderr,
		[]string{"usage: sentinelgen [subcommand] [-check] [-v] [-tags list] [packages]"}, printSubcommands)
	check := c.flags.Bool("check", false, "write nothing; list stale, missing or left-over generated files and exit 1 if any")
	if status, ok := c.parse(args); !ok {
		return status
	}

	log := c.log()
	start := time.Now()
	// Opened first: it identifies the generator by hashing the executable,
	// in the background while the packages load.
	cache := gen.OpenCache()
	pkgs, diags, ok := c.load(c.patterns(), printCode)
	if !ok {
		return exitUsage
	}

	res, err := gen.Sync(pkgs, gen.SyncOptions{Check: *check, Log: log, Cache: cache})
	cache.Trim()
	if err != nil {
		c.errorf("%v", err)
	}
	if *check {
		for _, ch := range res.Changes {
			fmt.Fprintf(stdout, "%s: %s\n", relative(ch.Path), ch.Kind)
			if ch.Kind == gen.Stale {
				explainStale(stdout, ch.Path, pkgs, *c.verbose)
			}
		}
	}
	if log != nil {
		fmt.Fprintf(log, "sentinelgen: %d files changed, %d unchanged, total %s\n",
			len(res.Changes), res.Unchanged, time.Since(start).Round(time.Millisecond))
	}
	if len(diags) > 0 || err != nil || (*check && len(res.Changes) > 0) {
		return exitProblems
	}
	return exitOK
}
