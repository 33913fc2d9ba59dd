package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/internal/relpath"
)

// command is what the subcommands share: a flag set with -tags and -v, its
// usage text, and loading the packages the arguments name.
type command struct {
	// name is the flag set's name and the prefix of messages:
	// "sentinelgen", "sentinelgen lint".
	name    string
	flags   *flag.FlagSet
	tags    *string
	verbose *bool
	stderr  io.Writer
	// args are the package patterns, in order, wherever they stood among
	// the flags.
	args []string
}

// newCommand makes the flag set of a subcommand, with -tags and -v; the
// subcommand adds its own flags. On -h or a bad flag the usage lines are
// printed, then the flags, then more when it is not nil.
func newCommand(name string, stderr io.Writer, usage []string, more func(io.Writer)) *command {
	c := &command{name: name, flags: flag.NewFlagSet(name, flag.ContinueOnError), stderr: stderr}
	c.flags.SetOutput(stderr)
	c.tags = c.flags.String("tags", "", "comma-separated build tags for loading the packages")
	c.verbose = c.flags.Bool("v", false, "report what is loaded and done, with timings, on stderr")
	c.flags.Usage = func() {
		for _, line := range usage {
			fmt.Fprintln(stderr, line)
		}
		c.flags.PrintDefaults()
		if more != nil {
			more(stderr)
		}
	}
	return c
}

// parse reads args: flags and package patterns in any order, as the go
// command reads them ("sentinelgen ./... -check" is "sentinelgen -check
// ./..."). Before "--", an argument starting with "-" is always a flag,
// since no package pattern does; one the command does not know is a usage
// error, never a pattern. When parse returns false the subcommand stops with status:
// exitOK after -h, exitUsage after a bad flag (the flag package has said
// what is wrong and printed the usage).
func (c *command) parse(args []string) (status int, ok bool) {
	// After "--" everything is a pattern, as the flag package reads it.
	var after []string
	for i, a := range args {
		if a == "--" {
			args, after = args[:i], args[i+1:]
			break
		}
	}
	defer func() { c.args = append(c.args, after...) }()
	for {
		if err := c.flags.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK, false
			}
			return exitUsage, false
		}
		args = c.flags.Args()
		// Stop at the first non-flag, take it as a pattern, and go on
		// reading flags after it.
		for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			c.args = append(c.args, args[0])
			args = args[1:]
		}
		if len(args) == 0 {
			return exitOK, true
		}
	}
}

// defaultPattern is the package every subcommand works on when the
// arguments name none: the one in the current directory, as with the go
// command. (It is what //go:generate wants too: go generate runs the command
// once per package, in that package's directory.)
const defaultPattern = "."

// patterns are the package patterns the arguments give, defaultPattern when
// none.
func (c *command) patterns() []string {
	if len(c.args) == 0 {
		return []string{defaultPattern}
	}
	return c.args
}

// tagList is the build tags -tags names.
func (c *command) tagList() []string { return splitTags(*c.tags) }

// log is where -v reports go: stderr with -v, nil without.
func (c *command) log() io.Writer {
	if *c.verbose {
		return c.stderr
	}
	return nil
}

// errorf prints a message prefixed with the command's name.
func (c *command) errorf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "%s: %s\n", c.name, fmt.Sprintf(format, args...))
}

// codeDiagnostics says what load does with the diagnostics of the code.
type codeDiagnostics bool

const (
	// printCode prints them on stderr as file:line:col: message.
	printCode codeDiagnostics = true
	// keepCode leaves them to the caller (lint reports them among its
	// findings, in its own format).
	keepCode codeDiagnostics = false
)

// load loads and checks the packages with the -tags given, reporting the
// load with -v. When the loader itself fails the error is printed and ok is
// false: the subcommand exits with exitUsage. The returned diagnostics are
// the code's problems, printed first with printCode.
func (c *command) load(patterns []string, code codeDiagnostics) (pkgs []*annotate.Package, diags []annotate.Diagnostic, ok bool) {
	pkgs, diags, _, ok = c.loadWith(patterns, code, annotate.Options{})
	return pkgs, diags, ok
}

// loadWith is load with the caller's Known and Keyed options; known
// reports that Known knew the inputs, so that nothing was loaded.
func (c *command) loadWith(patterns []string, code codeDiagnostics, opts annotate.Options) (pkgs []*annotate.Package, diags []annotate.Diagnostic, known, ok bool) {
	start := time.Now()
	log := c.log()
	opts.Tags, opts.Verbose = c.tagList(), log
	pkgs, diags, err := annotate.Load("", patterns, opts)
	if errors.Is(err, annotate.ErrKnownInputs) {
		return nil, nil, true, true
	}
	if err != nil {
		c.errorf("%v", err)
		return nil, nil, false, false
	}
	if log != nil {
		fmt.Fprintf(log, "%s: loaded %d clean packages, %d diagnostics (%s)\n",
			c.name, len(pkgs), len(diags), time.Since(start).Round(time.Millisecond))
	}
	if code == printCode {
		wd, _ := os.Getwd() // "" leaves names as they are
		for _, d := range diags {
			// With the related positions ("... declared here") on indented
			// lines, as the guide shows them.
			fmt.Fprintln(c.stderr, d.Format(wd))
		}
	}
	return pkgs, diags, false, true
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
	return relpath.Below(wd, path)
}
