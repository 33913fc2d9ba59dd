package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/gen"
)

// runGenerate parses the generate flags, loads and checks the packages, and
// writes (or with -check compares) their generated files.
func runGenerate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sentinelgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "write nothing; list stale, missing or left-over generated files and exit 1 if any")
	verbose := fs.Bool("v", false, "report packages loaded, files written and timings on stderr")
	tags := fs.String("tags", "", "comma-separated build tags for loading the packages")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sentinelgen [subcommand] [-check] [-v] [-tags list] [packages]")
		fs.PrintDefaults()
		printSubcommands(stderr)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"."}
	}

	var log io.Writer
	if *verbose {
		log = stderr
	}
	start := time.Now()
	// Opened first: it identifies the generator by hashing the executable,
	// in the background while the packages load.
	cache := gen.OpenCache()
	pkgs, diags, err := annotate.Load("", patterns, annotate.Options{Tags: splitTags(*tags), Verbose: log})
	if err != nil {
		fmt.Fprintf(stderr, "sentinelgen: %v\n", err)
		return exitUsage
	}
	if log != nil {
		fmt.Fprintf(log, "sentinelgen: loaded %d clean packages, %d diagnostics (%s)\n",
			len(pkgs), len(diags), time.Since(start).Round(time.Millisecond))
	}
	for _, d := range diags {
		fmt.Fprintln(stderr, d.String())
	}

	res, err := gen.Sync(pkgs, gen.SyncOptions{Check: *check, Log: log, Cache: cache})
	cache.Trim()
	if err != nil {
		fmt.Fprintf(stderr, "sentinelgen: %v\n", err)
	}
	if *check {
		for _, c := range res.Changes {
			fmt.Fprintf(stdout, "%s: %s\n", relative(c.Path), c.Kind)
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

// splitTags reads -tags as the go command does: comma-separated (spaces
// accepted for the old form).
func splitTags(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

// relative shortens path to be relative to the working directory when it is
// below it.
func relative(path string) string {
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return path
	}
	return rel
}
