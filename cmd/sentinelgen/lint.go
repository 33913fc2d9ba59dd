package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/sentinelgen/sentinelgen/internal/rulestore"
	"github.com/sentinelgen/sentinelgen/lint"
	"github.com/sentinelgen/sentinelgen/rules"
)

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// runLint checks rule files against the resources of the packages:
//
//	sentinelgen lint [-rules FILE_OR_DIR_OR_URL]... [-json] [-tags list] [-v] [-list] [packages]
//
// A -rules value may name a store instead of a file (nacos://, etcd://,
// redis://; see internal/rulestore): its documents are read once and
// checked like files, positions naming the dataId or key. Findings go to stdout as "file:line: [check] message", or with -json as an
// array of {file, line, path, check, severity, message, suggestion?}. An
// invalid rule is reported (invalid-rule) and the other checks run on every
// valid rule, also those in the same file. Exit status: 0 no errors (warnings
// allowed), 1 errors, 2 usage errors and failures to load the packages or
// read the rule files.
func runLint(args []string, stdout, stderr io.Writer) int {
	c := newCommand("sentinelgen lint", stderr, []string{
		"usage: sentinelgen lint [-rules FILE_OR_DIR_OR_URL]... [-json] [-tags list] [-v] [-list] [packages]",
		"Checks rule files against the resources the packages (default: the one in the current directory) declare.",
	}, nil)
	var ruleFiles stringList
	c.flags.Var(&ruleFiles, "rules", "rule file, directory of *.toml and *.json rule files, or store URL: nacos://host:port/?app=APP&namespace=NS, etcd://host:port/KEY_OR_PREFIX/, redis://host:port/?key=KEY (repeatable)")
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
	set, rulesErr := loadRules(context.Background(), ruleFiles)
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

// loadRules reads every -rules value in order, files and directories with
// rules.LoadAll, stores with rulestore.Read, and merges their rules: like
// LoadAll, the set holds every valid rule and the error joins every problem.
func loadRules(ctx context.Context, values []string) (rules.Set, error) {
	var (
		set  rules.Set
		errs []error
	)
	for _, v := range values {
		var (
			s   rules.Set
			err error
		)
		if rulestore.IsURL(v) {
			var docs []rules.Document
			if docs, err = rulestore.Read(ctx, v); err == nil {
				s, err = rules.ParseAll(docs)
			}
		} else {
			s, err = rules.LoadAll(v)
		}
		set = set.Merge(s)
		errs = append(errs, err)
	}
	return set, errors.Join(errs...)
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
