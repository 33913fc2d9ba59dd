package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/sentinelgen/sentinelgen/annotate"
	"github.com/sentinelgen/sentinelgen/lint"
	"github.com/sentinelgen/sentinelgen/rules"
)

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// runLint checks rule files against the resources of the packages:
//
//	sentinelgen lint [-rules FILE_OR_DIR]... [-json] [-tags list] [-list] [packages]
//
// Findings go to stdout as "file:line: [check] message", or with -json as an
// array of {file, line, path, check, severity, message, suggestion?}. Exit
// status: 0 no errors (warnings allowed), 1 errors, 2 usage errors and
// failures to load the packages or read the rule files.
func runLint(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sentinelgen lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ruleFiles stringList
	fs.Var(&ruleFiles, "rules", "rule file, or directory of *.toml and *.json rule files (repeatable)")
	asJSON := fs.Bool("json", false, "print the findings as a JSON array")
	tags := fs.String("tags", "", "comma-separated build tags for loading the packages")
	list := fs.Bool("list", false, "list the checks with the lesson each encodes, and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: sentinelgen lint [-rules FILE_OR_DIR]... [-json] [-tags list] [-list] [packages]")
		fmt.Fprintln(stderr, "Checks rule files against the resources the packages (default ./...) declare.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *list {
		printChecks(stdout)
		return exitOK
	}
	patterns := fs.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}

	set, rulesErr := rules.LoadAll(ruleFiles...)
	if rulesErr != nil && !onlyRuleErrors(rulesErr) {
		fmt.Fprintf(stderr, "sentinelgen lint: %v\n", rulesErr)
		return exitUsage
	}
	tagList := splitTags(*tags)
	pkgs, code, err := annotate.Load("", patterns, annotate.Options{Tags: tagList})
	if err != nil {
		fmt.Fprintf(stderr, "sentinelgen lint: %v\n", err)
		return exitUsage
	}
	diags := lint.Run(pkgs, set, lint.Options{RulesErr: rulesErr, Code: code, Tags: tagList})
	for i := range diags {
		diags[i].Pos.File = relative(diags[i].Pos.File)
	}
	if err := printDiagnostics(stdout, diags, *asJSON); err != nil {
		fmt.Fprintf(stderr, "sentinelgen lint: %v\n", err)
		return exitUsage
	}
	if lint.HasErrors(diags) {
		return exitProblems
	}
	return exitOK
}

// onlyRuleErrors reports whether every error joined in err is a
// *rules.Error: a problem in a rule, not a file that cannot be read.
func onlyRuleErrors(err error) bool {
	switch e := err.(type) {
	case *rules.Error:
		return true
	case interface{ Unwrap() []error }:
		for _, x := range e.Unwrap() {
			if !onlyRuleErrors(x) {
				return false
			}
		}
		return true
	}
	return false
}

func printDiagnostics(w io.Writer, diags []lint.Diagnostic, asJSON bool) error {
	if asJSON {
		if diags == nil {
			diags = []lint.Diagnostic{} // an empty array, not null
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(diags)
	}
	for _, d := range diags {
		if _, err := fmt.Fprintln(w, d.String()); err != nil {
			return err
		}
	}
	return nil
}

// printChecks writes the -list text: each check's id and severity, what it
// catches and the lesson behind it.
func printChecks(w io.Writer) {
	for _, c := range lint.Checks() {
		fmt.Fprintf(w, "%s (%s)\n    %s\n    lesson: %s\n", c.ID, c.Severity, c.Summary, c.Lesson)
	}
}
