// Command sentinelgen generates the Sentinel guards declared by
// //sentinel:resource directives: one sentinel_gen.go per package.
//
// Usage:
//
//	sentinelgen [-check] [-v] [-tags list] [packages]
//
// Packages are named as for the go command, before or after the flags;
// every subcommand defaults to ".", the package in the current directory.
// "sentinelgen help [subcommand]" prints the usage. With -check nothing is
// written: the command lists every generated file that is stale, missing or
// left over, says why a stale one is (its first differing line; with -v a
// unified diff), and exits 1 if there is any (for CI). Diagnostics go to
// stderr as file:line:col: message, each related position ("... declared
// here") on a tab-indented line below it.
//
// Unchanged packages are not rendered again: a cache in the user cache
// directory (sentinelgen under os.UserCacheDir, like the go command's build
// cache) remembers which output each package model gave, and a file that
// still has that output is left alone. A run that found no diagnostic and
// nothing to write also records its inputs (every package's listing and
// .go files, its imports' export data, the tags and the go environment): the
// next run with the same inputs stops after go list, parsing nothing.
// SENTINELGEN_CACHE=off disables both;
// SENTINELGEN_CACHE=/abs/dir moves it. The results are the same either way.
//
// Exit status: 0 success, 1 problems in the code (or, with -check, files out
// of date), 2 usage errors and loader failures.
//
// From a package, with a tool directive in go.mod:
//
//	//go:generate go tool sentinelgen
//
// The first argument may name a subcommand; without one the command
// generates. "sentinelgen lint -rules DIR" checks rule files against the
// code; "sentinelgen resources" lists the declared resources.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit statuses.
const (
	exitOK       = 0 // success; with -check: everything up to date
	exitProblems = 1 // diagnostics in the code, files out of date, write failures
	exitUsage    = 2 // bad flags or arguments, the loader failed
)

// subcommand is one verb of the command line.
type subcommand struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// subcommands are dispatched on the first argument; anything else is the
// generate command's own flags and patterns. (A function rather than a
// variable: the usage text of each subcommand lists them all.)
func subcommands() []subcommand {
	return []subcommand{
		{name: "generate", summary: "write sentinel_gen.go files (the default)", run: runGenerate},
		{name: "lint", summary: "check rule files against the code and known pitfalls", run: runLint},
		{name: "resources", summary: "list the declared resources (table or JSON)", run: runResources},
		{name: "help", summary: "print the usage of the command or of a subcommand (help lint)", run: runHelp},
	}
}

// runHelp prints the usage text a subcommand prints for -h: "help" alone
// the generate command's (which lists the subcommands), "help NAME" that
// subcommand's. A name that is no subcommand is a usage error: without this
// verb, "sentinelgen help" was read as a package pattern and failed in the
// loader.
func runHelp(args []string, stdout, stderr io.Writer) int {
	name := "generate"
	switch len(args) {
	case 0:
	case 1:
		name = args[0]
	default:
		fmt.Fprintln(stderr, "usage: sentinelgen help [subcommand]")
		return exitUsage
	}
	for _, c := range subcommands() {
		if c.name == name && name != "help" {
			// The usage goes where -h sends it; help asked for it, so it is
			// no error.
			c.run([]string{"-h"}, stdout, stderr)
			return exitOK
		}
	}
	fmt.Fprintf(stderr, "sentinelgen help: unknown subcommand %q\n", name)
	printSubcommands(stderr)
	return exitUsage
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is the whole command, apart from the process: tests call it directly.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		for _, c := range subcommands() {
			if c.name == args[0] {
				return c.run(args[1:], stdout, stderr)
			}
		}
	}
	return runGenerate(args, stdout, stderr)
}

// printSubcommands completes the usage text.
func printSubcommands(w io.Writer) {
	fmt.Fprintln(w, "\nSubcommands:")
	for _, c := range subcommands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
}
