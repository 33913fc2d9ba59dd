package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/sentinelgen/sentinelgen/lint"
	"github.com/sentinelgen/sentinelgen/rules"
)

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// runLint checks rule files against the resources of the packages:
//
//	sentinelgen lint [-rules FILE_OR_DIR]... [-json] [-tags list] [-v] [-list] [packages]
//
// Findings go to stdout as "file:line: [check] message", or with -json as an
// array of {file, line, path, check, severity, message, suggestion?}. An
// invalid rule is reported (invalid-rule) and the other checks run on every
// valid rule, also those in the same file. Exit status: 0 no errors (warnings
// allowed), 1 errors, 2 usage errors and failures to load the packages or
// read the rule files.
func runLint(args []string, stdout, stderr io.Writer) int {
	c := newCommand("sentinelgen lint", stderr, []string{
		"usage: sentinelgen lint [-rules FILE_OR_DIR]... [-json] [-tags list] [-v] [-list] [packages]",
		"Checks rule files against the resources the packages (default: the one in the current directory) declare.",
	}, nil)
	var ruleFiles stringList
	c.flags.Var(&ruleFiles, "rules", "rule file, or directory of *.toml and *.json rule files (repeatable)")
	asJSON := c.flags.Bool("json", false, "print the findings as a JSON array")
	list := c.flags.Bool("list", false, "list the checks with the lesson each encodes, and exit")
	if status, ok := c.parse(args); !ok {
		return status
	}
	if *list {
		printChecks(stdout)
		return exitOK
	}

	// With rulesErr the set is partial (the rules without a problem of
	// their own): the checks still run on it, beside an invalid-rule
	// finding per problem.
	set, rulesErr := rules.LoadAll(ruleFiles...)
	if _, other := rules.SplitErrors(rulesErr); other != nil {
		// A file that cannot be read at all: nothing to lint against.
		c.errorf("%v", other)
		return exitUsage
	}
	pkgs, code, ok := c.load(c.patterns(), keepCode)
	if !ok {
		return exitUsage
	}
	diags := lint.Run(pkgs, set, lint.Options{RulesErr: rulesErr, Code: code})
	for i := range diags {
		diags[i].Pos.File = relative(diags[i].Pos.File)
		for j := range diags[i].Related {
			diags[i].Related[j].Pos.File = relative(diags[i].Related[j].Pos.File)
		}
	}
	if err := printDiagnostics(stdout, diags, *asJSON); err != nil {
		c.errorf("%v", err)
		return exitUsage
	}
	if lint.HasErrors(diags) {
		return exitProblems
	}
	return exitOK
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
