package main

import (
	"fmt"
	"io"
	"time"

	"github.com/sentinelgen/sentinelgen/annotate"
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
	// A run whose inputs an earlier run found needing nothing stops after
	// go list: see gen.Cache.KnownRun.
	var key string
	opts := annotate.Options{}
	if cache != nil {
		opts.Known = cache.KnownRun
		opts.Keyed = func(k string) { key = k }
	}
	pkgs, diags, known, ok := c.loadWith(c.patterns(), printCode, opts)
	if !ok {
		return exitUsage
	}
	if known {
		if log != nil {
			fmt.Fprintf(log, "sentinelgen: inputs unchanged since a run that found nothing to do, total %s\n", time.Since(start).Round(time.Millisecond))
		}
		cache.Trim()
		return exitOK
	}

	res, err := gen.Sync(pkgs, gen.SyncOptions{Check: *check, Log: log, Cache: cache})
	if len(diags) == 0 && err == nil && len(res.Changes) == 0 {
		cache.RecordRun(key)
	}
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
